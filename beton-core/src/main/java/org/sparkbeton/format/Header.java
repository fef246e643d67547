package org.sparkbeton.format;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The 24-byte file header (docs/format.md#header). All fields little-endian; u64 values fit a signed long in
 * practice.
 */
public record Header(int version, int numFields, long pageSize, long numSamples, long allocTablePtr) {

  public static Header parse(ByteBuffer bytes, String file) {
    if (bytes.remaining() < BetonFormat.HEADER_SIZE) {
      throw new BetonFormatException(file, "header", 0,
          "file has " + bytes.remaining() + " bytes, a header needs " + BetonFormat.HEADER_SIZE);
    }
    ByteBuffer b = bytes.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    int base = b.position();
    int version = Short.toUnsignedInt(b.getShort(base));
    if (version != BetonFormat.VERSION) {
      throw new BetonFormatException(file, "header", 0,
          "version " + version + " is not supported, expected " + BetonFormat.VERSION);
    }
    int numFields = Short.toUnsignedInt(b.getShort(base + 2));
    long pageSize = Integer.toUnsignedLong(b.getInt(base + 4));
    long numSamples = b.getLong(base + 8);
    long allocTablePtr = b.getLong(base + 16);
    if (!BetonFormat.isPowerOfTwo(pageSize) || pageSize < BetonFormat.MIN_PAGE_SIZE) {
      throw new BetonFormatException(file, "header", 4,
          "page size " + pageSize + " is not a power of two of at least " + BetonFormat.MIN_PAGE_SIZE);
    }
    if (numSamples < 0) {
      throw new BetonFormatException(file, "header", 8, "sample count " + Long.toUnsignedString(numSamples) + " is absurd");
    }
    if (allocTablePtr < 0) {
      throw new BetonFormatException(file, "header", 16,
          "allocation table pointer " + Long.toUnsignedString(allocTablePtr) + " is absurd");
    }
    return new Header(version, numFields, pageSize, numSamples, allocTablePtr);
  }

  public ByteBuffer toBytes() {
    ByteBuffer b = ByteBuffer.allocate(BetonFormat.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
    b.putShort((short) version).putShort((short) numFields).putInt((int) pageSize)
        .putLong(numSamples).putLong(allocTablePtr);
    return b.flip();
  }

  /** log2 of the page size: {@code ptr >> pageShift()} is the absolute page number of a pointer. */
  public int pageShift() {
    return Long.numberOfTrailingZeros(pageSize);
  }
}
