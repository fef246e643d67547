package org.sparkbeton.cli;

/** Small helpers for messages. */
final class Words {
  private Words() {}

  /** {@code "1 page"}, {@code "2 pages"}. */
  static String plural(long n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }
}
