package org.sparkbeton.loader.store;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.loader.io.PayloadStore;
import org.sparkbeton.loader.io.PayloadView;
import org.sparkbeton.loader.io.Shards;

/**
 * A remote dataset read in place with ranged reads of its {@link DatasetStore}, nothing staged: for measuring it
 * ({@code beton doctor}, {@code beton bench}), not for training. Opening reads the manifest and every shard's
 * metadata as {@link RemoteDataset} does; a reader's payload reads ({@code BetonReader.value}) are then ranged reads
 * of the store, one per payload.
 */
public final class RangedDataset implements Closeable {
  private final DatasetStore store;
  private final List<ShardEntry> entries;
  private final List<String> names;
  private final Shards shards;

  private RangedDataset(DatasetStore store, List<ShardEntry> entries, List<String> names, Shards shards) {
    this.store = store;
    this.entries = entries;
    this.names = names;
    this.shards = shards;
  }

  /** Opens the dataset at {@code store}, which {@link #close()} closes; errors name the store. */
  public static RangedDataset open(DatasetStore store) throws IOException {
    List<ShardEntry> entries = ShardMetadata.readManifest(store).shards();
    List<String> names = new ArrayList<>();
    for (ShardEntry e : entries) {
      names.add(ShardMetadata.shardName(store.uri(), e));
    }
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(8, entries.size()), r -> {
      Thread t = new Thread(r, "beton-metadata");
      t.setDaemon(true);
      return t;
    });
    BetonReader[] readers;
    try {
      readers = ShardMetadata.openAll(pool, entries.size(), store.uri(), i -> {
        ShardEntry e = entries.get(i);
        return ShardMetadata.open(store, e, new MetadataSource(names.get(i), e.bytes(),
            (position, dst) -> store.readFully(e.path(), position, dst)));
      });
    } finally {
      pool.shutdown();
    }
    try {
      PayloadStore[] stores = new PayloadStore[readers.length];
      for (int i = 0; i < stores.length; i++) {
        stores[i] = new Ranged(store, entries.get(i).path());
      }
      return new RangedDataset(store, List.copyOf(entries), List.copyOf(names), Shards.of(readers, stores));
    } catch (RuntimeException x) {
      ShardMetadata.closeAll(readers);
      throw x;
    }
  }

  /** The shards' readers; their payload reads are ranged reads of the store. */
  public Shards shards() {
    return shards;
  }

  /** The manifest's shards, in order. */
  public List<ShardEntry> entries() {
    return entries;
  }

  /** Each shard's full URI, for messages. */
  public List<String> names() {
    return names;
  }

  public DatasetStore store() {
    return store;
  }

  public URI uri() {
    return store.uri();
  }

  /** The shards' bytes, all of them (what a cache holding the dataset needs). */
  public long totalBytes() {
    return entries.stream().mapToLong(ShardEntry::bytes).sum();
  }

  public long maxShardBytes() {
    return entries.stream().mapToLong(ShardEntry::bytes).max().orElse(0);
  }

  @Override
  public void close() throws IOException {
    try {
      shards.close();
    } finally {
      store.close();
    }
  }

  /** Payload bytes by ranged reads of the store (the loader never runs on these shards). */
  private record Ranged(DatasetStore store, String shard) implements PayloadStore {
    @Override
    public void copy(long position, int length, ByteBuffer dst, int dstOffset) {
      byte[] b = new byte[length];
      try {
        store.readFully(shard, position, b);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      dst.put(dstOffset, b);
    }

    @Override
    public boolean view(long position, int length, PayloadView view) {
      return false;
    }
  }
}
