package org.sparkbeton.loader.pipeline;

import org.sparkbeton.loader.order.Seeds;

/**
 * A small mutable generator (splitmix64) re-seeded for every (sample, operation), so a sample's
 * augmentation depends only on (seed, epoch, sample index, operation) and never on which thread
 * runs it or what ran before. Reseeding allocates nothing.
 */
public final class SampleRandom {
  private long state;

  /** Positions the generator at the stream of {@code (seed, epoch, sample, stream)}. */
  public void reset(long seed, long epoch, long sample, long stream) {
    state = Seeds.mix(seed, epoch, sample, stream);
  }

  public long nextLong() {
    state += 0x9e3779b97f4a7c15L;
    return Seeds.scramble(state);
  }

  /** Uniform in [0, bound). */
  public int nextInt(int bound) {
    if (bound <= 0) {
      throw new IllegalArgumentException("bound must be positive, got " + bound);
    }
    // Lemire's multiply-shift with rejection: unbiased
    long m = (nextLong() >>> 32) * bound;
    long low = m & 0xffffffffL;
    if (low < bound) {
      long threshold = (0x100000000L - bound) % bound;
      while (low < threshold) {
        m = (nextLong() >>> 32) * bound;
        low = m & 0xffffffffL;
      }
    }
    return (int) (m >>> 32);
  }

  /** Uniform in [lo, hi] (both inclusive). */
  public int nextInt(int lo, int hi) {
    return lo + nextInt(hi - lo + 1);
  }

  /** Uniform in [0, 1). */
  public double nextDouble() {
    return (nextLong() >>> 11) * 0x1.0p-53;
  }
}
