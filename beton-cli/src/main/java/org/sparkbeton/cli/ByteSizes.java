package org.sparkbeton.cli;

import java.util.Locale;
import org.sparkbeton.format.BetonFormat;
import picocli.CommandLine;

/** Sizes on the command line: parsed by the core's {@link org.sparkbeton.format.ByteSizes}, formatted for people. */
final class ByteSizes {
  private ByteSizes() {}

  static long parse(String text) {
    return org.sparkbeton.format.ByteSizes.parse(text);
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
