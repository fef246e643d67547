package org.sparkbeton.loader.order;

/** Seed mixing: independent streams from (seed, epoch, ...) tuples, with no allocation. */
public final class Seeds {
  private Seeds() {}

  /** The splitmix64 finaliser (Stafford variant 13): a bijection that scatters nearby inputs. */
  public static long scramble(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }

  public static long mix(long a, long b) {
    return scramble(scramble(a) + 0x9e3779b97f4a7c15L * (b + 1));
  }

  public static long mix(long a, long b, long c) {
    return mix(mix(a, b), c);
  }

  public static long mix(long a, long b, long c, long d) {
    return mix(mix(mix(a, b), c), d);
  }
}
