package org.sparkbeton.loader.order;

import java.util.SplittableRandom;

/**
 * A shuffle for datasets read shard by shard, when only a few shards fit the local cache (remote
 * datasets; MosaicML Streaming and WebDataset shuffle the same way). Each epoch visits the shards in a
 * fresh random order with a window of {@code window} shards open at a time, and shuffles samples across
 * the window; every sample still comes exactly once per epoch.
 *
 * <p>Each shard's samples are shuffled and cut into {@code k = min(window, shards)} equal slices. With the
 * shards in the epoch's order s<sub>0</sub>, s<sub>1</sub>, ..., segment t holds slice j of shard
 * s<sub>t-j</sub> for j = 0..k-1, shuffled together; so shard s<sub>i</sub> opens in segment i, closes
 * after segment i + k - 1, and a segment mixes k shards (fewer in the first and last k - 1 segments).
 * Consequences a cache relies on: at any position at most k shards are open; a run of positions shorter
 * than a segment (about one shard's samples) touches at most k + 1; the first samples need one shard
 * only, so training starts as soon as it is local. A dataset of one shard gets a full shuffle.
 *
 * <p>Ranks take contiguous runs ({@link RankSplit#CONTIGUOUS}), so each rank reads about
 * {@code shards / worldSize + k - 1} shards, mostly its own. An epoch is a pure function of (seed,
 * epoch), so mid-epoch resume works as for the other orders.
 */
public final class ShardWindowOrder implements TraversalOrder {
  private static final long SALT = 0x57494e444f57L; // "WINDOW"
  private final long seed;
  private final int window;
  private final SampleGroups groups; // by shard

  ShardWindowOrder(OrderContext context, int window) {
    this.seed = context.seed();
    this.window = window;
    this.groups = new SampleGroups(context.indices(), context.shards(), context::shardOf);
  }

  /** A shard window of {@code shards} shards (k above); at least 1. */
  public static TraversalOrder.Factory window(int shards) {
    if (shards < 1) {
      throw new IllegalArgumentException("A shard window must hold at least 1 shard, got " + shards);
    }
    return context -> new ShardWindowOrder(context, shards);
  }

  public int window() {
    return window;
  }

  @Override
  public RankSplit rankSplit() {
    return RankSplit.CONTIGUOUS;
  }

  @Override
  public int[] globalOrder(int epoch) {
    SplittableRandom rng = new SplittableRandom(Seeds.mix(seed, epoch, SALT));
    int[] pool = groups.shuffledMembers(rng);
    int m = groups.count();
    int[] shardOrder = groups.shuffledOrder(rng);
    int k = Math.max(1, Math.min(window, m));
    int[] out = new int[pool.length];
    int pos = 0;
    for (int t = 0; t < m + k - 1; t++) {
      int segment = pos;
      for (int j = 0; j < k; j++) {
        int i = t - j;
        if (i < 0 || i >= m) {
          continue;
        }
        int g = shardOrder[i];
        int n = groups.start(g + 1) - groups.start(g);
        int from = groups.start(g) + (int) ((long) j * n / k);
        int to = groups.start(g) + (int) ((long) (j + 1) * n / k);
        System.arraycopy(pool, from, out, pos, to - from);
        pos += to - from;
      }
      RandomOrder.shuffle(out, segment, pos, rng);
    }
    return out;
  }
}
