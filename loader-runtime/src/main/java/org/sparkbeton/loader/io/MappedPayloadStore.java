package org.sparkbeton.loader.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.sparkbeton.loader.memory.BufferCleaner;

/**
 * Cache mode OS: the file mapped read-only in 1 GiB segments, mapped on first touch, so files of any
 * size work and the OS page cache (shared by every process) does the caching. A payload never spans
 * a page and pages are at most 1 GiB and page-aligned, so a payload never spans two segments unless
 * the page size is over 1 GiB; that case is copied in two parts.
 */
public final class MappedPayloadStore implements PayloadStore {
  private static final int SHIFT = 30;
  private static final long SEGMENT = 1L << SHIFT;

  private final FileChannel channel;
  private final long length;
  private final AtomicReferenceArray<ByteBuffer> segments;

  public MappedPayloadStore(Path file) throws IOException {
    this.channel = FileChannel.open(file, StandardOpenOption.READ);
    this.length = channel.size();
    this.segments = new AtomicReferenceArray<>((int) ((length + SEGMENT - 1) >>> SHIFT));
  }

  @Override
  public void copy(long position, int len, ByteBuffer dst, int dstOffset) {
    while (len > 0) {
      int index = (int) (position >>> SHIFT);
      ByteBuffer seg = segment(index);
      int at = (int) (position & (SEGMENT - 1));
      int n = Math.min(len, seg.capacity() - at);
      dst.put(dstOffset, seg, at, n);
      position += n;
      dstOffset += n;
      len -= n;
    }
  }

  @Override
  public boolean view(long position, int len, PayloadView view) {
    int index = (int) (position >>> SHIFT);
    int at = (int) (position & (SEGMENT - 1));
    ByteBuffer seg = segment(index);
    if (at + (long) len > seg.capacity()) {
      return false;
    }
    view.set(seg, at);
    return true;
  }

  private ByteBuffer segment(int index) {
    ByteBuffer seg = segments.get(index);
    if (seg == null) {
      long start = (long) index << SHIFT;
      try {
        seg = channel.map(FileChannel.MapMode.READ_ONLY, start, Math.min(SEGMENT, length - start));
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot map bytes " + start + ".. of the dataset file", e);
      }
      if (!segments.compareAndSet(index, null, seg)) {
        seg = segments.get(index);
      }
    }
    return seg;
  }

  @Override
  public void close() {
    try {
      channel.close(); // mapped segments stay valid until collected
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Closes and unmaps the segments at once instead of at the next GC, so that a deleted file leaves the
   * disk now (staged shards of a remote dataset). The caller guarantees that no thread reads this store
   * again: a read of an unmapped segment can crash the JVM.
   */
  public void closeAndUnmap() {
    close();
    for (int i = 0; i < segments.length(); i++) {
      ByteBuffer seg = segments.getAndSet(i, null);
      if (seg != null) {
        BufferCleaner.clean(seg);
      }
    }
  }
}
