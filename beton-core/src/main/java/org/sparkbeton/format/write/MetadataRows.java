package org.sparkbeton.format.write;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * Metadata records held in memory until the sample count is known: chunks of 64 Ki rows, filled by
 * any number of worker threads, each row written exactly once.
 */
final class MetadataRows {
  private static final int ROWS_PER_CHUNK = 1 << 16;

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
      chunks.add(new byte[ROWS_PER_CHUNK * recordSize]);
    }
    System.arraycopy(record, 0, chunks.get(chunk), (int) (index % ROWS_PER_CHUNK) * recordSize, recordSize);
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

  static int rowsPerChunk() {
    return ROWS_PER_CHUNK;
  }
}
