package org.sparkbeton.format;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses sizes written as {@code 8M}, {@code 2MiB}, {@code 1g}, {@code 4194304} (binary units: K = 1024), and writes
 * them for people ({@link #human}).
 */
public final class ByteSizes {
  private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([kmgt]?)(i?b)?", Pattern.CASE_INSENSITIVE);

  private ByteSizes() {}

  /** @throws IllegalArgumentException naming the text when it is not a size or overflows */
  public static long parse(String text) {
    Matcher m = SIZE.matcher(text.trim());
    if (!m.matches() || (m.group(3) != null && m.group(3).equalsIgnoreCase("ib") && m.group(2).isEmpty())) {
      throw new IllegalArgumentException("'" + text + "' is not a size; use bytes or a binary unit, e.g. 8M, 2MiB, 1G");
    }
    int shift = switch (m.group(2).toLowerCase(Locale.ROOT)) {
      case "k" -> 10;
      case "m" -> 20;
      case "g" -> 30;
      case "t" -> 40;
      default -> 0;
    };
    try {
      long n = Long.parseLong(m.group(1));
      if (n > (Long.MAX_VALUE >> shift)) {
        throw new NumberFormatException();
      }
      return n << shift;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "' is too large");
    }
  }

  /** {@code 2 MiB}, {@code 1.5 KiB}, {@code 17 B} (binary units, one decimal where not whole). */
  public static String human(long bytes) {
    String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = bytes;
    int u = 0;
    while (Math.abs(v) >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    if (u == 0) {
      return bytes + " B";
    }
    return (v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.1f", v))
        + " " + units[u];
  }
}
