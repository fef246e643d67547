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
    String packed = compression(b, base);
    if (packed != null) {
      throw new BetonFormatException(file, "header", 0, packed);
    }
    int version = Short.toUnsignedInt(b.getShort(base));
    if (version > MAX_PLAUSIBLE_VERSION) {
      throw new BetonFormatException(file, "header", 0, "not a .beton file: its first two bytes, a .beton's format"
          + " version, read " + version + " where a .beton has " + BetonFormat.VERSION + "; it starts with "
          + start(b, base));
    }
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

  /**
   * Above this a version number is no .beton's at all (FFCV has had 1 and 2), so the file is something else: a text,
   * an image, a Parquet file given by mistake.
   */
  private static final int MAX_PLAUSIBLE_VERSION = 255;

  /** The file's first 8 bytes: as text in quotes when they are printable ASCII, else in hex. */
  private static String start(ByteBuffer b, int base) {
    StringBuilder text = new StringBuilder("\"");
    StringBuilder hex = new StringBuilder();
    boolean printable = true;
    for (int i = 0; i < 8; i++) {
      int c = b.get(base + i) & 0xff;
      printable &= c >= 0x20 && c < 0x7f;
      text.append((char) c);
      hex.append(i == 0 ? "" : " ").append(String.format(java.util.Locale.ROOT, "%02x", c));
    }
    return printable ? text.append('"').toString() : hex.toString();
  }

  /**
   * What to say when the file is a compressed archive rather than a .beton (the golden files ship gzipped, and a
   * gzip's magic bytes would otherwise read as "version 35615"); null when it starts like no known archive.
   */
  private static String compression(ByteBuffer b, int base) {
    int b0 = b.get(base) & 0xff;
    int b1 = b.get(base + 1) & 0xff;
    int b2 = b.get(base + 2) & 0xff;
    int b3 = b.get(base + 3) & 0xff;
    if (b0 == 0x1f && b1 == 0x8b) {
      return "this file is gzip-compressed; gunzip it first";
    }
    if (b0 == 0x28 && b1 == 0xb5 && b2 == 0x2f && b3 == 0xfd) {
      return "this file is zstd-compressed; unzstd it first";
    }
    if (b0 == 0xfd && b1 == '7' && b2 == 'z' && b3 == 'X') {
      return "this file is xz-compressed; unxz it first";
    }
    if (b0 == 'B' && b1 == 'Z' && b2 == 'h') {
      return "this file is bzip2-compressed; bunzip2 it first";
    }
    if (b0 == 'P' && b1 == 'K' && b2 == 3 && b3 == 4) {
      return "this file is a zip archive; unzip it first";
    }
    return null;
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
