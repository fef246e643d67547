package org.sparkbeton.format.write;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * Metadata records held in memory until the sample count is known: chunks of 64 Ki rows, filled by
 * any number of worker threads, each row written exactly once. A chunk's array grows (doubling, from 1 Ki rows) to
 * the highest row written in it: a small file (a Spark task's shard of a few hundred rows) takes kilobytes of
 * records, not the 2 MB a whole chunk of 32-byte records would, zeroed by the JVM for each file.
 */
final class MetadataRows {
  private static final int ROWS_PER_CHUNK = 1 << 16;
  private static final int FIRST_ROWS = 1 << 10;

  private final int recordSize;
  private final List<byte[]> chunks = new ArrayList<>();
  private final BitSet written = new BitSet();
  private long maxIndex = -1;
  private long count;

  MetadataRows(int recordSize) {
    this.recordSize = recordSize;
  }

  synchronized void put(long index, byte[] record) {
    if (index < 0 || index >= Integer.MAX_VALUE) {
      throw new IllegalArgumentException("Sample index " + index + " is outside 0.." + (Integer.MAX_VALUE - 1));
    }
    if (written.get((int) index)) {
      throw new IllegalArgumentException("Sample " + index + " was already written");
    }
    int chunk = (int) (index / ROWS_PER_CHUNK);
    while (chunks.size() <= chunk) {
      chunks.add(new byte[0]);
    }
    int row = (int) (index % ROWS_PER_CHUNK);
    byte[] rows = chunks.get(chunk);
    if ((row + 1) * recordSize > rows.length) {
      int capacity = Math.max(FIRST_ROWS, rows.length / recordSize);
      while (capacity <= row) {
        capacity *= 2;
      }
      rows = Arrays.copyOf(rows, Math.min(capacity, ROWS_PER_CHUNK) * recordSize);
      chunks.set(chunk, rows);
    }
    System.arraycopy(record, 0, rows, row * recordSize, recordSize);
    written.set((int) index);
    maxIndex = Math.max(maxIndex, index);
    count++;
  }

  synchronized boolean isWritten(long index) {
    return index >= 0 && index < Integer.MAX_VALUE && written.get((int) index);
  }

  /** Number of samples: one past the highest index written. */
  synchronized long numSamples() {
    return maxIndex + 1;
  }

  /** First index below {@link #numSamples()} never written, or -1 when the rows are dense. */
  synchronized long firstMissing() {
    return count == maxIndex + 1 ? -1 : written.nextClearBit(0);
  }

  /** A little-endian view of the record of sample {@code index}. */
  ByteBuffer row(long index) {
    return ByteBuffer.wrap(chunks.get((int) (index / ROWS_PER_CHUNK)), (int) (index % ROWS_PER_CHUNK) * recordSize,
        recordSize).slice().order(ByteOrder.LITTLE_ENDIAN);
  }

  /** Records {@code [from, from+rows)} as one buffer region of a chunk; rows never cross chunks. */
  ByteBuffer rows(long from, int rows) {
    return ByteBuffer.wrap(chunks.get((int) (from / ROWS_PER_CHUNK)), (int) (from % ROWS_PER_CHUNK) * recordSize,
        rows * recordSize);
  }

  /** Bytes the chunks' arrays hold, rows written or not. */
  synchronized long capacityBytes() {
    long bytes = 0;
    for (byte[] chunk : chunks) {
      bytes += chunk.length;
    }
    return bytes;
  }

  static int rowsPerChunk() {
    return ROWS_PER_CHUNK;
  }
}
