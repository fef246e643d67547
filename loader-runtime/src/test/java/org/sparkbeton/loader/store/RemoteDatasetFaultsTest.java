package org.sparkbeton.loader.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.sparkbeton.loader.store.RemoteDatasetTest.SAMPLES;
import static org.sparkbeton.loader.store.RemoteDatasetTest.dataset;
import static org.sparkbeton.loader.store.RemoteDatasetTest.epoch;
import static org.sparkbeton.loader.store.RemoteDatasetTest.range;
import static org.sparkbeton.loader.store.RemoteDatasetTest.remote;
import static org.sparkbeton.loader.store.RemoteDatasetTest.sortedLabels;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.dataset.DatasetVerifier;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.store.RemoteDatasetTest.Counting;
import org.sparkbeton.loader.testing.ShardDirs;

/**
 * The staging path against a store that fails or lies (a local directory whose reads a test tampers with): a shard
 * corrupt in the store, a download broken mid-stream and resumed by the next loader, metadata that does not match
 * the shard. Each fails with a message naming the shard and the store, and nothing corrupt is trained on.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES) // a staging bug hangs rather than fails: make it fail
class RemoteDatasetFaultsTest {
  @TempDir Path tmp;

  @Test
  void aShardCorruptInTheStoreFailsNamingItAndTheStoreAndIsNeverUsed() throws Exception {
    Path store = dataset(tmp);
    Path shard = store.resolve(ShardDirs.shardName(5));
    long dataAt;
    try (BetonReader r = BetonReader.open(shard)) {
      dataAt = r.metadataEnd() + 100; // a payload byte: the metadata still reads fine
    }
    try (RandomAccessFile f = new RandomAccessFile(shard.toFile(), "rw")) {
      f.seek(dataAt);
      int b = f.read();
      f.seek(dataAt);
      f.write(b ^ 0x40);
    }
    Path cache = tmp.resolve("cache");
    try (Loader loader = remote(store, cache).order(OrderOption.RANDOM).build()) {
      assertThatThrownBy(() -> epoch(loader))
          .hasMessageContaining("Shard part-00005.beton of " + store.toUri())
          .hasMessageContaining("is corrupt: the sha256 of its")
          .hasMessageContaining("none of its samples were used");
    }
    String key = DatasetVerifier.manifest(store).shards().get(5).checksum().value();
    try (var files = Files.list(cache)) {
      assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith(key) && !n.endsWith(".lock"));
    }
  }

  @Test
  void aFailedDownloadKeepsItsBytesAndTheNextLoaderResumesThem() throws Exception {
    Path store = dataset(tmp);
    Path cache = tmp.resolve("cache");
    String victim = ShardDirs.shardName(7);
    long size = Files.size(store.resolve(victim));
    // a store whose streams of one shard break after 100,000 bytes
    DatasetStoreProvider breaking = new Provider(store, victim, 100_000, Integer.MAX_VALUE);
    Counting first = new Counting();
    try (Loader loader = remote(store.toUri(), breaking, cache).order(OrderOption.SEQUENTIAL).downloadRetries(2)
        .downloads(1).stagingListener(first).build()) {
      assertThatThrownBy(() -> epoch(loader))
          .hasMessageContaining("Cannot download shard " + victim + " of " + store.toUri() + ": 3 reads in a row failed")
          .hasMessageContaining("Its first 100000 of " + size + " bytes stay in the cache");
    }
    assertThat(first.retries).hasValue(2);
    String key = DatasetVerifier.manifest(store).shards().get(7).checksum().value();
    assertThat(cache.resolve(key + "-" + size + ".part")).hasSize(100_000);
    assertThat(cache.resolve(key + ".beton")).doesNotExist();
    // a store that breaks once more, then recovers: retried within the download, resumed from the cache
    Counting second = new Counting();
    try (Loader loader = remote(store.toUri(), new Provider(store, victim, 150_000, 1), cache)
        .order(OrderOption.SEQUENTIAL).stagingListener(second).build()) {
      assertThat(sortedLabels(epoch(loader))).isEqualTo(range(SAMPLES));
    }
    assertThat(second.retries).hasValue(1);
    assertThat(second.downloads.get(victim)).hasValue(1);
    assertThat(second.hits.get(ShardDirs.shardName(0))).as("shards done before the failure").hasValue(1);
    assertThat(second.resumed).anySatisfy(r -> assertThat(r).containsExactly(size - 100_000, 100_000));
  }

  /** Opens local stores whose streams of {@code victim} end with an error after {@code breakAt} bytes, {@code times} times. */
  private static final class Provider implements DatasetStoreProvider {
    final Path dir;
    final String victim;
    final long breakAt;
    final AtomicInteger times;

    Provider(Path dir, String victim, long breakAt, int times) {
      this.dir = dir;
      this.victim = victim;
      this.breakAt = breakAt;
      this.times = new AtomicInteger(times);
    }

    @Override
    public boolean supports(URI uri) {
      return true;
    }

    @Override
    public DatasetStore open(URI uri) {
      return new LocalStore(dir) {
        @Override
        public InputStream open(String shard, long offset) throws IOException {
          InputStream in = super.open(shard, offset);
          if (!shard.equals(victim) || times.getAndDecrement() <= 0) {
            return in;
          }
          long[] at = {offset};
          return new FilterInputStream(in) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
              if (at[0] >= breakAt) {
                throw new IOException("connection reset (test)");
              }
              int n = super.read(b, off, (int) Math.min(len, breakAt - at[0]));
              at[0] += Math.max(0, n);
              return n;
            }
          };
        }
      };
    }
  }

  @Test
  void aStoreServingOtherMetadataThanItsShardIsRefusedWhenTheShardIsStaged() throws Exception {
    Path store = dataset(tmp);
    String victim = ShardDirs.shardName(3);
    long recordsAt;
    try (BetonReader r = BetonReader.open(store.resolve(victim))) {
      recordsAt = r.metadataStart();
    }
    DatasetStoreProvider lying = new DatasetStoreProvider() {
      @Override
      public boolean supports(URI uri) {
        return true;
      }

      @Override
      public DatasetStore open(URI uri) {
        return new LocalStore(store) {
          @Override
          public void readFully(String shard, long position, byte[] dst) throws IOException {
            super.readFully(shard, position, dst);
            if (shard.equals(victim) && position <= recordsAt && position + dst.length > recordsAt) {
              dst[(int) (recordsAt - position)] ^= 1; // sample 0's label, as a ranged read returns it
            }
          }
        };
      }
    };
    try (Loader loader = remote(store.toUri(), lying, tmp.resolve("cache")).order(OrderOption.SEQUENTIAL).build()) {
      assertThatThrownBy(() -> epoch(loader))
          .hasMessageContaining("Shard " + victim + " of " + store.toUri() + " does not hold the metadata the loader"
              + " read from the store")
          .hasMessageContaining("although its sha256 matches the manifest");
    }
  }
}
