package org.sparkbeton.spark.write;

import org.sparkbeton.format.ByteSizes;

/** Size options ({@code 8M}, {@code 1GiB}, bytes), with the option's name in the message. */
final class SizeOption {
  private SizeOption() {}

  static long parse(String option, String text) {
    try {
      return ByteSizes.parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Option " + option + ": " + e.getMessage(), e);
    }
  }
}
