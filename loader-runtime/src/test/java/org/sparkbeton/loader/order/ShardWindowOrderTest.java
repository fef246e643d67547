package org.sparkbeton.loader.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.BitSet;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The contract over 1,003 samples in shards of unequal sizes, plus the properties a shard cache relies on. */
class ShardWindowOrderTest extends TraversalOrderContract {
  /** Shard starts for {@link #SAMPLES} samples in 13 shards of 40..119 samples. */
  static final long[] STARTS = starts(SAMPLES, 13, 5);

  @Override
  TraversalOrder.Factory factory() {
    return ShardWindowOrder.window(3);
  }

  @Override
  TraversalOrder order(int[] indices, long seed) {
    return factory().create(new OrderContext(indices, seed, 8, () -> pages(SAMPLES, PER_PAGE), STARTS));
  }

  /** {@code shards} shards of random sizes summing to {@code n}. */
  static long[] starts(int n, int shards, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    double[] w = new double[shards];
    double sum = 0;
    for (int i = 0; i < shards; i++) {
      w[i] = 1 + 2 * r.nextDouble();
      sum += w[i];
    }
    long[] starts = new long[shards + 1];
    double acc = 0;
    for (int i = 0; i < shards; i++) {
      acc += w[i];
      starts[i + 1] = i == shards - 1 ? n : Math.round(n * acc / sum);
    }
    return starts;
  }

  static int shardOf(long[] starts, int sample) {
    int s = 0;
    while (starts[s + 1] <= sample) {
      s++;
    }
    return s;
  }

  /** For each position, the number of shards opened and not yet finished there. */
  static int[] openAt(int[] order, long[] starts) {
    int shards = starts.length - 1;
    int[] first = new int[shards];
    int[] last = new int[shards];
    java.util.Arrays.fill(first, -1);
    for (int i = 0; i < order.length; i++) {
      int s = shardOf(starts, order[i]);
      if (first[s] < 0) {
        first[s] = i;
      }
      last[s] = i;
    }
    int[] open = new int[order.length];
    for (int s = 0; s < shards; s++) {
      for (int i = first[s]; i >= 0 && i <= last[s]; i++) {
        open[i]++;
      }
    }
    return open;
  }

  @Test
  void exactlyOnceAndAtMostKShardsOpenForManyLayoutsWindowsSeedsAndEpochs() {
    SplittableRandom r = new SplittableRandom(2024);
    for (int trial = 0; trial < 60; trial++) {
      int shards = 1 + r.nextInt(20);
      int n = shards * (5 + r.nextInt(60));
      long[] starts = starts(n, shards, trial);
      int window = 1 + r.nextInt(6);
      long seed = r.nextLong();
      TraversalOrder order = ShardWindowOrder.window(window).create(new OrderContext(range(n), seed, 8, null, starts));
      for (int epoch = 0; epoch < 3; epoch++) {
        int[] o = order.globalOrder(epoch);
        assertThat(sorted(o)).as("trial %d epoch %d", trial, epoch).isEqualTo(range(n));
        int k = Math.min(window, shards);
        assertThat(java.util.Arrays.stream(openAt(o, starts)).max().orElse(0)).as("trial %d: open shards", trial)
            .isLessThanOrEqualTo(k);
      }
    }
  }

  @Test
  void theFirstSamplesComeFromOneShardAndLaterSegmentsMixTheWholeWindow() {
    int n = 12 * 100;
    long[] starts = new long[13];
    for (int i = 0; i <= 12; i++) {
      starts[i] = i * 100L;
    }
    int[] o = ShardWindowOrder.window(4).create(new OrderContext(range(n), 9, 8, null, starts)).globalOrder(0);
    Set<Integer> firstSlice = new HashSet<>();
    for (int i = 0; i < 25; i++) { // slice 0 of the first shard: 100 / 4 samples
      firstSlice.add(shardOf(starts, o[i]));
    }
    assertThat(firstSlice).hasSize(1);
    // steady state: segment t (t >= 3) holds 4 slices of 25, one from each of 4 shards
    int segmentStart = 25 + 50 + 75; // segments 0, 1, 2 hold 1, 2 and 3 slices
    Set<Integer> steady = new HashSet<>();
    for (int i = segmentStart; i < segmentStart + 100; i++) {
      steady.add(shardOf(starts, o[i]));
    }
    assertThat(steady).hasSize(4);
    // any run of 100 positions (one segment's length) touches at most window + 1 shards
    for (int from = 0; from + 100 <= n; from++) {
      Set<Integer> run = new HashSet<>();
      for (int i = from; i < from + 100; i++) {
        run.add(shardOf(starts, o[i]));
      }
      assertThat(run.size()).as("run at %d", from).isLessThanOrEqualTo(5);
    }
  }

  @Test
  void epochsVisitShardsInDifferentOrders() {
    TraversalOrder order = order(range(SAMPLES), 3);
    int first0 = shardOf(STARTS, order.globalOrder(0)[0]);
    BitSet firsts = new BitSet();
    for (int epoch = 0; epoch < 20; epoch++) {
      firsts.set(shardOf(STARTS, order.globalOrder(epoch)[0]));
    }
    assertThat(firsts.cardinality()).as("first shards of 20 epochs, epoch 0 starting with %d", first0).isGreaterThan(5);
  }

  @Test
  void contiguousRankRunsReadMostlyTheirOwnShards() {
    int n = 24 * 50;
    long[] starts = new long[25];
    for (int i = 0; i <= 24; i++) {
      starts[i] = i * 50L;
    }
    TraversalOrder order = ShardWindowOrder.window(2).create(new OrderContext(range(n), 4, 8, null, starts));
    assertThat(order.rankSplit()).isEqualTo(RankSplit.CONTIGUOUS);
    int world = 4;
    int[] global = order.globalOrder(1);
    int total = 0;
    for (int rank = 0; rank < world; rank++) {
      Set<Integer> shards = new HashSet<>();
      for (int s : RankShare.share(global, order.rankSplit(), rank, world)) {
        shards.add(shardOf(starts, s));
      }
      // its 6 shards plus at most window - 1 = 1 shared at each end of its run
      assertThat(shards.size()).as("rank %d", rank).isLessThanOrEqualTo(24 / world + 2);
      total += shards.size();
    }
    assertThat(total).isLessThanOrEqualTo(24 + 2 * (world - 1));
  }

  @Test
  void aSingleShardIsAFullShuffle() {
    int[] o = ShardWindowOrder.window(4).create(new OrderContext(range(500), 1, 8, null)).globalOrder(0);
    assertThat(sorted(o)).isEqualTo(range(500));
    int fixed = 0;
    for (int i = 0; i < o.length; i++) {
      fixed += o[i] == i ? 1 : 0;
    }
    assertThat(fixed).isLessThan(10);
  }

  @Test
  void refusesAnEmptyWindow() {
    assertThatThrownBy(() -> ShardWindowOrder.window(0))
        .hasMessage("A shard window must hold at least 1 shard, got 0");
  }
}
