package org.sparkbeton.spark.read;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import org.sparkbeton.format.BetonReader;

/**
 * The metadata records of one split, fetched forward in windows of about {@value #WINDOW_BYTES} bytes and
 * never past the split's end, so a sample range of a large file reads exactly its own records (the core
 * reader's own cache fetches records in chunks of up to 64 MiB, which a split of a large file would
 * mostly waste).
 */
final class RecordWindow {
  static final int WINDOW_BYTES = 1 << 20;

  private final BetonReader reader;
  private final int recordSize;
  private final long limit;
  private ByteBuffer window;
  private long first = -1;
  private long end = -1;

  /** Records of samples below {@code limit} (at most the file's sample count). */
  RecordWindow(BetonReader reader, long limit) {
    this.reader = reader;
    this.recordSize = reader.layout().recordSize();
    this.limit = Math.min(limit, reader.numSamples());
  }

  /** A little-endian buffer holding {@code sample}'s record at {@link #offset(long)}. */
  ByteBuffer bufferFor(long sample) {
    if (sample < first || sample >= end) {
      load(sample);
    }
    return window;
  }

  int offset(long sample) {
    return (int) ((sample - first) * recordSize);
  }

  private void load(long sample) {
    if (sample < 0 || sample >= limit) {
      throw new IndexOutOfBoundsException("Sample " + sample + " is outside 0.." + (limit - 1) + " of " + reader.file());
    }
    long rows = Math.min(Math.max(1, WINDOW_BYTES / Math.max(1, recordSize)), limit - sample);
    try {
      window = reader.source().read(reader.metadataStart() + sample * recordSize, (int) (rows * recordSize));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    first = sample;
    end = sample + rows;
  }
}
