package org.sparkbeton.cli;

import org.sparkbeton.format.BetonFormat;
import org.sparkbeton.format.ByteSizes;
import picocli.CommandLine;

/** Sizes on the command line: parsed by the core's {@link ByteSizes}, formatted for people. */
final class SizeArgs {
  private SizeArgs() {}

  static long parse(String text) {
    return ByteSizes.parse(text);
  }

  /** {@code 2 MiB}, {@code 1.5 KiB}, {@code 17 B}. */
  static String human(long bytes) {
    return ByteSizes.human(bytes);
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
