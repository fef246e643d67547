package org.sparkbeton.spark.write;

import java.io.InterruptedIOException;

/**
 * The direct memory that {@link ImageReadAhead}'s slots may hold for image files beyond their first
 * {@link ImageFileReader#INITIAL_BYTES} each, for one task: a slot whose file needs more waits until other slots have
 * given theirs back, unless its row is the next the task encodes, which never waits (without read-ahead that one file
 * is held anyway). So a task holds at most the limit, plus that one file, plus the slots' first buffers, whatever the
 * files' sizes: 16 camera photos of 12 MB, or 16 scans of 300 MB, would otherwise all be held at once. Slots are
 * taken in turn, 0, 1, ... depth - 1, 0, ..., as the writer's ring of waiting rows takes them.
 */
final class ReadAheadBudget {
  private final long limit;
  private final int depth;
  private long held;
  private long peak;
  private int next; // the slot whose file the task takes next: it may always grow

  ReadAheadBudget(long limit, int depth) {
    this.limit = limit;
    this.depth = depth;
  }

  /** The budget seen from slot {@code slot}'s reader. */
  ImageFileReader.Budget slot(int slot) {
    return new ImageFileReader.Budget() {
      @Override
      public void reserve(long bytes) throws InterruptedIOException {
        ReadAheadBudget.this.reserve(slot, bytes);
      }

      @Override
      public void release(long bytes) {
        ReadAheadBudget.this.release(bytes);
      }

      @Override
      public long keep() {
        return limit / depth;
      }
    };
  }

  private synchronized void reserve(int slot, long bytes) throws InterruptedIOException {
    while (slot != next && held + bytes > limit) {
      try {
        wait();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while waiting for memory to read an image file ahead");
      }
    }
    held += bytes;
    peak = Math.max(peak, held);
  }

  private synchronized void release(long bytes) {
    held -= bytes;
    notifyAll();
  }

  /** Slot {@code slot}'s row was encoded: the slot after it is the next the task takes. */
  synchronized void taken(int slot) {
    next = (slot + 1) % depth;
    notifyAll();
  }

  /** The most bytes held at once so far. */
  synchronized long peak() {
    return peak;
  }

  /** The bytes held now. */
  synchronized long held() {
    return held;
  }
}
