package org.sparkbeton.loader.order;

/**
 * Cuts one rank's share out of a global epoch order, padded like torch's {@code DistributedSampler}
 * with {@code drop_last=False}: the global order of n samples is extended to
 * {@code ceil(n / worldSize) * worldSize} positions by repeating it from its start, then dealt. Every
 * rank gets the same number of samples; the shares are disjoint except for the
 * {@code ceil(n / w) * w - n} padding positions (fewer than {@code worldSize}), which repeat samples
 * from the start of the global order.
 */
public final class RankShare {
  private RankShare() {}

  /** Samples per rank for {@code n} global samples. */
  public static int perRank(int n, int worldSize) {
    return (int) ((n + (long) worldSize - 1) / worldSize);
  }

  public static int[] share(int[] global, RankSplit split, int rank, int worldSize) {
    if (worldSize < 1 || rank < 0 || rank >= worldSize) {
      throw new IllegalArgumentException("Rank " + rank + " of world size " + worldSize
          + ": expected worldSize >= 1 and 0 <= rank < worldSize");
    }
    int n = global.length;
    if (worldSize == 1 || n == 0) {
      return global;
    }
    int per = perRank(n, worldSize);
    int[] out = new int[per];
    for (int k = 0; k < per; k++) {
      long position = split == RankSplit.STRIDED ? rank + (long) k * worldSize : (long) rank * per + k;
      out[k] = global[(int) (position % n)];
    }
    return out;
  }
}
