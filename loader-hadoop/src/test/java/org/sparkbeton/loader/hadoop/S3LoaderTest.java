package org.sparkbeton.loader.hadoop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.dataset.DatasetVerifier;
import org.sparkbeton.format.io.HadoopJavaSupport;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.LoaderBuilder;
import org.sparkbeton.loader.decoders.CenterCropRgbDecoder;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.testing.ShardDirs;
import org.sparkbeton.testsupport.S3ProxyServer;

/**
 * The loader over S3 ({@code s3a://}, hadoop-aws 3.3.4) served by a local S3Proxy in its own process, with
 * the Hadoop configuration passed in ({@code new HadoopDatasetStoreProvider(conf)}). Five shards of 24 photos and one of 320 (about 25 MB, so that killing the server interrupts
 * its transfer).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES) // a staging bug hangs rather than fails: make it fail
class S3LoaderTest {
  static final int[] SAMPLES_PER_SHARD = {24, 24, 24, 24, 24, 320};
  static final int SAMPLES = 440;

  @TempDir static Path tmp;
  static S3ProxyServer s3;
  static Path local;

  @BeforeAll
  static void setUp() throws Exception {
    assumeTrue(HadoopJavaSupport.refusal().isEmpty(), () -> HadoopJavaSupport.refusal().get());
    s3 = S3ProxyServer.start(tmp.resolve("s3"));
    local = PhotoShards.write(tmp.resolve("photos"), SAMPLES_PER_SHARD, g -> g, 40, 3);
    upload(local, "photos");
  }

  @AfterAll
  static void tearDown() {
    if (s3 != null) {
      s3.close();
    }
  }

  static void upload(Path dir, String prefix) throws IOException {
    S3ProxyHadoop.upload(s3, dir, prefix);
  }

  static LoaderBuilder loader(String prefix, Path cache) {
    return loader(prefix, cache, S3ProxyHadoop.conf(s3));
  }

  static LoaderBuilder loader(String prefix, Path cache, Configuration conf) {
    return Loader.builder(s3.uri(prefix), new HadoopDatasetStoreProvider(conf)).cacheDir(cache).batchSize(16)
        .numThreads(2).dropLast(false).seed(3).pipeline("label", new IntDecoder());
  }

  @Test
  @Order(1)
  void coldAndWarmEpochsGiveTheBatchesOfTheLocalFiles() throws Exception {
    Epochs.Counting counting = new Epochs.Counting();
    try (Loader remote = loader("photos", tmp.resolve("cache")).order(OrderOption.RANDOM).stagingListener(counting)
            .pipeline("image", new CenterCropRgbDecoder(40, 40, 224.0 / 256)).build();
        Loader inPlace = Loader.builder(local).batchSize(16).numThreads(2).dropLast(false).seed(3)
            .order(OrderOption.RANDOM).pipeline("label", new IntDecoder())
            .pipeline("image", new CenterCropRgbDecoder(40, 40, 224.0 / 256)).build()) {
      for (int e = 0; e < 2; e++) {
        List<Epochs.Rows> rows = Epochs.read(remote);
        Epochs.assertSame(rows, Epochs.read(inPlace), "epoch " + e);
        assertThat(Epochs.sortedLabels(rows)).isEqualTo(Epochs.range(SAMPLES));
        assertThat(counting.downloadCount()).as("downloads after epoch %d", e).isEqualTo(SAMPLES_PER_SHARD.length);
        assertThat(counting.hits).as("cache hits after epoch %d", e).hasSize(e * SAMPLES_PER_SHARD.length);
      }
    }
  }

  @Test
  @Order(2)
  void aShardCorruptInTheStoreFailsNamingItAndTheStore() throws Exception {
    Path copy = tmp.resolve("corrupt");
    Files.createDirectories(copy);
    try (var files = Files.list(local)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Files.copy(f, copy.resolve(f.getFileName()));
      }
    }
    Path shard = copy.resolve(ShardDirs.shardName(2));
    long at;
    try (BetonReader r = BetonReader.open(shard)) {
      at = r.metadataEnd() + 5_000; // inside a JPEG: the metadata reads fine, the manifest's SHA-256 does not match
    }
    try (RandomAccessFile f = new RandomAccessFile(shard.toFile(), "rw")) {
      f.seek(at);
      int b = f.read();
      f.seek(at);
      f.write(b ^ 0x10);
    }
    upload(copy, "corrupt"); // the manifest of the good shards, one flipped bit in the store's part-00002
    Path cache = tmp.resolve("cache-corrupt");
    try (Loader loader = loader("corrupt", cache).order(OrderOption.SEQUENTIAL).build()) {
      assertThatThrownBy(() -> Epochs.read(loader))
          .hasMessageContaining("Shard part-00002.beton of s3a://beton/corrupt is corrupt: the sha256 of its")
          .hasMessageContaining("none of its samples were used");
    }
    String key = DatasetVerifier.manifest(local).shards().get(2).checksum().value();
    assertThat(cache.resolve(key + ".beton")).doesNotExist();
    try (var files = Files.list(cache)) {
      assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith(key) && n.endsWith(".part"));
    }
  }

  @Test
  @Order(3)
  void aServerKilledMidDownloadGivesRetriesThenAClearErrorAndARestartResumes() throws Exception {
    upload(local, "kill");
    Path cache = tmp.resolve("cache-kill");
    String big = ShardDirs.shardName(5);
    long size = Files.size(local.resolve(big));
    String key = DatasetVerifier.manifest(local).shards().get(5).checksum().value();
    AtomicBoolean killed = new AtomicBoolean();
    Epochs.Counting first = new Epochs.Counting() {
      @Override
      public void progress(String shard, long bytes, long total) {
        if (shard.equals(big) && bytes >= 2 << 20 && killed.compareAndSet(false, true)) {
          s3.kill(); // mid-transfer: 2 of about 25 MB are written
        }
      }
    };
    try (Loader loader = loader("kill", cache).order(OrderOption.SEQUENTIAL).downloads(1).downloadRetries(2)
        .stagingListener(first).build()) {
      assertThatThrownBy(() -> Epochs.read(loader))
          .hasMessageContaining("Cannot download shard " + big + " of s3a://beton/kill: 3 reads in a row failed")
          .hasMessageContaining("of " + size + " bytes stay in the cache, and the next attempt resumes from there");
    }
    assertThat(killed).isTrue();
    assertThat(first.retries).hasValue(2);
    assertThat(first.downloads).hasSize(5); // the small shards, before the big one
    Path part = cache.resolve(key + "-" + size + ".part");
    assertThat(part).exists();
    long kept = Files.size(part);
    assertThat(kept).isBetween(2L << 20, size - 1);
    assertThat(cache.resolve(key + ".beton")).doesNotExist();

    s3.restart();
    Epochs.Counting second = new Epochs.Counting();
    try (Loader loader = loader("kill", cache).order(OrderOption.SEQUENTIAL).stagingListener(second).build()) {
      assertThat(Epochs.sortedLabels(Epochs.read(loader))).isEqualTo(Epochs.range(SAMPLES));
    }
    assertThat(second.downloads.keySet()).containsExactly(big);
    assertThat(second.resumed.get(big)).containsExactly(size - kept, kept);
    assertThat(second.hits).hasSize(5);
    assertThat(cache.resolve(key + ".beton")).hasSize(size);
    assertThat(part).doesNotExist();
  }

  @Test
  @Order(4)
  void aMissingDatasetNamesTheStore() {
    assertThatThrownBy(() -> loader("nothing-here", tmp.resolve("cache-missing")).build())
        .hasMessageContaining("s3a://beton/nothing-here has no _manifest.json: not a dataset directory");
    // a bucket that is not there is said to be (it read as a missing file)
    assertThatThrownBy(() -> Loader.builder(URI.create("s3a://nobucket/photos"),
        new HadoopDatasetStoreProvider(S3ProxyHadoop.conf(s3))).cacheDir(tmp.resolve("cache-nobucket")).batchSize(16)
        .pipeline("label", new IntDecoder()).build())
        .hasMessageContaining("s3a://nobucket/photos: the store has no bucket 'nobucket'");
  }

  /**
   * A store that is down, with S3A's retries left at Hadoop's defaults (as a user's configuration leaves them):
   * they kept the first call retrying for about 13 minutes without a word; bounded ({@link S3aRetries}), the
   * loader says what it could not reach in seconds.
   */
  @Test
  @Order(5)
  void aStoreThatIsDownFailsInSecondsWithS3aDefaults() throws Exception {
    int closedPort;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    Configuration conf = new Configuration();
    s3.s3aSettings().forEach(conf::set);
    conf.set("fs.s3a.endpoint", "http://127.0.0.1:" + closedPort);
    long t0 = System.nanoTime();
    assertThatThrownBy(() -> Loader.builder(URI.create("s3a://beton/photos"), new HadoopDatasetStoreProvider(conf))
        .cacheDir(tmp.resolve("cache-down")).batchSize(16).pipeline("label", new IntDecoder()).build())
        .hasMessageContaining("s3a://beton/photos/_manifest.json").hasMessageContaining("Connection refused");
    assertThat((System.nanoTime() - t0) / 1e9).isLessThan(30);
  }
}
