package org.sparkbeton.format.write;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/** Positional write helpers that loop until everything is written. */
final class Channels {
  private Channels() {}

  static void writeFully(FileChannel channel, ByteBuffer src, long position) throws IOException {
    ByteBuffer b = src.duplicate();
    long pos = position;
    while (b.hasRemaining()) {
      pos += channel.write(b, pos);
    }
  }

  static void readFully(FileChannel channel, ByteBuffer dst, long position) throws IOException {
    long pos = position;
    while (dst.hasRemaining()) {
      int n = channel.read(dst, pos);
      if (n < 0) {
        throw new IOException("Unexpected end of file at " + pos);
      }
      pos += n;
    }
  }

  /** Writes the metadata records {@code [0, n)} to {@code sink}, chunk by chunk. */
  static void writeRecords(MetadataRows rows, long n, RecordSink sink) throws IOException {
    int per = MetadataRows.rowsPerChunk();
    for (long from = 0; from < n; from += per) {
      int count = (int) Math.min(per, n - from);
      sink.accept(rows.rows(from, count));
    }
  }

  interface RecordSink {
    void accept(ByteBuffer records) throws IOException;
  }
}
