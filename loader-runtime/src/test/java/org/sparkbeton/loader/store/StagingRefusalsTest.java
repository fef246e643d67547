package org.sparkbeton.loader.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.sparkbeton.loader.store.RemoteDatasetTest.PER_SHARD;
import static org.sparkbeton.loader.store.RemoteDatasetTest.SAMPLES;
import static org.sparkbeton.loader.store.RemoteDatasetTest.dataset;
import static org.sparkbeton.loader.store.RemoteDatasetTest.epoch;
import static org.sparkbeton.loader.store.RemoteDatasetTest.range;
import static org.sparkbeton.loader.store.RemoteDatasetTest.remote;
import static org.sparkbeton.loader.store.RemoteDatasetTest.sortedLabels;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.dataset.DatasetVerifier;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.testing.ShardDirs;

/**
 * Staging options that cannot work are refused with why, and with a way out that fits the case: the budget an
 * order needs, the order in use never recommended to itself, the smallest budget that is really the minimum.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class StagingRefusalsTest {
  @TempDir Path tmp;

  /** All shards of the test dataset have one size: a budget of n shards is n times it. */
  static long shardBytes(Path store) throws IOException {
    long shard = ShardDirs.largestShard(store);
    assertThat(DatasetVerifier.manifest(store).shards()).extracting(ShardEntry::bytes).containsOnly(shard);
    return shard;
  }

  @Test
  void sequentialRanksSpanWorldTimesBatchSamplesAndAreNotToldToUseSequential() throws Exception {
    Path store = dataset(tmp);
    long shard = shardBytes(store);
    // rank 0 of 3 reads samples 0, 3, 6, ...: its batches of 16 span 46 samples, shards of 40 each: two shards
    try (Loader loader = remote(store, tmp.resolve("cache")).order(OrderOption.SEQUENTIAL).distributed(0, 3)
        .cacheBytes(shard).build()) {
      assertThatThrownBy(loader::iterator)
          .hasMessageContaining("Epoch 0 of " + store.toUri() + " needs 2 shards (" + 2 * shard + " bytes) in the cache"
              + " at once at batch 0, more than its budget of " + shard + " bytes: batch 0 alone reads 2 shards (its 16"
              + " samples lie between sample 0 and sample 45 of the dataset: SEQUENTIAL with distributed(rank,"
              + " worldSize) deals the samples to the ranks in turn, so each rank's batch of batchSize samples spans"
              + " worldSize * batchSize samples")
          .hasMessageContaining(". Raise cacheBytes to at least " + 2 * shard + " (the most this epoch needs at once),"
              + " lower batchSize, or read through ShardWindowOrder.window(k), which deals each rank contiguous runs"
              + " of whole shards")
          .message().doesNotContain("SEQUENTIAL)").doesNotContain("SEQUENTIAL too");
    }
  }

  @Test
  void aRepeatedIndexKeepsItsShardStagedAndTheRefusalSaysSo() throws Exception {
    Path store = dataset(tmp);
    long shard = shardBytes(store);
    int[] indices = new int[SAMPLES + 1];
    for (int i = 0; i < SAMPLES; i++) {
      indices[i] = i;
    }
    indices[SAMPLES] = 0; // sample 0 again, in the last batch (30): shard 0 is needed from batch 0 to batch 30
    try (Loader loader = remote(store, tmp.resolve("cache")).order(OrderOption.SEQUENTIAL).indices(indices)
        .cacheBytes(2 * shard).build()) {
      // batch 7 reads samples 112..127, shards 2 and 3, while shard 0 waits for batch 30
      assertThatThrownBy(loader::iterator)
          .hasMessageContaining("needs 3 shards (" + 3 * shard + " bytes) in the cache at once at batch 7, more than its"
              + " budget of " + 2 * shard + " bytes: batch 7 alone reads 2 shards (its 16 samples lie between sample 112"
              + " and sample 127 of the dataset); 1 more is read before batch 7 and again after it, and stay staged in"
              + " between (" + store.toUri() + ShardDirs.shardName(0) + " from batch 0 to batch 30): an index that"
              + " comes twice")
          .hasMessageContaining("Raise cacheBytes to at least " + 3 * shard + " (the most this epoch needs at once)")
          .message().doesNotContain("SEQUENTIAL)");
    }
  }

  @Test
  void theBudgetTheRefusalNamesIsTheRealMinimumAndWorks() throws Exception {
    Path store = dataset(tmp);
    long shard = shardBytes(store);
    assertThatThrownBy(() -> remote(store, tmp.resolve("c1")).cacheBytes(shard - 1).build())
        .hasMessageStartingWith("The cache budget of " + (shard - 1) + " bytes (cacheBytes) cannot hold shard "
            + ShardDirs.shardName(0) + " of " + store.toUri() + " (" + shard + " bytes): raise cacheBytes to at least "
            + shard + ", the largest shard");
    // batches of one shard each: one shard of budget is enough
    try (Loader loader = remote(store, tmp.resolve("c2")).order(OrderOption.SEQUENTIAL).batchSize(PER_SHARD)
        .cacheBytes(shard).build()) {
      assertThat(sortedLabels(epoch(loader))).isEqualTo(range(SAMPLES));
    }
  }

  /**
   * RANDOM under a budget of one shard took window(1), then refused every epoch (a batch spanning two shards of
   * the window needs both) advising a smaller window than the smallest there is: refused at build now.
   */
  @Test
  void aWindowedRandomOrderNeedsTwoShardsOfBudgetAndSaysSoAtBuild() throws Exception {
    Path store = dataset(tmp);
    long shard = shardBytes(store);
    assertThatThrownBy(() -> remote(store, tmp.resolve("c1")).order(OrderOption.RANDOM).cacheBytes(2 * shard - 1)
        .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("so RANDOM reads it through a window of shards, and a batch that spans the boundary of"
            + " two shards needs both staged at once: raise cacheBytes to at least " + 2 * shard);
    try (Loader loader = remote(store, tmp.resolve("c2")).order(OrderOption.RANDOM).cacheBytes(2 * shard).build()) {
      assertThat(sortedLabels(epoch(loader))).isEqualTo(range(SAMPLES));
    }
  }

  /**
   * Two ranks on one node sharing a cache and its budget each took a window from the whole budget, and each held
   * room the other waited for: both stalled at epoch 0 for ten minutes. The automatic window is a rank's share.
   */
  @Test
  void theAutomaticWindowOfARankIsItsShareOfTheBudget() throws Exception {
    Path store = dataset(tmp);
    long shard = shardBytes(store);
    StagingConfig config = StagingConfig.defaults().withDir(tmp.resolve("c3")).withBytes(8 * shard);
    try (RemoteDataset d = RemoteDataset.open(new LocalDirectoryStore(store), config)) {
      d.orderFor(OrderOption.RANDOM, 1);
      assertThat(d.orderInUse()).isEqualTo("ShardWindowOrder.window(6)");
      d.orderFor(OrderOption.RANDOM, 2);
      assertThat(d.orderInUse()).isEqualTo("ShardWindowOrder.window(2)");
    }
  }

  @Test
  void aCacheDirThatIsAFileIsNamedWhenTheLoaderIsBuilt() throws Exception {
    Path store = dataset(tmp);
    Path file = Files.write(tmp.resolve("cache"), new byte[1]);
    assertThatThrownBy(() -> remote(store, file).build())
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("Cannot use cacheDir " + file + " as the shard cache: it is a file, not a directory");
  }
}
