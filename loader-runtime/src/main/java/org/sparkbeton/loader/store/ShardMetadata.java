package org.sparkbeton.loader.store;

import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.ReadOptions;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.ShardEntry;

/**
 * What opening a dataset of a {@link DatasetStore} reads, for {@link RemoteDataset} and {@link RangedDataset}
 * alike: the manifest, then every shard's metadata in parallel, each checked against the manifest. Errors name
 * the store.
 */
final class ShardMetadata {
  private ShardMetadata() {}

  /** Opens shard {@code shard}'s metadata; what {@link #openAll} runs for each shard. */
  @FunctionalInterface
  interface Opener {
    BetonReader open(int shard) throws IOException;
  }

  /** The store's manifest; a missing, invalid or empty one is refused with the store's name. */
  static DatasetManifest readManifest(DatasetStore store) throws IOException {
    DatasetManifest manifest;
    try {
      manifest = DatasetManifest.parse(new String(store.readManifest(), StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Dataset " + store.uri() + ": " + DatasetManifest.FILE_NAME + ": "
          + e.getMessage(), e);
    }
    if (manifest.shards().isEmpty()) {
      throw new IllegalArgumentException("Dataset " + store.uri() + " has no shards (its manifest lists 0 samples)");
    }
    return manifest;
  }

  /** A shard's full URI, for messages. */
  static String shardName(URI dataset, ShardEntry e) {
    String base = dataset.toString();
    return base + (base.endsWith("/") ? "" : "/") + e.path();
  }

  /**
   * Opens shards {@code 0..count-1} on {@code pool}, all of them or none: on any failure the readers opened are
   * closed and the first failure is thrown.
   */
  static BetonReader[] openAll(ExecutorService pool, int count, URI dataset, Opener opener) throws IOException {
    List<Future<BetonReader>> opening = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int shard = i;
      opening.add(pool.submit(() -> opener.open(shard)));
    }
    BetonReader[] readers = new BetonReader[count];
    Throwable failure = null;
    for (int i = 0; i < readers.length; i++) {
      try {
        readers[i] = opening.get(i).get();
      } catch (ExecutionException e) {
        failure = failure == null ? e.getCause() : failure;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failure = failure == null ? e : failure;
      }
    }
    if (failure != null) {
      closeAll(readers);
      if (failure instanceof IOException io) {
        throw io;
      }
      if (failure instanceof RuntimeException re) {
        throw re;
      }
      if (failure instanceof Error err) {
        throw err;
      }
      throw new IOException("Cannot open the shards of " + dataset + ": " + failure, failure);
    }
    return readers;
  }

  /**
   * Opens shard {@code e}'s metadata from {@code source}: reads it all into the source and checks its sample count
   * against the manifest's. An I/O error names the shard and the store; a shard the store lacks, or holds shorter
   * than the manifest says (a dataset uploaded in part, a copy cut short), says so: the store's own words were "no
   * such file" or a bare end of file.
   */
  static BetonReader open(DatasetStore store, ShardEntry e, MetadataSource source) throws IOException {
    try {
      BetonReader reader = BetonReader.open(source, ReadOptions.defaults());
      try {
        source.preload(reader.metadataStart(), reader.metadataEnd());
        if (reader.numSamples() != e.samples()) {
          throw new IllegalArgumentException("Dataset " + store.uri() + ": shard " + e.path() + " holds "
              + reader.numSamples() + " samples but the manifest says " + e.samples());
        }
      } catch (IOException | RuntimeException | Error x) {
        reader.close();
        throw x;
      }
      return reader;
    } catch (FileNotFoundException | NoSuchFileException x) {
      throw new IOException("Shard " + e.path() + " of " + store.uri() + " is missing: the manifest lists it, and"
          + " the store has no such file (not uploaded with the manifest, or deleted since); "
          + verifyHint(store), x);
    } catch (EOFException x) {
      throw new IOException("Shard " + e.path() + " of " + store.uri() + " is shorter than the manifest's "
          + e.bytes() + " bytes (its metadata ends past the store's copy): cut short, or still being uploaded; "
          + verifyHint(store), x);
    } catch (IOException x) {
      throw new IOException("Cannot read the metadata of shard " + e.path() + " of " + store.uri() + ": " + x, x);
    }
  }

  private static String verifyHint(DatasetStore store) {
    return "`beton verify " + store.uri() + "` lists every shard missing or cut short";
  }

  /** Closes the readers opened ({@code null} ones are not). */
  static void closeAll(BetonReader[] readers) throws IOException {
    for (BetonReader r : readers) {
      if (r != null) {
        r.close();
      }
    }
  }
}
