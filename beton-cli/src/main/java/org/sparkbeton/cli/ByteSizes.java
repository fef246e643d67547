package org.sparkbeton.cli;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.sparkbeton.format.BetonFormat;
import picocli.CommandLine;

/** Parses {@code 8M}, {@code 2MiB}, {@code 1G}, {@code 4194304} (binary units: K = 1024) and formats sizes. */
final class ByteSizes {
  private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([kmgt]?)(i?b)?", Pattern.CASE_INSENSITIVE);

  private ByteSizes() {}

  static long parse(String text) {
    Matcher m = SIZE.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException("'" + text + "' is not a size; use bytes or a binary unit, e.g. 8M, 2MiB, 1G");
    }
    int shift = switch (m.group(2).toLowerCase(Locale.ROOT)) {
      case "k" -> 10;
      case "m" -> 20;
      case "g" -> 30;
      case "t" -> 40;
      default -> 0;
    };
    if (m.group(3) != null && m.group(3).equalsIgnoreCase("ib") && shift == 0) {
      throw new IllegalArgumentException("'" + text + "' is not a size; use bytes or a binary unit, e.g. 8M, 2MiB, 1G");
    }
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

  /** {@code 2 MiB}, {@code 1.5 KiB}, {@code 17 B}. */
  static String human(long bytes) {
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

  /** A page size option: a size that is a power of two between 2 MiB and 1 GiB. */
  static final class PageSizeConverter implements CommandLine.ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
      long size;
      try {
        size = parse(value);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException(e.getMessage());
      }
      if (!BetonFormat.isPowerOfTwo(size) || size < BetonFormat.MIN_PAGE_SIZE || size > BetonFormat.MAX_WRITE_PAGE_SIZE) {
        throw new CommandLine.TypeConversionException("page size " + value + " (" + size
            + " bytes) must be a power of two between 2M and 1G");
      }
      return size;
    }
  }
}
