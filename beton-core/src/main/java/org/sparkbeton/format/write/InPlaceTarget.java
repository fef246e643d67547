package org.sparkbeton.format.write;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A local file written in place: pages land at {@code pagesAt + k * page} as soon as they are full
 * ({@code pagesAt} starts at the page-aligned end of the reserved metadata room); finish writes the
 * head and the records in front of them, moves the data where the {@link Placement} puts it, and
 * appends the table.
 *
 * <p>Moving in place is safe because every run moves down or stays: an FFCV placement keeps the
 * pages where they are (after {@link #dataStart} has moved them up past the records, if they
 * outgrew their room); a COMPACT placement starts at the metadata end, at or below {@code pagesAt},
 * and packs the blocks in their page-area order with next fit, so by induction each block lands at
 * or below where it already is (next fit returns the lowest non-crossing offset at or after its
 * argument, is monotone, and the block's current offset is itself a non-crossing offset at or after
 * the previous block's current end). Runs are moved in ascending order, each chunk by chunk from its
 * start, so no byte is overwritten before it is read.
 */
final class InPlaceTarget implements BetonWriter.Target {
  private static final int MOVE_CHUNK = 8 << 20;
  private static final int ZERO_CHUNK = 1 << 20;

  private final Path path;
  private final FileChannel channel;
  private final long pageSize;
  private long pagesAt;
  private ByteBuffer zeros;

  /** @param reservedStart where page 0 goes: page-aligned, after room for the expected records */
  InPlaceTarget(Path path, FileChannel channel, long pageSize, long reservedStart) {
    this.path = path;
    this.channel = channel;
    this.pageSize = pageSize;
    this.pagesAt = reservedStart;
  }

  @Override
  public void writePage(long pageIndex, ByteBuffer page, int used) throws IOException {
    Channels.writeFully(channel, page, pagesAt + pageIndex * pageSize);
  }

  @Override
  public long dataStart(long minimal, long pages) throws IOException {
    if (minimal <= pagesAt) {
      return pagesAt;
    }
    // More records than the reservation: move every page up by whole pages, last page first.
    long delta = minimal - pagesAt;
    ByteBuffer buf = ByteBuffer.allocateDirect(MOVE_CHUNK);
    long end = pagesAt + pages * pageSize;
    for (long pos = end; pos > pagesAt; ) {
      int len = (int) Math.min(MOVE_CHUNK, pos - pagesAt);
      pos -= len;
      buf.clear().limit(len);
      Channels.readFully(channel, buf, pos);
      buf.flip();
      Channels.writeFully(channel, buf, pos + delta);
    }
    // The old page area below `minimal` becomes part of the zero gap / metadata area.
    zero(pagesAt, minimal);
    pagesAt = minimal;
    return minimal;
  }

  @Override
  public void complete(ByteBuffer head, MetadataRows rows, long n, Placement placement, ByteBuffer allocTable)
      throws IOException {
    try (channel) {
      Channels.writeFully(channel, head, 0);
      long[] pos = {head.remaining()};
      Channels.writeRecords(rows, n, records -> {
        Channels.writeFully(channel, records, pos[0]);
        pos[0] += records.remaining();
      });
      relocate(placement);
      long tableAt = placement.dataEnd();
      channel.truncate(tableAt);
      Channels.writeFully(channel, allocTable, tableAt);
      channel.force(true);
    }
  }

  /** Moves the runs down to their places and zeroes what lies between them (see the class comment). */
  private void relocate(Placement placement) throws IOException {
    ByteBuffer buf = null;
    long end = 0;
    for (int run = 0; run < placement.runs(); run++) {
      long from = pagesAt + placement.from(run);
      long to = placement.to(run);
      long length = placement.length(run);
      if (to > from || to < end) {
        throw new IllegalStateException("Cannot move data run [" + from + ", +" + length + ") to " + to + " in place");
      }
      // below pagesAt the file holds only the head, the records and zeros never written over
      zero(Math.max(end, pagesAt), to);
      if (to != from) {
        buf = buf == null ? ByteBuffer.allocateDirect(MOVE_CHUNK) : buf;
        for (long done = 0; done < length; ) {
          buf.clear().limit((int) Math.min(MOVE_CHUNK, length - done));
          Channels.readFully(channel, buf, from + done);
          buf.flip();
          Channels.writeFully(channel, buf, to + done);
          done += buf.limit();
        }
      }
      end = to + length;
    }
  }

  private void zero(long from, long to) throws IOException {
    if (from >= to) {
      return;
    }
    if (zeros == null) {
      zeros = ByteBuffer.allocateDirect(ZERO_CHUNK);
    }
    for (long pos = from; pos < to; pos += zeros.capacity()) {
      zeros.clear().limit((int) Math.min(zeros.capacity(), to - pos));
      Channels.writeFully(channel, zeros, pos);
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
