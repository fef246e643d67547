package org.sparkbeton.loader.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.sparkbeton.loader.store.RemoteDatasetTest.BLOB;
import static org.sparkbeton.loader.store.RemoteDatasetTest.SAMPLES;
import static org.sparkbeton.loader.store.RemoteDatasetTest.SHARDS;
import static org.sparkbeton.loader.store.RemoteDatasetTest.dataset;
import static org.sparkbeton.loader.store.RemoteDatasetTest.epoch;
import static org.sparkbeton.loader.store.RemoteDatasetTest.range;
import static org.sparkbeton.loader.store.RemoteDatasetTest.remote;
import static org.sparkbeton.loader.store.RemoteDatasetTest.sortedLabels;
import static org.sparkbeton.loader.store.RemoteDatasetTest.totalBytes;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.dataset.DatasetVerifier;
import org.sparkbeton.loader.Batch;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.store.RemoteDatasetTest.Counting;
import org.sparkbeton.loader.testing.ShardDirs;

/**
 * A training loader and a validation loader over two remote datasets that share one cache directory (the default
 * cacheDir is shared by design), validation run by the training loop's own thread in the middle of an epoch: the
 * training loader holds its shards meanwhile.
 */
class TwoDatasetsOneCacheTest {
  static final int VAL_SHARDS = 4;
  /** Not the training set's 40: a shard is cached by its SHA-256, and same-sized shards of these datasets are equal. */
  static final int VAL_PER_SHARD = 30;

  @TempDir Path tmp;

  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES) // with a budget of its own dataset's size, validation waited 10 minutes
  void withDefaultBudgetsValidationMidEpochReadsItsDatasetWhileTrainingHoldsItsOwn() throws Exception {
    Path train = dataset(tmp);
    Path val = ShardedDatasets.write(tmp.resolve("val"), VAL_SHARDS, VAL_PER_SHARD, BLOB);
    Path cache = tmp.resolve("cache");
    Counting trainDownloads = new Counting();
    try (Loader trainer = remote(train, cache).order(OrderOption.RANDOM).stagingListener(trainDownloads).build();
        Loader validator = remote(val, cache).build()) {
      for (int e = 0; e < 2; e++) {
        Iterator<Batch> it = trainer.iterator();
        List<long[]> batches = new ArrayList<>(epoch(it, 5));
        awaitDownloads(trainDownloads, SHARDS); // training now holds every shard of its dataset
        assertThat(sortedLabels(epoch(validator))).as("validation in epoch %d", e).isEqualTo(range(VAL_SHARDS * VAL_PER_SHARD));
        batches.addAll(epoch(it, Integer.MAX_VALUE));
        assertThat(sortedLabels(batches)).as("training epoch %d", e).isEqualTo(range(SAMPLES));
      }
    }
    assertThat(ShardDirs.diskBytes(cache)).as("both datasets stay cached").isEqualTo(totalBytes(train) + totalBytes(val));
  }

  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void aBudgetTheTrainingLoaderFillsFailsValidationWithoutWaitingTenMinutesAndSaysWhatToGive() throws Exception {
    Path train = dataset(tmp);
    Path val = ShardedDatasets.write(tmp.resolve("val"), VAL_SHARDS, VAL_PER_SHARD, BLOB);
    Path cache = tmp.resolve("cache");
    long budget = totalBytes(train);
    long valShard = DatasetVerifier.manifest(val).shards().get(0).bytes();
    Counting trainDownloads = new Counting();
    try (ShardCache shared = ShardCache.open(cache);
        Loader trainer = remote(train, cache).order(OrderOption.RANDOM).cacheBytes(budget)
            .stagingListener(trainDownloads).build();
        Loader validator = remote(val, cache).cacheBytes(budget).build()) {
      shared.stallAfter(1_000); // 60 s in production
      Iterator<Batch> it = trainer.iterator();
      List<long[]> batches = new ArrayList<>(epoch(it, 5));
      awaitDownloads(trainDownloads, SHARDS);
      long start = System.nanoTime();
      assertThatThrownBy(() -> epoch(validator))
          .hasMessageContaining("No room for shard " + val.toUri() + ShardDirs.shardName(0) + " (" + valShard
              + " bytes) in the shard cache " + cache.toRealPath() + ": its budget of " + budget + " bytes covers the"
              + " whole directory")
          .hasMessageContaining("loaders of this process hold " + budget + " bytes of it, and have released or"
              + " downloaded no shard for 1 s: the room is not coming")
          .hasMessageContaining("the same cacheBytes, at least " + (budget + valShard));
      assertThat(System.nanoTime() - start).as("failed without waiting for room").isLessThan(TimeUnit.SECONDS.toNanos(30));
      batches.addAll(epoch(it, Integer.MAX_VALUE));
      assertThat(sortedLabels(batches)).as("training goes on").isEqualTo(range(SAMPLES));
    }
  }

  private static void awaitDownloads(Counting counting, int shards) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (counting.downloadCount() < shards && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(counting.downloadCount()).isEqualTo(shards);
  }
}
