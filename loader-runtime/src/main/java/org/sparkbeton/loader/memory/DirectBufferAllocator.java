package org.sparkbeton.loader.memory;

import java.nio.ByteBuffer;

/**
 * Direct (off-heap) memory from {@link ByteBuffer#allocateDirect}, freed at once on release through
 * {@link BufferCleaner}; where that is unavailable the memory is left to the garbage collector. Counts
 * against {@code -XX:MaxDirectMemorySize}.
 */
public final class DirectBufferAllocator extends AbstractAllocator {
  private final boolean eager;

  public DirectBufferAllocator(String name) {
    this(name, Long.MAX_VALUE);
  }

  /** An allocator that refuses to hold more than {@code limit} bytes at once. */
  public DirectBufferAllocator(String name, long limit) {
    this(name, limit, true);
  }

  /**
   * As above; with {@code freeEagerly = false} released memory is left to the garbage collector, so a
   * stale {@code ByteBuffer} still held somewhere reads old bytes instead of freed memory (debug
   * mode). Accounting is the same either way.
   */
  public DirectBufferAllocator(String name, long limit, boolean freeEagerly) {
    super(name, limit);
    this.eager = freeEagerly;
  }

  /** Whether released memory is returned to the OS at once (otherwise at the next GC). */
  public static boolean freesEagerly() {
    return BufferCleaner.available();
  }

  @Override
  ByteBuffer obtain(int bytes) {
    return ByteBuffer.allocateDirect(bytes);
  }

  @Override
  void free(ByteBuffer memory) {
    if (eager) {
      BufferCleaner.free(memory);
    }
  }
}
