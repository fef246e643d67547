package org.sparkbeton.format.dataset;

import java.io.IOException;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.CRC32C;
import org.sparkbeton.format.BetonFormat;
import org.sparkbeton.format.BetonFormatException;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.io.BetonSource;

/**
 * CRC32C checksums of one shard's pages, kept in the dataset manifest (never in the {@code .beton} file, which
 * stays byte-compatible with FFCV), so that readers check the bytes they read against what the writer wrote.
 *
 * <p><b>Units.</b> The file is cut at every multiple of the page size and at the start of each of its regions:
 * header and field descriptors {@code [0, metadataStart)}, metadata records {@code [metadataStart, dataStart)},
 * data {@code [dataStart, allocationTableStart)} and allocation table {@code [allocationTableStart, fileLength)}.
 * Each non-empty piece is one unit with one CRC32C, in file order. So a data unit is the data of exactly one
 * page (what a loader's page cache loads and a payload lies in), and a metadata-only reader checks the metadata
 * without reading one byte of data. The units follow from the five numbers alone; a reader takes them from the
 * manifest, never from the file it is checking.
 *
 * <p>Immutable; {@link #check} is safe from any thread.
 */
public final class PageChecksums implements Serializable {
  private static final long serialVersionUID = 1L;
  public static final String ALGORITHM = "crc32c";

  /** The four regions of a {@code .beton} file, as messages name them. */
  public enum Region {
    HEADER("header and field descriptors"),
    METADATA("metadata"),
    DATA("data"),
    ALLOCATION_TABLE("allocation table");

    private final String label;

    Region(String label) {
      this.label = label;
    }

    @Override
    public String toString() {
      return label;
    }
  }

  private final long pageSize;
  private final long metadataStart;
  private final long dataStart;
  private final long allocationTableStart;
  private final long fileLength;
  private final int[] values;
  private final long[] starts; // unit i is [starts[i], starts[i + 1])

  /**
   * @param values the CRC32C of every unit, in file order
   * @throws IllegalArgumentException when the geometry is impossible or the number of values does not match it
   */
  public PageChecksums(long pageSize, long metadataStart, long dataStart, long allocationTableStart, long fileLength,
      int[] values) {
    if (!BetonFormat.isPowerOfTwo(pageSize)) {
      throw new IllegalArgumentException("page size " + pageSize + " is not a power of two");
    }
    if (metadataStart < BetonFormat.HEADER_SIZE || dataStart < metadataStart || allocationTableStart < dataStart
        || fileLength < allocationTableStart) {
      throw new IllegalArgumentException("regions must follow one another in the file: metadata at " + metadataStart
          + " (at least " + BetonFormat.HEADER_SIZE + "), data at " + dataStart + ", allocation table at "
          + allocationTableStart + ", end of file at " + fileLength);
    }
    this.pageSize = pageSize;
    this.metadataStart = metadataStart;
    this.dataStart = dataStart;
    this.allocationTableStart = allocationTableStart;
    this.fileLength = fileLength;
    this.starts = unitStarts(pageSize, metadataStart, dataStart, allocationTableStart, fileLength);
    if (values.length != starts.length - 1) {
      throw new IllegalArgumentException("a file of " + fileLength + " bytes with " + pageSize + "-byte pages has "
          + (starts.length - 1) + " checksum units, but " + values.length + " checksums are given");
    }
    this.values = values.clone();
  }

  /** Where the unit starting at {@code position} ends: the next page boundary or region start, else the file end. */
  static long boundaryAfter(long position, long pageSize, long metadataStart, long dataStart, long allocStart,
      long fileLength) {
    long next = (position / pageSize + 1) * pageSize;
    for (long start : new long[] {metadataStart, dataStart, allocStart, fileLength}) {
      if (start > position && start < next) {
        next = start;
      }
    }
    return next;
  }

  /** The start of every unit, then the file length. */
  private static long[] unitStarts(long pageSize, long metadataStart, long dataStart, long allocationTableStart,
      long fileLength) {
    int count = 0;
    for (long p = 0; p < fileLength; p = boundaryAfter(p, pageSize, metadataStart, dataStart, allocationTableStart,
        fileLength)) {
      if (++count > Integer.MAX_VALUE - 8) {
        throw new IllegalArgumentException("a file of " + fileLength + " bytes has too many pages of " + pageSize);
      }
    }
    long[] out = new long[count + 1];
    long p = 0;
    for (int i = 0; i < count; i++) {
      out[i] = p;
      p = boundaryAfter(p, pageSize, metadataStart, dataStart, allocationTableStart, fileLength);
    }
    out[count] = fileLength;
    return out;
  }

  /** The checksums of a whole file, read through {@code reader}'s source unit by unit (tools and tests). */
  public static PageChecksums compute(BetonReader reader) throws IOException {
    BetonSource source = reader.source();
    long length = source.length();
    long[] starts = unitStarts(reader.pageSize(), reader.metadataStart(), reader.metadataEnd(),
        reader.header().allocTablePtr(), length);
    int[] values = new int[starts.length - 1];
    CRC32C crc = new CRC32C();
    for (int u = 0; u < values.length; u++) {
      crc.reset();
      for (long p = starts[u]; p < starts[u + 1]; ) {
        int n = (int) Math.min(8 << 20, starts[u + 1] - p);
        crc.update(source.read(p, n));
        p += n;
      }
      values[u] = (int) crc.getValue();
    }
    return new PageChecksums(reader.pageSize(), reader.metadataStart(), reader.metadataEnd(),
        reader.header().allocTablePtr(), length, values);
  }

  public long pageSize() { return pageSize; }
  public long metadataStart() { return metadataStart; }
  public long dataStart() { return dataStart; }
  public long allocationTableStart() { return allocationTableStart; }
  /** The size of the file the checksums describe: the shard's {@code bytes} in the manifest. */
  public long fileLength() { return fileLength; }

  public int units() {
    return values.length;
  }

  public long unitStart(int unit) {
    return starts[unit];
  }

  public long unitEnd(int unit) {
    return starts[unit + 1];
  }

  public int unitLength(int unit) {
    return (int) (starts[unit + 1] - starts[unit]);
  }

  /** The page a unit lies in: its start divided by the page size. */
  public long page(int unit) {
    return starts[unit] / pageSize;
  }

  public Region region(int unit) {
    long s = starts[unit];
    return s < metadataStart ? Region.HEADER : s < dataStart ? Region.METADATA
        : s < allocationTableStart ? Region.DATA : Region.ALLOCATION_TABLE;
  }

  /** The CRC32C the writer computed for {@code unit}. */
  public int value(int unit) {
    return values[unit];
  }

  /** The unit holding byte {@code offset} of the file. */
  public int unitAt(long offset) {
    if (offset < 0 || offset >= fileLength) {
      throw new IndexOutOfBoundsException("offset " + offset + " is outside the file's " + fileLength + " bytes");
    }
    int i = Arrays.binarySearch(starts, 0, starts.length - 1, offset);
    return i >= 0 ? i : -i - 2;
  }

  /** The data unit of absolute page {@code page} (file offset / page size), or -1 when the page holds no data. */
  public int dataUnit(long page) {
    long from = Math.max(page * pageSize, dataStart);
    if (page < 0 || from >= allocationTableStart || from >= (page + 1) * pageSize) {
      return -1;
    }
    return unitAt(from);
  }

  /** For messages: {@code page 3 (data region, bytes [25165824, 33554432))}. */
  public String describe(int unit) {
    return "page " + page(unit) + " (" + region(unit) + " region, bytes [" + unitStart(unit) + ", " + unitEnd(unit)
        + "))";
  }

  /**
   * Checks {@code bytes} (position to limit; the position is not moved) against unit {@code unit}.
   *
   * @throws BetonFormatException naming {@code file}, the page and the region when they differ
   */
  public void check(String file, int unit, ByteBuffer bytes) {
    if (bytes.remaining() != unitLength(unit)) {
      throw new IllegalArgumentException("unit " + unit + " of " + file + " is " + unitLength(unit) + " bytes, got "
          + bytes.remaining());
    }
    CRC32C crc = new CRC32C();
    crc.update(bytes.duplicate());
    int actual = (int) crc.getValue();
    if (actual != values[unit]) {
      throw mismatch(file, unit, actual);
    }
  }

  /** The error for a unit whose bytes have CRC32C {@code actual}. */
  public BetonFormatException mismatch(String file, int unit, int actual) {
    return new BetonFormatException(file, describe(unit), unitStart(unit), "CRC32C is " + hex(actual)
        + " but the manifest says " + hex(values[unit]) + ": the shard changed after it was written");
  }

  private static final char[] HEX_DIGITS = "0123456789abcdef".toCharArray();

  static String hex(int value) {
    char[] out = new char[8];
    appendHex(value, out, 0);
    return new String(out);
  }

  /** {@code value} as 8 lower-case hex digits at {@code out[at..at+8)}. */
  private static void appendHex(int value, char[] out, int at) {
    for (int i = 7; i >= 0; i--) {
      out[at + i] = HEX_DIGITS[value & 0xf];
      value >>>= 4;
    }
  }

  /**
   * The values as one string of 8 lower-case hex digits per unit, as the manifest stores them. Written by hand
   * rather than with {@code String.format}: a reader writes every shard's values again to check the manifest's own
   * checksum, tens of thousands of them for an ImageNet-size dataset.
   */
  String valuesHex() {
    char[] out = new char[values.length * 8];
    for (int i = 0; i < values.length; i++) {
      appendHex(values[i], out, 8 * i);
    }
    return new String(out);
  }

  /** Parses {@link #valuesHex()}. */
  static int[] parseValues(String hex) {
    if (hex.length() % 8 != 0) {
      throw new IllegalArgumentException("checksum values must be 8 hex digits each, got " + hex.length() + " digits");
    }
    int[] out = new int[hex.length() / 8];
    for (int i = 0; i < out.length; i++) {
      try {
        out[i] = Integer.parseUnsignedInt(hex.substring(8 * i, 8 * i + 8), 16);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("checksum " + i + " is not 8 hex digits: \"" + hex.substring(8 * i, 8 * i + 8)
            + "\"");
      }
    }
    return out;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PageChecksums p && p.pageSize == pageSize && p.metadataStart == metadataStart
        && p.dataStart == dataStart && p.allocationTableStart == allocationTableStart && p.fileLength == fileLength
        && Arrays.equals(p.values, values);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(values) * 31 + Long.hashCode(fileLength);
  }

  @Override
  public String toString() {
    return "PageChecksums(" + values.length + " units of " + fileLength + " bytes, pages of " + pageSize + ")";
  }
}
