package org.sparkbeton.format;

import java.util.Locale;

/** Counts written for people, beside {@link ByteSizes}: {@code 1 sample}, {@code 1,200 samples}, {@code 1 image/s}. */
public final class Counts {
  private Counts() {}

  /** {@code n} grouped by thousands and its noun, singular for one: {@code 1 shard}, {@code 2,000 shards}. */
  public static String of(long n, String noun) {
    return String.format(Locale.ROOT, "%,d ", n) + noun + (n == 1 ? "" : "s");
  }

  /** A rate as shown, whole: {@code 417 images/s}, and {@code 1 image/s} when it shows as 1. */
  public static String perSecond(double rate, String noun) {
    String shown = String.format(Locale.ROOT, "%,.0f", rate);
    return shown + " " + noun + (shown.equals("1") ? "" : "s") + "/s";
  }
}
