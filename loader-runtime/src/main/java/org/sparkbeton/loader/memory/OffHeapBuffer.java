package org.sparkbeton.loader.memory;

import java.nio.ByteBuffer;

/**
 * One accounted off-heap allocation. {@link #buffer()} is its memory (little-endian, position 0,
 * capacity {@link #size()}); after {@link #close()} the memory may be freed at once, so neither the
 * buffer nor any slice of it may be touched again. Close is idempotent.
 */
public final class OffHeapBuffer implements AutoCloseable {
  private final AbstractAllocator owner;
  private final ByteBuffer buffer;
  private final String purpose;
  private volatile boolean closed;

  OffHeapBuffer(AbstractAllocator owner, ByteBuffer buffer, String purpose) {
    this.owner = owner;
    this.buffer = buffer;
    this.purpose = purpose;
  }

  /** The memory. Use absolute gets and puts, or {@code duplicate()}/{@code slice()} per thread. */
  public ByteBuffer buffer() {
    if (closed) {
      throw new IllegalStateException("Off-heap buffer '" + purpose + "' (" + size() + " bytes) was already released");
    }
    return buffer;
  }

  public long size() {
    return buffer.capacity();
  }

  public String purpose() {
    return purpose;
  }

  public boolean isClosed() {
    return closed;
  }

  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    owner.release(this);
  }

  ByteBuffer raw() {
    return buffer;
  }

  @Override
  public String toString() {
    return "'" + purpose + "' (" + size() + " bytes)";
  }
}
