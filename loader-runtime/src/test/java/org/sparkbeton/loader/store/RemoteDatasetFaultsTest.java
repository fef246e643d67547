package org.sparkbeton.loader.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
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
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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

  /**
   * A byte of a cached copy changed after its download (a failing disk, a write into the cache directory): the
   * copy is trusted by its name, and its pages were read unchecked, wrong values without an error.
   */
  @Test
  void aCachedCopyChangedAfterItsDownloadFailsItsPageCheckNamingTheCopy() throws Exception {
    Path store = dataset(tmp);
    Path cache = tmp.resolve("cache");
    try (Loader loader = remote(store, cache).order(OrderOption.SEQUENTIAL).build()) {
      assertThat(sortedLabels(epoch(loader))).isEqualTo(range(SAMPLES));
    }
    String key = DatasetVerifier.manifest(store).shards().get(5).checksum().value();
    Path copy;
    try (var files = Files.list(cache)) {
      copy = files.filter(p -> p.getFileName().toString().startsWith(key) && p.toString().endsWith(".beton"))
          .findFirst().orElseThrow();
    }
    long dataAt;
    try (BetonReader r = BetonReader.open(copy)) {
      dataAt = r.metadataEnd() + 100; // a payload byte
    }
    try (RandomAccessFile f = new RandomAccessFile(copy.toFile(), "rw")) {
      f.seek(dataAt);
      int b = f.read();
      f.seek(dataAt);
      f.write(b ^ 0x40);
    }
    try (Loader loader = remote(store, cache).order(OrderOption.SEQUENTIAL).build()) {
      assertThatThrownBy(() -> epoch(loader))
          .hasMessageContaining(copy + " (this node's cached copy of " + store.toUri() + "part-00005.beton; delete"
              + " it and the loader downloads the shard again): page ")
          .hasMessageContaining("the shard changed after it was written");
    }
    Files.delete(copy);
    try (Loader loader = remote(store, cache).order(OrderOption.SEQUENTIAL).build()) {
      assertThat(sortedLabels(epoch(loader))).isEqualTo(range(SAMPLES));
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

  @Test
  void aLeftoverPartWhoseBytesAreNotTheShardsIsDiscardedAndTheShardDownloadedFromScratch() throws Exception {
    Path store = dataset(tmp);
    Path cache = Files.createDirectories(tmp.resolve("cache"));
    String victim = ShardDirs.shardName(4);
    long size = Files.size(store.resolve(victim));
    String key = DatasetVerifier.manifest(store).shards().get(4).checksum().value();
    Files.write(cache.resolve(key + "-" + size + ".part"), new byte[(int) (size / 2)]); // zeros: not its prefix
    List<long[]> victimDownloads = new CopyOnWriteArrayList<>();
    Counting counting = new Counting() {
      @Override
      public void downloaded(String shard, long fetched, long resumedFrom) {
        if (shard.equals(victim)) {
          victimDownloads.add(new long[] {fetched, resumedFrom});
        }
      }
    };
    try (Loader loader = remote(store, cache).order(OrderOption.SEQUENTIAL).stagingListener(counting).build()) {
      assertThat(sortedLabels(epoch(loader))).isEqualTo(range(SAMPLES));
    }
    assertThat(victimDownloads).singleElement().satisfies(r -> assertThat(r).as("fetched, resumed from")
        .containsExactly(size, 0));
    assertThat(cache.resolve(key + ".beton")).hasSize(size);
    assertThat(cache.resolve(key + "-" + size + ".part")).doesNotExist();
  }

  @Test
  void aShardShorterInTheStoreThanItsManifestFailsAtOnceNamingBothSizes() throws Exception {
    Path store = dataset(tmp);
    String victim = ShardDirs.shardName(2);
    long size = Files.size(store.resolve(victim));
    AtomicBoolean cut = new AtomicBoolean();
    DatasetStoreProvider shortened = opening(() -> new LocalStore(store) {
      @Override
      public InputStream open(String shard, long offset) throws IOException {
        InputStream in = super.open(shard, offset);
        return cut.get() && shard.equals(victim) ? cutAt(in, offset, 100_000) : in;
      }

      @Override
      public void readFully(String shard, long position, byte[] dst) throws IOException {
        if (cut.get() && shard.equals(victim) && position + dst.length > 100_000) {
          throw new java.io.EOFException(shard + " ends at byte 100000");
        }
        super.readFully(shard, position, dst);
      }
    });
    Counting counting = new Counting();
    try (Loader loader = remote(store.toUri(), shortened, tmp.resolve("cache")).order(OrderOption.SEQUENTIAL)
        .stagingListener(counting).build()) {
      cut.set(true); // after its metadata was read: the copy was cut since
      assertThatThrownBy(() -> epoch(loader))
          .hasMessageContaining("Shard " + victim + " of " + store.toUri() + " is shorter in the store than its manifest"
              + " says: the store's copy ends at byte 100000, the manifest lists " + size + " bytes. A retry would read"
              + " the same copy");
    }
    assertThat(counting.retries).as("not retried").hasValue(0);
  }

  /**
   * A dataset uploaded in part (the manifest with some of its shards) or a shard cut short in the store, met when
   * the loader opens it: said as such (the store's own words were "no such file", or a bare end of file, which the
   * loader had put as a shard deleted since it read the manifest).
   */
  @Test
  void aShardMissingOrCutShortWhenTheLoaderOpensIsSaidToBe() throws Exception {
    Path missing = dataset(tmp.resolve("missing"));
    String gone = ShardDirs.shardName(3);
    Files.delete(missing.resolve(gone));
    assertThatThrownBy(() -> remote(missing, tmp.resolve("cache-missing")).build())
        .hasMessage("Shard " + gone + " of " + missing.toUri() + " is missing: the manifest lists it, and the store has"
            + " no such file (not uploaded with the manifest, or deleted since); `beton verify " + missing.toUri()
            + "` lists every shard missing or cut short");

    Path cut = dataset(tmp.resolve("cut"));
    String victim = ShardDirs.shardName(4);
    long size = Files.size(cut.resolve(victim));
    try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(cut.resolve(victim),
        java.nio.file.StandardOpenOption.WRITE)) {
      ch.truncate(size / 2);
    }
    assertThatThrownBy(() -> remote(cut, tmp.resolve("cache-cut")).build())
        .hasMessage("Shard " + victim + " of " + cut.toUri() + " is shorter than the manifest's " + size + " bytes"
            + " (its metadata ends past the store's copy): cut short, or still being uploaded; `beton verify "
            + cut.toUri() + "` lists every shard missing or cut short");
  }

  @Test
  void aStreamThatEndsEarlyWhileTheStoreHoldsTheWholeShardIsRetried() throws Exception {
    Path store = dataset(tmp);
    String victim = ShardDirs.shardName(2);
    AtomicInteger cuts = new AtomicInteger(1);
    DatasetStoreProvider early = opening(() -> new LocalStore(store) {
      @Override
      public InputStream open(String shard, long offset) throws IOException {
        InputStream in = super.open(shard, offset);
        return shard.equals(victim) && cuts.getAndDecrement() > 0 ? cutAt(in, offset, 100_000) : in;
      }
    });
    Counting counting = new Counting();
    try (Loader loader = remote(store.toUri(), early, tmp.resolve("cache")).order(OrderOption.SEQUENTIAL)
        .stagingListener(counting).build()) {
      assertThat(sortedLabels(epoch(loader))).isEqualTo(range(SAMPLES));
    }
    assertThat(counting.retries).hasValue(1);
  }

  /** Opens every URI as the store {@code store} makes. */
  static DatasetStoreProvider opening(java.util.function.Supplier<DatasetStore> store) {
    return new DatasetStoreProvider() {
      @Override
      public boolean supports(URI uri) {
        return true;
      }

      @Override
      public DatasetStore open(URI uri) {
        return store.get();
      }
    };
  }

  /** A stream of a shard from {@code offset} that ends (EOF, no error) at byte {@code end} of the shard. */
  static InputStream cutAt(InputStream in, long offset, long end) {
    long[] at = {offset};
    return new FilterInputStream(in) {
      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        if (at[0] >= end) {
          return -1;
        }
        int n = super.read(b, off, (int) Math.min(len, end - at[0]));
        at[0] += Math.max(0, n);
        return n;
      }
    };
  }

  /** Linux's /dev/full fails every write with ENOSPC, as a full disk does; a .part linked to it is a full cache disk. */
  @Test
  void aFullCacheDiskNamesTheShardTheCacheAndABudgetLargerThanTheDisk() throws Exception {
    Path full = Path.of("/dev/full");
    assumeTrue(Files.isWritable(full), "needs Linux's /dev/full");
    try {
      Files.setLastModifiedTime(full, Files.getLastModifiedTime(full)); // the cache touches the .part it reserves
    } catch (IOException e) {
      assumeTrue(false, "cannot touch /dev/full: " + e);
    }
    Path store = dataset(tmp);
    Path cache = Files.createDirectories(tmp.resolve("cache"));
    String victim = ShardDirs.shardName(0);
    long size = Files.size(store.resolve(victim));
    String key = DatasetVerifier.manifest(store).shards().get(0).checksum().value();
    Files.createSymbolicLink(cache.resolve(key + "-" + size + ".part"), full);
    long budget = 1L << 60;
    try (Loader loader = remote(store, cache).order(OrderOption.SEQUENTIAL).cacheBytes(budget).build()) {
      assertThatThrownBy(() -> epoch(loader))
          .hasMessageContaining("Cannot write byte 0 of shard " + victim + " of " + store.toUri() + " (" + size
              + " bytes) into the shard cache: java.io.IOException: No space left on device")
          .hasMessageContaining("The cache is " + cache.toRealPath() + ", its budget " + budget + " bytes; its disk has ")
          .hasMessageContaining(". cacheBytes (" + budget + ") is more than that disk can give the cache (");
    }
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
