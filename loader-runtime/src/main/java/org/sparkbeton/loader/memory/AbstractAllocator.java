package org.sparkbeton.loader.memory;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/** Accounting shared by allocator implementations: limit, outstanding set, peak, leak report. */
abstract class AbstractAllocator implements BufferAllocator {
  private final String name;
  private final long limit;
  private final Set<OffHeapBuffer> live = Collections.newSetFromMap(new IdentityHashMap<>());
  private long allocated;
  private long peak;
  private boolean closed;

  AbstractAllocator(String name, long limit) {
    if (limit < 0) {
      throw new IllegalArgumentException("Allocator limit must be >= 0 bytes, got " + limit);
    }
    this.name = name;
    this.limit = limit;
  }

  /** Memory for one buffer; zero-filled. */
  abstract ByteBuffer obtain(int bytes);

  /** Returns the memory of a released buffer. */
  abstract void free(ByteBuffer memory);

  @Override
  public OffHeapBuffer allocate(long bytes, String purpose) {
    if (bytes < 0 || bytes > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("Cannot allocate " + bytes + " bytes for '" + purpose
          + "': expected 0 to " + Integer.MAX_VALUE);
    }
    synchronized (this) {
      if (closed) {
        throw new IllegalStateException("Allocator " + name + " is closed; cannot allocate '" + purpose + "'");
      }
      if (bytes > limit - allocated) {
        throw new IllegalStateException("Allocating " + bytes + " bytes for '" + purpose + "' would exceed the "
            + limit + "-byte limit of allocator " + name + " (" + allocated + " bytes in use)");
      }
      allocated += bytes;
      peak = Math.max(peak, allocated);
    }
    ByteBuffer memory;
    try {
      memory = obtain((int) bytes).order(ByteOrder.LITTLE_ENDIAN);
    } catch (OutOfMemoryError e) {
      synchronized (this) {
        allocated -= bytes;
      }
      throw e;
    }
    OffHeapBuffer buffer = new OffHeapBuffer(this, memory, purpose);
    synchronized (this) {
      live.add(buffer);
    }
    return buffer;
  }

  void release(OffHeapBuffer buffer) {
    synchronized (this) {
      if (!live.remove(buffer)) {
        return; // freed by close() already
      }
      allocated -= buffer.size();
    }
    free(buffer.raw());
  }

  @Override
  public synchronized long allocatedBytes() {
    return allocated;
  }

  @Override
  public synchronized long peakBytes() {
    return peak;
  }

  @Override
  public synchronized int outstanding() {
    return live.size();
  }

  @Override
  public void close() {
    List<OffHeapBuffer> leaked;
    long leakedBytes;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      leaked = new ArrayList<>(live);
      leakedBytes = allocated;
    }
    for (OffHeapBuffer b : leaked) {
      b.close();
    }
    if (!leaked.isEmpty()) {
      throw new IllegalStateException("Allocator " + name + " closed with " + leaked.size() + " outstanding buffer(s), "
          + leakedBytes + " bytes: " + leaked);
    }
  }
}
