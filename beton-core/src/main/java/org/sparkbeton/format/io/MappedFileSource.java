package org.sparkbeton.format.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A local file mapped read-only in 1 GiB segments, mapped lazily on first touch, so files of any
 * size open in constant time (a single {@link MappedByteBuffer} stops at 2 GiB). Reads inside one
 * segment are zero-copy views; the rare read across a segment boundary is copied. Relies on the OS
 * page cache, shared by every process reading the file.
 */
public final class MappedFileSource implements BetonSource {
  static final int SEGMENT_SHIFT = 30;
  private static final long SEGMENT_SIZE = 1L << SEGMENT_SHIFT;

  private final String name;
  private final FileChannel channel;
  private final long length;
  private final AtomicReferenceArray<ByteBuffer> segments;
  private final AtomicLong bytesRead = new AtomicLong();

  public MappedFileSource(Path path) throws IOException {
    this.name = path.toString();
    this.channel = FileChannel.open(path, StandardOpenOption.READ);
    this.length = channel.size();
    this.segments = new AtomicReferenceArray<>((int) ((length + SEGMENT_SIZE - 1) >>> SEGMENT_SHIFT));
  }

  @Override public String name() { return name; }
  @Override public long length() { return length; }
  @Override public long bytesRead() { return bytesRead.get(); }

  @Override
  public ByteBuffer read(long position, int len) throws IOException {
    BetonSource.requireInside(name, position, len, length);
    bytesRead.addAndGet(len);
    int first = (int) (position >>> SEGMENT_SHIFT);
    int last = (int) ((position + Math.max(len, 1) - 1) >>> SEGMENT_SHIFT);
    if (first == last || len == 0) {
      ByteBuffer seg = segment(first);
      int at = (int) (position - ((long) first << SEGMENT_SHIFT));
      return seg.slice(at, len).order(ByteOrder.LITTLE_ENDIAN);
    }
    ByteBuffer copy = ByteBuffer.allocate(len);
    long pos = position;
    while (copy.hasRemaining()) {
      int index = (int) (pos >>> SEGMENT_SHIFT);
      ByteBuffer seg = segment(index);
      int at = (int) (pos - ((long) index << SEGMENT_SHIFT));
      int n = Math.min(copy.remaining(), seg.capacity() - at);
      copy.put(seg.slice(at, n));
      pos += n;
    }
    return copy.flip().asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
  }

  private ByteBuffer segment(int index) throws IOException {
    ByteBuffer seg = segments.get(index);
    if (seg == null) {
      long start = (long) index << SEGMENT_SHIFT;
      long size = Math.min(SEGMENT_SIZE, length - start);
      seg = channel.map(FileChannel.MapMode.READ_ONLY, start, size);
      if (!segments.compareAndSet(index, null, seg)) {
        seg = segments.get(index);
      }
    }
    return seg;
  }

  @Override
  public void close() throws IOException {
    // Mapped segments are released by the GC; closing the channel does not invalidate them.
    channel.close();
  }
}
