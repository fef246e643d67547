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
 * An append-only output (HDFS, S3A): the page area is spooled, its first {@code memoryPages} pages in memory (each
 * only up to the bytes its samples use) and the rest in a local file (page {@code k} at
 * {@code (k - memoryPages) * page}, the file created when the first page goes there); finish streams head, records,
 * the data where the {@link Placement} puts it (zeros between) and the table to the output in one front-to-back
 * pass. A shard that fits in memory costs no spool file: no write of its pages to the page cache, no read back, no
 * deletion of a file full of dirty pages (together about 2% of a Spark write task's time in a profile).
 */
final class StreamTarget implements BetonWriter.Target {
  private static final int COPY_CHUNK = 1 << 20;

  private final OutputStream out;
  private final Path spoolDir;
  private final long pageSize;
  /** The first pages of the page area, each as long as its used bytes (null: not written, all zeros). */
  private final byte[][] memory;
  private Path spool;
  private FileChannel channel;

  StreamTarget(OutputStream out, Path spoolDir, long pageSize, int memoryPages) {
    this.out = out;
    this.spoolDir = spoolDir;
    this.pageSize = pageSize;
    this.memory = new byte[memoryPages][];
  }

  @Override
  public void writePage(long pageIndex, ByteBuffer page, int used) throws IOException {
    if (pageIndex < memory.length) {
      byte[] copy = new byte[used];
      page.get(0, copy, 0, used);
      memory[(int) pageIndex] = copy;
      return;
    }
    if (channel == null) {
      spool = Files.createTempFile(spoolDir, "beton-pages-", ".spool");
      channel = FileChannel.open(spool, StandardOpenOption.WRITE, StandardOpenOption.READ,
          StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.DELETE_ON_CLOSE);
    }
    Channels.writeFully(channel, page, (pageIndex - memory.length) * pageSize);
  }

  @Override
  public long dataStart(long minimal, long pages) {
    return minimal;
  }

  @Override
  public void complete(ByteBuffer head, MetadataRows rows, long n, Placement placement, ByteBuffer allocTable)
      throws IOException {
    FileChannel spooled = channel;
    try (spooled; out) {
      byte[] chunk = new byte[COPY_CHUNK];
      long[] written = {0};
      write(head, chunk, written);
      Channels.writeRecords(rows, n, records -> write(records, chunk, written));
      for (int run = 0; run < placement.runs(); run++) {
        writeZeros(placement.to(run) - written[0], chunk, written);
        long from = placement.from(run);
        long end = from + placement.length(run);
        // page by page: from memory, or from the spool file
        for (long pos = from; pos < end; ) {
          long page = pos / pageSize;
          int within = (int) (pos - page * pageSize);
          int length = (int) Math.min(end - pos, pageSize - within);
          if (page < memory.length) {
            copyFromMemory(memory[(int) page], within, length, chunk, written);
          } else {
            copyFromSpool((page - memory.length) * pageSize + within, length, chunk, written);
          }
          pos += length;
        }
      }
      write(allocTable, chunk, written);
      out.flush();
    } finally {
      Arrays.fill(memory, null);
    }
  }

  /** {@code length} bytes of a page held in memory from {@code within} on: its used bytes, then zeros. */
  private void copyFromMemory(byte[] page, int within, int length, byte[] chunk, long[] written) throws IOException {
    int used = page == null ? 0 : Math.max(0, Math.min(length, page.length - within));
    if (used > 0) {
      out.write(page, within, used);
      written[0] += used;
    }
    writeZeros(length - used, chunk, written);
  }

  private void copyFromSpool(long at, int length, byte[] chunk, long[] written) throws IOException {
    ByteBuffer buf = ByteBuffer.wrap(chunk);
    for (long pos = 0; pos < length; ) {
      buf.clear().limit((int) Math.min(chunk.length, length - pos));
      Channels.readFully(channel, buf, at + pos);
      out.write(chunk, 0, buf.position());
      pos += buf.position();
    }
    written[0] += length;
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
    Arrays.fill(memory, null);
    FileChannel spooled = channel;
    try (spooled; out) {
      if (spool != null) {
        Files.deleteIfExists(spool);
      }
    }
  }

  @Override
  public String toString() {
    return memory.length + " page(s) in memory, then "
        + (spool == null ? "a spool file in " + spoolDir : "spool " + spool);
  }
}
