package org.sparkbeton.spark.write;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses sizes such as {@code 8388608}, {@code 8M}, {@code 8MiB}, {@code 1g} (binary units). */
final class ByteSizes {
  private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([kmgt]?)(i?b)?");

  private ByteSizes() {}

  static long parse(String option, String text) {
    Matcher m = SIZE.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException("Option " + option + " must be a size like 8388608, 8M or 1GiB, got '" + text + "'");
    }
    int shift = switch (m.group(2)) {
      case "k" -> 10;
      case "m" -> 20;
      case "g" -> 30;
      case "t" -> 40;
      default -> 0;
    };
    long value = Long.parseLong(m.group(1));
    if (value > (Long.MAX_VALUE >> shift)) {
      throw new IllegalArgumentException("Option " + option + " is too large: '" + text + "'");
    }
    return value << shift;
  }
}
