package org.sparkbeton.format.dataset;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.CRC32C;
import org.sparkbeton.format.BetonFormat;
import org.sparkbeton.format.Header;

/**
 * Computes a file's {@link PageChecksums} from its bytes as they are written, front to back, so a writer that
 * streams a shard (the Spark writer) pays no second read. The unit boundaries come from the 24-byte header, the
 * first thing written, and the record size the caller gives. Not thread-safe: one per file.
 */
public final class PageChecksummer {
  private final int recordSize;
  private final byte[] head = new byte[BetonFormat.HEADER_SIZE];
  private final CRC32C crc = new CRC32C();
  private int[] values = new int[16];
  private int count;
  private long position;
  private long unitEnd = BetonFormat.HEADER_SIZE; // until the header is known, a stop to read it
  private Header header;
  private long metadataStart;
  private long dataStart;
  private long cut; // where the last finished unit ended

  /** For a file whose metadata records are {@code recordSize} bytes (its {@code RecordLayout}). */
  public PageChecksummer(int recordSize) {
    if (recordSize < 0) {
      throw new IllegalArgumentException("record size must be >= 0, got " + recordSize);
    }
    this.recordSize = recordSize;
  }

  public void update(int b) {
    update(new byte[] {(byte) b}, 0, 1);
  }

  public void update(byte[] bytes, int offset, int length) {
    while (length > 0) {
      int n = (int) Math.min(length, unitEnd - position);
      if (position < BetonFormat.HEADER_SIZE) {
        System.arraycopy(bytes, offset, head, (int) position, n);
      }
      crc.update(bytes, offset, n);
      position += n;
      offset += n;
      length -= n;
      if (position == unitEnd && header == null) {
        readHeader();
        unitEnd = boundaryAfter(0);
      }
      if (position == unitEnd) {
        values = count == values.length ? Arrays.copyOf(values, count * 2) : values;
        values[count++] = (int) crc.getValue();
        crc.reset();
        cut = position;
        unitEnd = boundaryAfter(position);
      }
    }
  }

  private long boundaryAfter(long p) {
    return PageChecksums.boundaryAfter(p, header.pageSize(), metadataStart, dataStart, header.allocTablePtr(),
        Long.MAX_VALUE);
  }

  private void readHeader() {
    header = Header.parse(ByteBuffer.wrap(head), "the stream being checksummed");
    metadataStart = BetonFormat.metadataStart(header.numFields());
    dataStart = metadataStart + header.numSamples() * recordSize;
  }

  /** The checksums of everything written; call once, after the last byte. */
  public PageChecksums finish() {
    if (header == null) {
      throw new IllegalStateException("only " + position + " bytes were written, less than a header");
    }
    int[] out = Arrays.copyOf(values, count + (position > cut ? 1 : 0));
    if (out.length > count) {
      out[count] = (int) crc.getValue();
    }
    return new PageChecksums(header.pageSize(), metadataStart, dataStart, header.allocTablePtr(), position, out);
  }
}
