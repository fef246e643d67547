package org.sparkbeton.loader.order;

import java.util.SplittableRandom;

/**
 * A uniform permutation of the indices (Fisher–Yates) from a generator seeded with
 * {@code mix(seed, epoch)}. Not numpy's PCG64 stream: the same seed gives a different permutation
 * than FFCV, but always the same one here.
 */
final class RandomOrder implements TraversalOrder {
  private static final long SALT = 0x52414e444f4dL; // "RANDOM"
  private final int[] indices;
  private final long seed;

  RandomOrder(int[] indices, long seed) {
    this.indices = indices;
    this.seed = seed;
  }

  @Override
  public int[] globalOrder(int epoch) {
    int[] out = indices.clone();
    shuffle(out, 0, out.length, new SplittableRandom(Seeds.mix(seed, epoch, SALT)));
    return out;
  }

  static void shuffle(int[] a, int from, int to, SplittableRandom rng) {
    for (int i = to - 1; i > from; i--) {
      int j = from + rng.nextInt(i - from + 1);
      int t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  }
}
