package org.sparkbeton.format;

/** Fixed sizes and limits of the {@code .beton} format, version 2 (docs/format.md). */
public final class BetonFormat {
  public static final int VERSION = 2;
  public static final int HEADER_SIZE = 24;
  public static final int NAME_SIZE = 16;
  public static final int ARGUMENTS_SIZE = 1024;
  public static final int DESCRIPTOR_SIZE = 1 + NAME_SIZE + ARGUMENTS_SIZE;
  public static final int ALLOCATION_ENTRY_SIZE = 24;
  /** FFCV's smallest page, {@code 1 << 21}. */
  public static final long MIN_PAGE_SIZE = 1L << 21;
  /** Largest page our writer produces; FFCV accepts up to {@code 1 << 32} exclusive, so do we when reading. */
  public static final long MAX_WRITE_PAGE_SIZE = 1L << 30;
  /** Largest page a reader accepts (FFCV's writer checks {@code page_size < 1 << 32}). */
  public static final long MAX_READ_PAGE_SIZE = (1L << 32) - 1;
  /** FFCV's default page size, {@code 4 * MIN_PAGE_SIZE}. */
  public static final long DEFAULT_PAGE_SIZE = 8L << 20;

  private BetonFormat() {}

  /** Offset of the first metadata record: after the header and {@code numFields} descriptors. */
  public static long metadataStart(int numFields) {
    return HEADER_SIZE + (long) DESCRIPTOR_SIZE * numFields;
  }

  public static long alignUp(long value, long alignment) {
    long rest = value % alignment;
    return rest == 0 ? value : value + alignment - rest;
  }

  public static boolean isPowerOfTwo(long value) {
    return value > 0 && (value & (value - 1)) == 0;
  }

  /** Validates a page size for writing: a power of two in [2 MiB, 1 GiB]. */
  public static long checkWritePageSize(long pageSize) {
    if (!isPowerOfTwo(pageSize) || pageSize < MIN_PAGE_SIZE || pageSize > MAX_WRITE_PAGE_SIZE) {
      throw new IllegalArgumentException(
          "Page size must be a power of two between 2 MiB (2097152) and 1 GiB (1073741824), got " + pageSize);
    }
    return pageSize;
  }
}
