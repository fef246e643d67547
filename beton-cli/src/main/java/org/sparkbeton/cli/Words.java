package org.sparkbeton.cli;

/** Small helpers for messages. */
final class Words {
  private Words() {}

  /** {@code "1 page"}, {@code "2 pages"}. */
  static String plural(long n, String noun) {
    return plural(n, noun, noun + "s");
  }

  /** {@code "1 entry"}, {@code "2 entries"}: a noun whose plural is not the singular plus s. */
  static String plural(long n, String singular, String plural) {
    return n + " " + (n == 1 ? singular : plural);
  }
}
