package org.sparkbeton.loader.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.dataset.DatasetVerifier;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.loader.Batch;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.LoaderBuilder;
import org.sparkbeton.loader.LoaderState;
import org.sparkbeton.loader.decoders.BytesDecoder;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.order.ShardWindowOrder;
import org.sparkbeton.loader.order.TraversalOrder;
import org.sparkbeton.loader.testing.ShardDirs;

/**
 * The staging path end to end with a local directory as the store: same batches as reading the directory
 * in place, a budget smaller than the dataset, the first batch first, mid-epoch resume, ranks. A store that
 * fails or lies: {@link RemoteDatasetFaultsTest}.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES) // a staging bug hangs rather than fails: make it fail
class RemoteDatasetTest {
  static final int SHARDS = 12;
  static final int PER_SHARD = 40;
  static final int BLOB = 6000;
  static final int SAMPLES = SHARDS * PER_SHARD;
  static final int BATCH = 16;

  @TempDir Path tmp;

  Path dataset() throws IOException {
    return dataset(tmp);
  }

  /** The test dataset: {@value #SHARDS} shards of {@value #PER_SHARD} samples in {@code tmp/store}. */
  static Path dataset(Path tmp) throws IOException {
    return ShardedDatasets.write(tmp.resolve("store"), SHARDS, PER_SHARD, BLOB);
  }

  static LoaderBuilder remote(URI store, DatasetStoreProvider provider, Path cache) {
    return Loader.builder(store, provider).cacheDir(cache).batchSize(BATCH).numThreads(2).dropLast(false).seed(5)
        .pipeline("label", new IntDecoder()).pipeline("blob", new BytesDecoder());
  }

  static LoaderBuilder remote(Path store, Path cache) {
    return remote(store.toUri(), LocalDirectoryStore.provider(), cache);
  }

  /** One epoch's labels, batch by batch, after checking every row's blob against its label. */
  static List<long[]> epoch(Iterator<Batch> batches, int limit) {
    List<long[]> out = new ArrayList<>();
    while (batches.hasNext() && out.size() < limit) {
      Batch b = batches.next();
      long[] labels = new long[b.size()];
      ByteBuffer blobs = b.data("blob");
      int row = b.spec("blob").bytes();
      for (int i = 0; i < b.size(); i++) {
        labels[i] = b.data("label").getLong(i * 8);
        assertThat(b.sample(i)).isEqualTo((int) labels[i]);
        byte[] blob = new byte[b.length("blob", i)];
        blobs.get(i * row, blob);
        assertThat(blob).as("blob of sample %d", labels[i]).isEqualTo(ShardedDatasets.blob(labels[i], BLOB));
      }
      out.add(labels);
    }
    return out;
  }

  static List<long[]> epoch(Loader loader) {
    return epoch(loader.iterator(), Integer.MAX_VALUE);
  }

  static long[] sortedLabels(List<long[]> batches) {
    return batches.stream().flatMapToLong(Arrays::stream).sorted().toArray();
  }

  static long[] range(int n) {
    long[] a = new long[n];
    for (int i = 0; i < n; i++) {
      a[i] = i;
    }
    return a;
  }

  /** Counts downloads and cache hits per shard. */
  static class Counting implements StagingListener {
    final Map<String, AtomicInteger> downloads = new ConcurrentHashMap<>();
    final Map<String, AtomicInteger> hits = new ConcurrentHashMap<>();
    final List<long[]> resumed = new CopyOnWriteArrayList<>();
    final AtomicInteger retries = new AtomicInteger();

    @Override
    public void cached(String shard) {
      hits.computeIfAbsent(shard, k -> new AtomicInteger()).incrementAndGet();
    }

    @Override
    public void downloaded(String shard, long fetched, long resumedFrom) {
      downloads.computeIfAbsent(shard, k -> new AtomicInteger()).incrementAndGet();
      resumed.add(new long[] {fetched, resumedFrom});
    }

    @Override
    public void retrying(String shard, int attempt, IOException cause) {
      retries.incrementAndGet();
    }

    int downloadCount() {
      return downloads.values().stream().mapToInt(AtomicInteger::get).sum();
    }

    int hitCount() {
      return hits.values().stream().mapToInt(AtomicInteger::get).sum();
    }
  }

  @Test
  void stagedShardsGiveTheSameBatchesAsTheDirectoryReadInPlace() throws Exception {
    Path store = dataset();
    for (OrderOption order : List.of(OrderOption.RANDOM, OrderOption.QUASI_RANDOM)) {
      Counting counting = new Counting();
      Path cache = tmp.resolve("cache-" + order);
      try (Loader local = Loader.builder(store).batchSize(BATCH).numThreads(2).dropLast(false).seed(5).order(order)
              .pipeline("label", new IntDecoder()).pipeline("blob", new BytesDecoder()).build();
          Loader staged = remote(store, cache).order(order).stagingListener(counting).build()) {
        for (int e = 0; e < 2; e++) {
          List<long[]> expected = epoch(local);
          List<long[]> actual = epoch(staged);
          assertThat(actual).as("%s epoch %d", order, e).hasSameSizeAs(expected);
          for (int b = 0; b < expected.size(); b++) {
            assertThat(actual.get(b)).as("%s epoch %d batch %d", order, e, b).isEqualTo(expected.get(b));
          }
          assertThat(sortedLabels(actual)).isEqualTo(range(SAMPLES));
          assertThat(counting.downloadCount()).as("each shard downloaded once, in epoch 0").isEqualTo(SHARDS);
          assertThat(counting.hitCount()).as("epoch 1 stages from the cache").isEqualTo(e * SHARDS);
        }
      }
      assertThat(ShardDirs.diskBytes(cache)).isEqualTo(totalBytes(store));
    }
  }

  static long totalBytes(Path store) throws IOException {
    return DatasetVerifier.manifest(store).shards().stream().mapToLong(ShardEntry::bytes).sum();
  }

  /** A {@code file:} URI as Hadoop and {@code new URI(String)} spell it: non-ASCII characters as they are. */
  @Test
  void aStoreWhoseUriHoldsNonAsciiCharactersAsTheyAre() throws Exception {
    Path store = ShardedDatasets.write(tmp.resolve("données é"), 2, PER_SHARD, BLOB);
    URI raw = new URI("file://" + store.toString().replace(" ", "%20"));
    assertThat(raw.getRawPath()).contains("données"); // not percent-escaped: Path.of(raw) throws "Bad escape"
    try (Loader staged = remote(raw, LocalDirectoryStore.provider(), tmp.resolve("cache")).build()) {
      assertThat(epoch(staged).stream().mapToInt(b -> b.length).sum()).isEqualTo(2 * PER_SHARD);
    }
  }

  @Test
  void aBudgetOfThreeShardsOverTwelveStaysWithinItAndSeesEverySampleOncePerEpoch() throws Exception {
    Path store = dataset();
    Path cache = tmp.resolve("cache");
    long budget = 3 * ShardDirs.largestShard(store);
    AtomicLong peak = new AtomicLong();
    Counting counting = new Counting() {
      @Override
      public void progress(String shard, long bytes, long total) {
        try {
          peak.accumulateAndGet(ShardDirs.diskBytes(cache), Math::max);
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }
    };
    for (TraversalOrder.Factory order : List.of(OrderOption.RANDOM, ShardWindowOrder.window(2))) {
      try (Loader loader = remote(store, cache).order(order).cacheBytes(budget).stagingListener(counting).build()) {
        for (int e = 0; e < 2; e++) {
          Iterator<Batch> it = loader.iterator();
          List<long[]> batches = new ArrayList<>();
          while (it.hasNext()) {
            batches.addAll(epoch(it, 1));
            peak.accumulateAndGet(ShardDirs.diskBytes(cache), Math::max);
          }
          assertThat(sortedLabels(batches)).as("%s epoch %d", order, e).isEqualTo(range(SAMPLES));
        }
      }
    }
    assertThat(peak.get()).isPositive().isLessThanOrEqualTo(budget);
    // 4 epochs with room for 3 of 12 shards: each epoch downloads again what was evicted
    assertThat(counting.downloadCount()).isGreaterThanOrEqualTo(4 * (SHARDS - 3));
  }

  @Test
  void trainingStartsAsSoonAsTheFirstBatchsShardIsLocal() throws Exception {
    Path store = dataset();
    CountDownLatch release = new CountDownLatch(1);
    Set<String> started = ConcurrentHashMap.newKeySet();
    Counting counting = new Counting() {
      @Override
      public void progress(String shard, long bytes, long total) {
        started.add(shard);
        if (started.size() > 1) {
          try {
            release.await(30, TimeUnit.SECONDS); // hold every download after the first
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
      }
    };
    try (Loader loader = remote(store, tmp.resolve("cache")).order(ShardWindowOrder.window(3)).downloads(1)
        .stagingListener(counting).build()) {
      Iterator<Batch> it = loader.iterator();
      Batch first = it.next();
      assertThat(release.getCount()).as("the first batch came while later downloads were held").isEqualTo(1);
      assertThat(counting.downloadCount()).isEqualTo(1);
      assertThat(first.size()).isEqualTo(BATCH);
      release.countDown();
      List<long[]> rest = epoch(it, Integer.MAX_VALUE);
      assertThat(rest.stream().mapToInt(b -> b.length).sum()).isEqualTo(SAMPLES - BATCH);
    } finally {
      release.countDown();
    }
  }

  @Test
  void otherShardsDownloadOnceTheFirstBatchIsDecoded() throws Exception {
    Path store = dataset();
    String firstShard = ShardDirs.shardName(0);
    CountDownLatch otherStarted = new CountDownLatch(1);
    Counting counting = new Counting() {
      @Override
      public void progress(String shard, long bytes, long total) {
        if (!shard.equals(firstShard)) {
          otherStarted.countDown();
        }
      }
    };
    StagingConfig config = StagingConfig.defaults().withDir(tmp.resolve("cache")).withListener(counting);
    try (RemoteDataset d = RemoteDataset.open(new LocalDirectoryStore(store), config)) {
      int[] order = new int[SAMPLES];
      Arrays.setAll(order, i -> i); // batch b of PER_SHARD samples is shard b
      d.startEpoch(0, order, PER_SHARD, SHARDS, 0, 2);
      assertThat(d.awaitBatch(0)).isTrue();
      assertThat(otherStarted.await(1, TimeUnit.SECONDS)).as("another shard started downloading while the first"
          + " batch had not been decoded").isFalse();
      assertThat(counting.downloadCount()).isEqualTo(1);
      d.batchDone(0);
      assertThat(otherStarted.await(30, TimeUnit.SECONDS)).isTrue();
      for (int b = 1; b < SHARDS; b++) {
        assertThat(d.awaitBatch(b)).isTrue();
        d.batchDone(b);
      }
      assertThat(counting.downloads.keySet()).hasSize(SHARDS);
      assertThat(counting.downloadCount()).isEqualTo(SHARDS);
    }
  }

  @Test
  void aMidEpochStateResumesWithTheRemainingBatches() throws Exception {
    Path store = dataset();
    Path cache = tmp.resolve("cache");
    long budget = 4 * ShardDirs.largestShard(store);
    List<long[]> whole;
    try (Loader loader = remote(store, cache).order(ShardWindowOrder.window(2)).cacheBytes(budget).build()) {
      whole = epoch(loader);
    }
    LoaderState saved;
    try (Loader loader = remote(store, cache).order(ShardWindowOrder.window(2)).cacheBytes(budget).build()) {
      epoch(loader.iterator(), 7);
      saved = loader.state();
    }
    assertThat(saved).extracting(LoaderState::epoch, LoaderState::batch).containsExactly(0, 7);
    assertThat(saved.order()).as("the fingerprint of the epoch's order").isNotEqualTo(LoaderState.UNKNOWN_ORDER);
    try (Loader loader = remote(store, cache).order(ShardWindowOrder.window(2)).cacheBytes(budget).resumeFrom(saved)
        .build()) {
      List<long[]> rest = epoch(loader);
      assertThat(rest).hasSize(whole.size() - 7);
      for (int b = 0; b < rest.size(); b++) {
        assertThat(rest.get(b)).isEqualTo(whole.get(7 + b));
      }
    }
  }

  @Test
  void distributedRanksStageMostlyTheirOwnShards() throws Exception {
    Path store = dataset();
    int world = 3;
    Set<String> all = ConcurrentHashMap.newKeySet();
    long[] seen = new long[0];
    for (int rank = 0; rank < world; rank++) {
      Counting counting = new Counting();
      try (Loader loader = remote(store, tmp.resolve("cache-rank" + rank)).order(ShardWindowOrder.window(2))
          .distributed(rank, world).stagingListener(counting).build()) {
        List<long[]> batches = epoch(loader);
        seen = concat(seen, sortedLabels(batches));
      }
      assertThat(counting.downloads.keySet()).as("rank %d", rank).hasSizeLessThanOrEqualTo(SHARDS / world + 2);
      all.addAll(counting.downloads.keySet());
    }
    assertThat(all).hasSize(SHARDS);
    assertThat(Arrays.stream(seen).sorted().toArray()).isEqualTo(range(SAMPLES));
  }

  static long[] concat(long[] a, long[] b) {
    long[] c = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }

  @Test
  void refusesWhatCannotWork() throws Exception {
    Path store = dataset();
    long shard = ShardDirs.largestShard(store);
    assertThatThrownBy(() -> remote(store, tmp.resolve("c1")).cacheBytes(shard - 1).build())
        .hasMessageContaining("The cache budget of " + (shard - 1) + " bytes (cacheBytes) cannot hold shard")
        .hasMessageContaining("raise cacheBytes to at least " + shard + ", the largest shard");
    TraversalOrder.Factory interleaved = context -> epoch -> { // every batch reads every shard
      int[] o = new int[SAMPLES];
      for (int j = 0, k = 0; j < PER_SHARD; j++) {
        for (int i = 0; i < SHARDS; i++) {
          o[k++] = i * PER_SHARD + j;
        }
      }
      return o;
    };
    try (Loader loader = remote(store, tmp.resolve("c2")).order(interleaved).cacheBytes(3 * shard).build()) {
      assertThatThrownBy(loader::iterator)
          .hasMessageContaining("Epoch 0 of " + store.toUri() + " needs 12 shards (")
          .hasMessageContaining("in the cache at once at batch 0, more than its budget of " + 3 * shard + " bytes");
    }
    assertThatThrownBy(() -> Loader.builder(store).cacheBytes(1 << 30).batchSize(4).pipeline("label", new IntDecoder())
        .build()).hasMessageContaining("cacheDir, cacheBytes, downloads, downloadRetries and stagingListener apply to"
            + " remote datasets");
    assertThatThrownBy(() -> remote(store, tmp.resolve("c3")).processCache(1 << 30).build())
        .hasMessageContaining("processCache reads local files; a remote dataset is staged into cacheDir");
    assertThatThrownBy(() -> remote(store, tmp.resolve("c3")).readThrough(file -> {
      throw new AssertionError("not opened");
    }).build()).hasMessageContaining("readThrough reads local files' payloads through other sources; a remote dataset"
        + " is staged into cacheDir");
    assertThatThrownBy(() -> Loader.builder(URI.create("s3a://bucket/train")).batchSize(4)
        .pipeline("label", new IntDecoder()).build())
        .hasMessage("No DatasetStore for scheme 's3a' of s3a://bucket/train: no DatasetStoreProvider is on the class"
            + " path. For hdfs://, s3a:// and the other Hadoop file systems, add org.sparkbeton:loader-hadoop to the"
            + " class path (s3a:// also needs org.apache.hadoop:hadoop-aws); for another store, pass its provider with"
            + " Loader.builder(URI, DatasetStoreProvider)");
    assertThatThrownBy(() -> remote(tmp.toUri(), LocalDirectoryStore.provider(), tmp.resolve("c4")).build())
        .hasMessageContaining("has no _manifest.json: not a dataset directory");
  }
}
