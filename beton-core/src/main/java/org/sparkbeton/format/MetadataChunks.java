package org.sparkbeton.format;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.sparkbeton.format.io.BetonSource;

/** The metadata table fetched lazily in chunks of whole records (at most 64 MiB each). */
final class MetadataChunks {
  private static final int CHUNK_BYTES = 64 << 20;

  private final BetonSource source;
  private final long start;
  private final int recordSize;
  private final long rowsPerChunk;
  private final long numSamples;
  private final AtomicReferenceArray<ByteBuffer> chunks;

  MetadataChunks(BetonSource source, long start, int recordSize, long numSamples) {
    this.source = source;
    this.start = start;
    this.recordSize = recordSize;
    this.numSamples = numSamples;
    this.rowsPerChunk = Math.max(1, CHUNK_BYTES / Math.max(1, recordSize));
    this.chunks = new AtomicReferenceArray<>((int) Math.max(1, (numSamples + rowsPerChunk - 1) / rowsPerChunk));
  }

  ByteBuffer chunkOf(long sample) throws IOException {
    int index = (int) (sample / rowsPerChunk);
    ByteBuffer chunk = chunks.get(index);
    if (chunk == null) {
      long first = index * rowsPerChunk;
      long rows = Math.min(rowsPerChunk, numSamples - first);
      chunk = source.read(start + first * recordSize, (int) (rows * recordSize));
      if (!chunks.compareAndSet(index, null, chunk)) {
        chunk = chunks.get(index);
      }
    }
    return chunk;
  }

  /** The first sample of {@code sample}'s chunk. */
  long chunkStart(long sample) {
    return sample - sample % rowsPerChunk;
  }

  /** The first sample after {@code sample}'s chunk (or the sample count). */
  long chunkEnd(long sample) {
    return Math.min(numSamples, chunkStart(sample) + rowsPerChunk);
  }

  int offsetInChunk(long sample) {
    return (int) (sample % rowsPerChunk) * recordSize;
  }
}
