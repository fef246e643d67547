package org.sparkbeton.format.write;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An append-only output (HDFS, S3A): pages are spooled to a local file at {@code k * page}; finish
 * streams head, records, zero gap, pages and table to the output in one front-to-back pass.
 */
final class StreamTarget implements BetonWriter.Target {
  private static final int COPY_CHUNK = 1 << 20;

  private final OutputStream out;
  private final Path spool;
  private final FileChannel channel;
  private final long pageSize;

  StreamTarget(OutputStream out, Path spool, long pageSize) throws IOException {
    this.out = out;
    this.spool = spool;
    this.pageSize = pageSize;
    this.channel = FileChannel.open(spool, StandardOpenOption.WRITE, StandardOpenOption.READ,
        StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.DELETE_ON_CLOSE);
  }

  @Override
  public void writePage(long pageIndex, ByteBuffer page) throws IOException {
    Channels.writeFully(channel, page, pageIndex * pageSize);
  }

  @Override
  public long dataStart(long minimal, long pages) {
    return minimal;
  }

  @Override
  public void complete(ByteBuffer head, MetadataRows rows, long n, int recordSize, long dataStart, long pages,
      ByteBuffer allocTable) throws IOException {
    try (channel; out) {
      byte[] chunk = new byte[COPY_CHUNK];
      long[] written = {0};
      write(head, chunk, written);
      Channels.writeRecords(rows, n, records -> write(records, chunk, written));
      if (pages > 0) {
        java.util.Arrays.fill(chunk, (byte) 0);
        for (long gap = dataStart - written[0]; gap > 0; ) {
          int len = (int) Math.min(gap, chunk.length);
          out.write(chunk, 0, len);
          gap -= len;
        }
        ByteBuffer buf = ByteBuffer.wrap(chunk);
        long total = pages * pageSize;
        for (long pos = 0; pos < total; ) {
          buf.clear().limit((int) Math.min(chunk.length, total - pos));
          Channels.readFully(channel, buf, pos);
          out.write(chunk, 0, buf.position());
          pos += buf.position();
        }
      }
      write(allocTable, chunk, written);
      out.flush();
    }
  }

  private void write(ByteBuffer src, byte[] chunk, long[] written) throws IOException {
    ByteBuffer b = src.duplicate();
    while (b.hasRemaining()) {
      int len = Math.min(b.remaining(), chunk.length);
      b.get(chunk, 0, len);
      out.write(chunk, 0, len);
      written[0] += len;
    }
  }

  @Override
  public void abort() throws IOException {
    try (channel; out) {
      Files.deleteIfExists(spool);
    }
  }

  @Override
  public String toString() {
    return "stream (spool " + spool + ")";
  }
}
