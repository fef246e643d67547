package org.sparkbeton.loader.hadoop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.io.HadoopJavaSupport;
import org.sparkbeton.loader.Batch;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.LoaderBuilder;
import org.sparkbeton.loader.LoaderState;
import org.sparkbeton.loader.decoders.CenterCropRgbDecoder;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.hadoop.testing.MiniHdfs;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.order.ShardWindowOrder;
import org.sparkbeton.loader.order.TraversalOrder;
import org.sparkbeton.loader.testing.ShardDirs;

/**
 * The loader over a real HDFS (MiniDFSCluster, one datanode) through {@code Loader.builder(URI)}: the
 * provider is found on the classpath and uses the default Hadoop configuration. A 12-shard dataset of
 * photos; a budget of 3 shards; mid-epoch resume; ranks; two processes sharing one cache.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES) // a staging bug hangs rather than fails: make it fail
class HdfsLoaderTest {
  static final int SHARDS = 12;
  static final int PER_SHARD = 30;
  static final int SAMPLES = SHARDS * PER_SHARD;

  @TempDir static Path tmp;
  static MiniDFSCluster hdfs;
  static Path local;
  static URI uri;

  @BeforeAll
  static void setUp() throws Exception {
    assumeTrue(HadoopJavaSupport.refusal().isEmpty(), () -> HadoopJavaSupport.refusal().get());
    hdfs = MiniHdfs.start(tmp.resolve("hdfs"));
    local = PhotoShards.write(tmp.resolve("photos"), SHARDS, PER_SHARD, 40);
    uri = URI.create(MiniHdfs.upload(hdfs, local, "/datasets/photos"));
  }

  @AfterAll
  static void tearDown() {
    if (hdfs != null) {
      hdfs.shutdown();
    }
  }

  static LoaderBuilder labels(Path cache) {
    return labels(uri, cache);
  }

  static LoaderBuilder labels(URI dataset, Path cache) {
    return Loader.builder(dataset).cacheDir(cache).batchSize(16).numThreads(2).dropLast(false).seed(11)
        .pipeline("label", new IntDecoder());
  }

  @Test
  void aBudgetOfThreeShardsOverTwelveStaysWithinItAndSeesEverySampleOncePerEpoch() throws Exception {
    Path cache = tmp.resolve("cache-budget");
    long budget = 3 * ShardDirs.largestShard(local);
    assertThat(ShardDirs.totalBytes(local)).isGreaterThan(3 * budget);
    AtomicLong peak = new AtomicLong();
    Epochs.Counting counting = new Epochs.Counting() {
      @Override
      public void progress(String shard, long bytes, long total) {
        try {
          peak.accumulateAndGet(ShardDirs.diskBytes(cache), Math::max);
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }
    };
    for (TraversalOrder.Factory order : List.of(OrderOption.RANDOM, ShardWindowOrder.window(2))) {
      try (Loader loader = labels(cache).order(order).cacheBytes(budget).stagingListener(counting).build()) {
        for (int e = 0; e < 2; e++) {
          Iterator<Batch> it = loader.iterator();
          List<Epochs.Rows> rows = new ArrayList<>();
          while (it.hasNext()) {
            rows.addAll(Epochs.read(it, 1));
            peak.accumulateAndGet(ShardDirs.diskBytes(cache), Math::max);
          }
          assertThat(Epochs.sortedLabels(rows)).as("%s epoch %d", order, e).isEqualTo(Epochs.range(SAMPLES));
        }
      }
    }
    assertThat(peak.get()).isPositive().isLessThanOrEqualTo(budget);
    assertThat(counting.downloadCount()).isGreaterThanOrEqualTo(4 * (SHARDS - 3));
  }

  /**
   * HDFS refuses {@code file/_manifest.json} with an AccessControlException ("is not a directory") that reads like a
   * permission problem: the loader says the URI is a file and what it takes instead.
   */
  @Test
  void aSingleBetonFileIsRefusedAsAFileNotAsAPermissionProblem() throws Exception {
    URI file = URI.create(uri + "/" + ShardDirs.shardName(0));
    assertThatThrownBy(() -> labels(file, tmp.resolve("cache-file")).build())
        .isInstanceOf(java.io.IOException.class)
        .hasMessageStartingWith(file + " is a file, not a dataset directory: a remote dataset is a directory with a"
            + " _manifest.json and its shards")
        .hasMessageContaining("copy a single .beton file to local disk and read it with Loader.builder(Path)");
  }

  /**
   * A shard deleted after the loader read the manifest (an overwrite, a compaction's cleanup) fails the epoch with
   * what happened and what to do, not Hadoop's bare FileNotFoundException.
   */
  @Test
  void aShardDeletedUnderTheLoaderIsNamedWithWhatToDo() throws Exception {
    URI vanishing = URI.create(MiniHdfs.upload(hdfs, local, "/datasets/vanishing"));
    String shard = ShardDirs.shardName(SHARDS - 1);
    try (Loader loader = Loader.builder(vanishing).cacheDir(tmp.resolve("cache-vanishing")).batchSize(16)
        .numThreads(2).seed(3).cacheBytes(3 * ShardDirs.largestShard(local)).order(OrderOption.SEQUENTIAL)
        .pipeline("label", new IntDecoder()).build()) {
      hdfs.getFileSystem().delete(new org.apache.hadoop.fs.Path(vanishing + "/" + shard), false);
      assertThatThrownBy(() -> {
        Iterator<Batch> it = loader.iterator();
        while (it.hasNext()) {
          Epochs.read(it, 1);
        }
      }).hasStackTraceContaining("Shard " + shard + " of " + vanishing + " is gone since this loader read the dataset's"
          + " manifest, and cannot be rebuilt from the dataset as it is now: the manifest still lists it: it was"
          + " deleted by something other than a write or a compaction. Build the loader again")
          .hasStackTraceContaining("Shard " + shard + " of " + vanishing + " is gone: the manifest lists it, and the"
              + " store has no such file");
    }
  }

  @Test
  void aMidEpochStateResumesWithTheSameImagesBitForBit() throws Exception {
    Path cache = tmp.resolve("cache-resume");
    long budget = 5 * ShardDirs.largestShard(local);
    LoaderBuilder images = labels(cache).order(ShardWindowOrder.window(3)).cacheBytes(budget)
        .pipeline("image", new CenterCropRgbDecoder(40, 40, 224.0 / 256));
    List<Epochs.Rows> whole;
    try (Loader loader = images.build()) {
      whole = Epochs.read(loader);
    }
    LoaderState saved;
    try (Loader loader = images.build()) {
      Epochs.read(loader.iterator(), 9);
      saved = loader.state();
    }
    assertThat(saved).extracting(LoaderState::epoch, LoaderState::batch).containsExactly(0, 9);
    assertThat(saved.order()).as("the fingerprint of the epoch's order").isNotEqualTo(LoaderState.UNKNOWN_ORDER);
    try (Loader loader = images.resumeFrom(saved).build()) {
      Epochs.assertSame(Epochs.read(loader), whole.subList(9, whole.size()), "resumed epoch 0");
    }
    try (Loader inPlace = Loader.builder(local).batchSize(16).numThreads(2).dropLast(false).seed(11)
        .order(ShardWindowOrder.window(3)).pipeline("label", new IntDecoder())
        .pipeline("image", new CenterCropRgbDecoder(40, 40, 224.0 / 256)).build()) {
      Epochs.assertSame(whole, Epochs.read(inPlace), "HDFS against the local copy read in place");
    }
  }

  @Test
  void distributedRanksStageMostlyTheirOwnShards() throws Exception {
    int world = 3;
    Set<String> all = new HashSet<>();
    List<Long> seen = new ArrayList<>();
    for (int rank = 0; rank < world; rank++) {
      Epochs.Counting counting = new Epochs.Counting();
      try (Loader loader = labels(tmp.resolve("cache-rank" + rank)).order(ShardWindowOrder.window(2))
          .distributed(rank, world).stagingListener(counting).build()) {
        Arrays.stream(Epochs.sortedLabels(Epochs.read(loader))).forEach(seen::add);
      }
      assertThat(counting.downloads.keySet()).as("rank %d", rank).hasSizeLessThanOrEqualTo(SHARDS / world + 2);
      all.addAll(counting.downloads.keySet());
    }
    assertThat(all).hasSize(SHARDS);
    assertThat(seen.stream().mapToLong(Long::longValue).sorted().toArray()).isEqualTo(Epochs.range(SAMPLES));
  }

  @Test
  void twoLoaderProcessesOnOneCacheDownloadEachShardOnce() throws Exception {
    Path cache = tmp.resolve("cache-shared");
    Path go = tmp.resolve("go");
    Path result = tmp.resolve("child-result.txt");
    Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m", "-cp", System.getProperty("java.class.path"),
        CacheSharingMain.class.getName(), uri.toString(), cache.toString(), go.toString(), result.toString())
        .redirectErrorStream(true).start();
    List<String> childOutput = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch ready = new CountDownLatch(1);
    Thread drain = new Thread(() -> {
      try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = out.readLine()) != null; ) {
          childOutput.add(line);
          if (line.equals("READY")) {
            ready.countDown();
          }
        }
      } catch (java.io.IOException e) {
        childOutput.add(e.toString());
      }
    });
    drain.setDaemon(true);
    drain.start();
    Epochs.Counting counting = new Epochs.Counting();
    try {
      try (Loader loader = CacheSharingMain.sharedCacheLoader(uri, cache, counting)) {
        assertThat(ready.await(120, TimeUnit.SECONDS)).as("child ready; its output: %s", childOutput).isTrue();
        Files.createFile(go); // both processes stage from here on, wanting the same shards in the same order
        assertThat(Epochs.sortedLabels(Epochs.read(loader))).isEqualTo(Epochs.range(SAMPLES));
      }
      assertThat(child.waitFor(120, TimeUnit.SECONDS)).isTrue();
      assertThat(child.exitValue()).as("child output: %s", childOutput).isZero();
    } finally {
      child.destroyForcibly();
    }
    List<String> lines = Files.readAllLines(result);
    Set<String> childDownloads = names(lines.get(0), "downloaded=");
    Set<String> childHits = names(lines.get(1), "hits=");
    assertThat(lines.get(2)).isEqualTo("labels=" + SAMPLES + ":" + SAMPLES);
    Set<String> both = new HashSet<>(childDownloads);
    both.retainAll(counting.downloads.keySet());
    assertThat(both).as("shards both processes downloaded").isEmpty();
    Set<String> union = new HashSet<>(childDownloads);
    union.addAll(counting.downloads.keySet());
    assertThat(union).as("shards downloaded on the node").hasSize(SHARDS);
    assertThat(counting.downloads.values()).allSatisfy(n -> assertThat(n).hasValue(1));
    Set<String> childAll = new HashSet<>(childDownloads);
    childAll.addAll(childHits);
    assertThat(childAll).as("the child staged every shard, downloaded or found").hasSize(SHARDS);
    Set<String> parentAll = new HashSet<>(counting.downloads.keySet());
    parentAll.addAll(counting.hits);
    assertThat(parentAll).as("this process staged every shard, downloaded or found").hasSize(SHARDS);
  }

  private static Set<String> names(String line, String prefix) {
    assertThat(line).startsWith(prefix);
    String rest = line.substring(prefix.length());
    return rest.isEmpty() ? Set.of() : new HashSet<>(Arrays.asList(rest.split(",")));
  }
}
