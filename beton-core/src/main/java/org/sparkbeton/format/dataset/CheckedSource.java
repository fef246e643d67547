package org.sparkbeton.format.dataset;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.BitSet;
import java.util.zip.CRC32C;
import org.sparkbeton.format.BetonFormatException;
import org.sparkbeton.format.io.BetonSource;

/**
 * A shard's bytes checked against its manifest's {@link PageChecksums}: the first read touching a unit (a page's
 * share of one region) reads the whole unit and checks its CRC32C; a mismatch is a {@link BetonFormatException}
 * naming the file, the page and the region, and nothing of that unit is returned. A unit is checked once.
 *
 * <p>The two units checked or read last (of at most {@value #MAX_CACHED_UNIT_BYTES} bytes each) are kept, and
 * reads inside them are served from them: a reader that reads a page's payloads one by one reads the
 * page once (for a memory-mapped source the kept units are views, free). Larger units are checked in chunks and
 * then read again. {@link #bytesRead()} is the wrapped source's count: what was really read. Thread-safe.
 */
public final class CheckedSource implements BetonSource {
  static final int CACHED_UNITS = 2;
  static final int MAX_CACHED_UNIT_BYTES = 16 << 20;
  private static final int CHUNK = 8 << 20;

  private final BetonSource source;
  private final PageChecksums sums;
  private final BitSet checked = new BitSet();
  private final int[] cachedUnit = {-1, -1};
  private final ByteBuffer[] cached = new ByteBuffer[CACHED_UNITS];
  private final long[] lastUsed = new long[CACHED_UNITS];
  private long tick;

  /**
   * @throws BetonFormatException when the source's length is not the one the checksums describe (the manifest's
   *     byte count); the source is not closed
   */
  public CheckedSource(BetonSource source, PageChecksums sums) {
    this.source = source;
    this.sums = sums;
    if (source.length() != sums.fileLength()) {
      throw new BetonFormatException(source.name(), "file", Math.min(source.length(), sums.fileLength()),
          "shard is " + source.length() + " bytes but the manifest says " + sums.fileLength());
    }
  }

  @Override public String name() { return source.name(); }
  @Override public long length() { return source.length(); }
  @Override public long bytesRead() { return source.bytesRead(); }

  /** Units checked so far. */
  public synchronized int unitsChecked() {
    return checked.cardinality();
  }

  @Override
  public ByteBuffer read(long position, int len) throws IOException {
    if (len <= 0 || position < 0 || position > length() - len) {
      return source.read(position, len); // the source reports a range outside the file
    }
    int first = sums.unitAt(position);
    int last = sums.unitAt(position + len - 1);
    synchronized (this) {
      for (int u = first; u <= last; u++) {
        if (!checked.get(u)) {
          check(u);
        }
      }
      ByteBuffer out = fromCache(position, len, first, last);
      if (out != null) {
        return out;
      }
    }
    return source.read(position, len);
  }

  /** The bytes from the kept units when every unit of the range is kept; else null. */
  private ByteBuffer fromCache(long position, int len, int first, int last) {
    if (first == last) {
      ByteBuffer unit = cachedBuffer(first);
      return unit == null ? null
          : unit.slice((int) (position - sums.unitStart(first)), len).order(ByteOrder.LITTLE_ENDIAN);
    }
    for (int u = first; u <= last; u++) {
      if (cachedBuffer(u) == null) {
        return null;
      }
    }
    ByteBuffer copy = ByteBuffer.allocate(len);
    for (int u = first; u <= last; u++) {
      long from = Math.max(position, sums.unitStart(u));
      long to = Math.min(position + len, sums.unitEnd(u));
      copy.put(cachedBuffer(u).slice((int) (from - sums.unitStart(u)), (int) (to - from)));
    }
    return copy.flip().asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
  }

  private ByteBuffer cachedBuffer(int unit) {
    for (int i = 0; i < CACHED_UNITS; i++) {
      if (cachedUnit[i] == unit) {
        lastUsed[i] = ++tick;
        return cached[i];
      }
    }
    return null;
  }

  private void check(int unit) throws IOException {
    long start = sums.unitStart(unit);
    int length = sums.unitLength(unit);
    if (length <= MAX_CACHED_UNIT_BYTES) {
      ByteBuffer bytes = source.read(start, length);
      sums.check(name(), unit, bytes);
      int slot = lastUsed[0] <= lastUsed[1] ? 0 : 1; // the least recently used
      cachedUnit[slot] = unit;
      cached[slot] = bytes;
      lastUsed[slot] = ++tick;
    } else {
      CRC32C crc = new CRC32C();
      for (long p = start; p < start + length; ) {
        int n = (int) Math.min(CHUNK, start + length - p);
        crc.update(source.read(p, n));
        p += n;
      }
      if ((int) crc.getValue() != sums.value(unit)) {
        throw sums.mismatch(name(), unit, (int) crc.getValue());
      }
    }
    checked.set(unit);
  }

  @Override
  public void close() throws IOException {
    synchronized (this) {
      cached[0] = null;
      cached[1] = null;
      cachedUnit[0] = -1;
      cachedUnit[1] = -1;
    }
    source.close();
  }
}
