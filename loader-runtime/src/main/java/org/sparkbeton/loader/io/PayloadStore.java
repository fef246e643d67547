package org.sparkbeton.loader.io;

import java.io.Closeable;
import java.nio.ByteBuffer;

/**
 * Where the loader reads payload bytes from: the memory-mapped file (cache mode OS) or, later, the
 * loader's own page cache (cache mode PROCESS). Callers have checked the range against the data
 * region. Both methods run on the per-sample hot path and allocate nothing.
 */
public interface PayloadStore extends Closeable {

  /** Copies {@code length} bytes at file offset {@code position} into {@code dst} at {@code dstOffset}. */
  void copy(long position, int length, ByteBuffer dst, int dstOffset);

  /**
   * Points {@code view} at the bytes {@code [position, position + length)} without copying when one
   * buffer holds them all, and returns true; returns false otherwise (the caller then copies).
   */
  boolean view(long position, int length, PayloadView view);

  /**
   * Throws {@link java.io.UncheckedIOException} when the store's file is no longer what was opened (shorter: truncated
   * or rewritten in place), before anything reads pages that are gone; stores that hold their bytes do nothing.
   */
  default void requireUnchanged() {}

  @Override
  default void close() {}
}
