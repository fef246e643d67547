package org.sparkbeton.format.write;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A local file written in place: pages land at {@code reservedStart + k * page} as soon as they are
 * full; finish writes the head, the records and the table around them.
 */
final class InPlaceTarget implements BetonWriter.Target {
  private static final int MOVE_CHUNK = 8 << 20;

  private final Path path;
  private final FileChannel channel;
  private final long pageSize;
  private final long reservedStart;

  /** @param reservedStart where page 0 goes: page-aligned, after room for the expected records */
  InPlaceTarget(Path path, FileChannel channel, long pageSize, long reservedStart) {
    this.path = path;
    this.channel = channel;
    this.pageSize = pageSize;
    this.reservedStart = reservedStart;
  }

  @Override
  public void writePage(long pageIndex, ByteBuffer page) throws IOException {
    Channels.writeFully(channel, page, reservedStart + pageIndex * pageSize);
  }

  @Override
  public long dataStart(long minimal, long pages) throws IOException {
    if (minimal <= reservedStart) {
      return reservedStart;
    }
    // More records than the reservation: move every page up by whole pages, last page first.
    long delta = minimal - reservedStart;
    ByteBuffer buf = ByteBuffer.allocateDirect(MOVE_CHUNK);
    long end = reservedStart + pages * pageSize;
    for (long pos = end; pos > reservedStart; ) {
      int len = (int) Math.min(MOVE_CHUNK, pos - reservedStart);
      pos -= len;
      buf.clear().limit(len);
      Channels.readFully(channel, buf, pos);
      buf.flip();
      Channels.writeFully(channel, buf, pos + delta);
    }
    // The old page area below `minimal` becomes part of the zero gap / metadata area.
    ByteBuffer zeros = ByteBuffer.allocateDirect(MOVE_CHUNK);
    for (long pos = reservedStart; pos < minimal; pos += MOVE_CHUNK) {
      zeros.clear().limit((int) Math.min(MOVE_CHUNK, minimal - pos));
      Channels.writeFully(channel, zeros, pos);
    }
    return minimal;
  }

  @Override
  public void complete(ByteBuffer head, MetadataRows rows, long n, int recordSize, long dataStart, long pages,
      ByteBuffer allocTable) throws IOException {
    try (channel) {
      Channels.writeFully(channel, head, 0);
      long[] pos = {head.remaining()};
      Channels.writeRecords(rows, n, records -> {
        Channels.writeFully(channel, records, pos[0]);
        pos[0] += records.remaining();
      });
      long tableAt = pages == 0 ? pos[0] : dataStart + pages * pageSize;
      channel.truncate(tableAt);
      Channels.writeFully(channel, allocTable, tableAt);
      channel.force(true);
    }
  }

  @Override
  public void abort() throws IOException {
    channel.close();
    Files.deleteIfExists(path);
  }

  @Override
  public String toString() {
    return path.toString();
  }
}
