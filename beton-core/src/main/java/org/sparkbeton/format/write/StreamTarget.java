package org.sparkbeton.format.write;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * An append-only output (HDFS, S3A): pages are spooled to a local file at {@code k * page} (the page
 * area); finish streams head, records, the data where the {@link Placement} puts it (zeros between)
 * and the table to the output in one front-to-back pass.
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
  public void complete(ByteBuffer head, MetadataRows rows, long n, Placement placement, ByteBuffer allocTable)
      throws IOException {
    try (channel; out) {
      byte[] chunk = new byte[COPY_CHUNK];
      long[] written = {0};
      write(head, chunk, written);
      Channels.writeRecords(rows, n, records -> write(records, chunk, written));
      ByteBuffer buf = ByteBuffer.wrap(chunk);
      for (int run = 0; run < placement.runs(); run++) {
        writeZeros(placement.to(run) - written[0], chunk, written);
        long from = placement.from(run);
        long length = placement.length(run);
        for (long pos = 0; pos < length; ) {
          buf.clear().limit((int) Math.min(chunk.length, length - pos));
          Channels.readFully(channel, buf, from + pos);
          out.write(chunk, 0, buf.position());
          pos += buf.position();
        }
        written[0] += length;
      }
      write(allocTable, chunk, written);
      out.flush();
    }
  }

  private void writeZeros(long count, byte[] chunk, long[] written) throws IOException {
    if (count < 0) {
      throw new IllegalStateException("Data run overlaps what was written before it: " + count + " bytes");
    }
    if (count == 0) {
      return;
    }
    Arrays.fill(chunk, (byte) 0);
    for (long left = count; left > 0; ) {
      int len = (int) Math.min(left, chunk.length);
      out.write(chunk, 0, len);
      left -= len;
    }
    written[0] += count;
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
