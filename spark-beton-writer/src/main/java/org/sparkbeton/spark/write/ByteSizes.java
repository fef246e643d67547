package org.sparkbeton.spark.write;

/** Size options ({@code 8M}, {@code 1GiB}, bytes), with the option's name in the message. */
final class ByteSizes {
  private ByteSizes() {}

  static long parse(String option, String text) {
    try {
      return org.sparkbeton.format.ByteSizes.parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Option " + option + ": " + e.getMessage(), e);
    }
  }
}
