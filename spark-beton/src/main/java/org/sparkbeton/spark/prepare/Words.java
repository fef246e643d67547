package org.sparkbeton.spark.prepare;

import java.util.Locale;

/** Counts in words for prepare's and compaction's lines: {@code 1 shard}, {@code 2 shards}, {@code 1 image/s}. */
final class Words {
  private Words() {}

  /** {@code 1 sample}, {@code 1,200 samples}. */
  static String plural(long n, String noun) {
    return String.format(Locale.ROOT, "%,d", n) + " " + noun + (n == 1 ? "" : "s");
  }

  /** {@code 417 images/s}, {@code 1 image/s}: singular when the rate shows as 1. */
  static String perSecond(double rate, String noun) {
    String shown = String.format(Locale.ROOT, "%,.0f", rate);
    return shown + " " + noun + (shown.equals("1") ? "" : "s") + "/s";
  }
}
