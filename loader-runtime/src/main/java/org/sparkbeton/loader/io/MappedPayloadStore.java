package org.sparkbeton.loader.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.sparkbeton.codec.memory.BufferCleaner;
import org.sparkbeton.format.io.BetonSource;

/**
 * One shard file mapped read-only in 1 GiB segments, mapped on first touch, so files of any size work and the OS
 * page cache (shared by every process) does the caching. It serves the shard's metadata to its reader (as a
 * {@link BetonSource}) and, in cache mode OS, its payloads (as a {@link PayloadStore}), checking each data page
 * against the manifest's checksums on the first payload read from it when given a {@link PageVerifier}. A payload
 * never spans a page and pages are at most 1 GiB and page-aligned, so a payload never spans two segments unless
 * the page size is over 1 GiB; that case is copied in two parts.
 *
 * <p>{@link #close()} unmaps every segment at once ({@link BufferCleaner}): a closed loader keeps no mapping and a
 * deleted shard's disk space comes back. Nothing may read from the store, or from a buffer it handed out, after
 * it is closed; the loader closes it only once its workers have stopped. With {@code unmapOnClose} false (the
 * loader's debug mode) the mappings are left to the garbage collector instead.
 */
public final class MappedPayloadStore implements PayloadStore, BetonSource {
  private static final int SHIFT = 30;
  private static final long SEGMENT = 1L << SHIFT;

  private final String name;
  private final FileChannel channel;
  private final long length;
  private final AtomicReferenceArray<ByteBuffer> segments;
  private final PageVerifier verifier;
  private final boolean unmapOnClose;
  private final AtomicLong bytesRead = new AtomicLong();
  private volatile boolean closed;

  /** The file, unchecked, unmapped on close. */
  public MappedPayloadStore(Path file) throws IOException {
    this(file, null, true);
  }

  /**
   * @param verifier checks payload pages as they are first read; null reads them unchecked
   * @param unmapOnClose whether {@link #close()} unmaps at once (else the GC does)
   */
  public MappedPayloadStore(Path file, PageVerifier verifier, boolean unmapOnClose) throws IOException {
    this.name = file.toString();
    this.channel = FileChannel.open(file, StandardOpenOption.READ);
    this.length = channel.size();
    this.segments = new AtomicReferenceArray<>((int) ((length + SEGMENT - 1) >>> SHIFT));
    this.verifier = verifier;
    this.unmapOnClose = unmapOnClose;
  }

  @Override
  public void copy(long position, int len, ByteBuffer dst, int dstOffset) {
    while (len > 0) {
      int index = (int) (position >>> SHIFT);
      ByteBuffer seg = segment(index);
      int at = (int) (position & (SEGMENT - 1));
      int n = Math.min(len, seg.capacity() - at);
      if (verifier != null) {
        verifier.require(position, n, seg, (long) index << SHIFT);
      }
      dst.put(dstOffset, seg, at, n);
      position += n;
      dstOffset += n;
      len -= n;
    }
  }

  /**
   * A mapped file cut shorter under its mapping faults where it is read: in Java code an {@link InternalError}, in
   * the native JPEG codec a SIGBUS that kills the process. The loader asks at each epoch's start (one fstat).
   */
  @Override
  public void requireUnchanged() {
    long now;
    try {
      now = channel.size();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot check the size of " + name + ": " + e.getMessage(), e);
    }
    if (now < length) {
      throw new UncheckedIOException(new IOException(name + " is now " + now + " bytes, not the " + length
          + " it had when the loader opened it: it was truncated or rewritten in place, and the loader's mapping"
          + " of it can no longer be read. Replace a dataset by writing new files (as writes and compactions do),"
          + " then build the loader again"));
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
    if (verifier != null) {
      verifier.require(position, len, seg, (long) index << SHIFT);
    }
    view.set(seg, at);
    return true;
  }

  // ---------------------------------------------------------------- BetonSource, for the shard's reader

  @Override public String name() { return name; }
  @Override public long length() { return length; }
  @Override public long bytesRead() { return bytesRead.get(); }

  /** A view of the bytes (a copy when they span two segments); no page check: the reader has its own. */
  @Override
  public ByteBuffer read(long position, int len) throws IOException {
    BetonSource.requireInside(name, position, len, length);
    bytesRead.addAndGet(len);
    int index = (int) (position >>> SHIFT);
    int at = (int) (position & (SEGMENT - 1));
    if (len == 0 || at + (long) len <= SEGMENT) {
      return segment(index).slice(at, len).order(ByteOrder.LITTLE_ENDIAN);
    }
    ByteBuffer copy = ByteBuffer.allocate(len);
    for (long p = position; copy.hasRemaining(); ) {
      int i = (int) (p >>> SHIFT);
      ByteBuffer seg = segment(i);
      int from = (int) (p & (SEGMENT - 1));
      int n = Math.min(copy.remaining(), seg.capacity() - from);
      copy.put(seg.slice(from, n));
      p += n;
    }
    return copy.flip().asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
  }

  private ByteBuffer segment(int index) {
    ByteBuffer seg = segments.get(index);
    if (seg == null) {
      if (closed) {
        throw new IllegalStateException(name + " is closed");
      }
      long start = (long) index << SHIFT;
      try {
        seg = channel.map(FileChannel.MapMode.READ_ONLY, start, Math.min(SEGMENT, length - start));
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot map bytes " + start + ".. of " + name, e);
      }
      if (!segments.compareAndSet(index, null, seg)) {
        unmap(seg);
        seg = segments.get(index);
      }
    }
    return seg;
  }

  /** Segments mapped now (for tests). */
  int mappedSegments() {
    int n = 0;
    for (int i = 0; i < segments.length(); i++) {
      n += segments.get(i) == null ? 0 : 1;
    }
    return n;
  }

  private void unmap(ByteBuffer segment) {
    if (unmapOnClose) {
      BufferCleaner.free(segment);
    }
  }

  /** Unmaps every segment and closes the file; idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (int i = 0; i < segments.length(); i++) {
      ByteBuffer seg = segments.getAndSet(i, null);
      if (seg != null) {
        unmap(seg);
      }
    }
    try {
      channel.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
