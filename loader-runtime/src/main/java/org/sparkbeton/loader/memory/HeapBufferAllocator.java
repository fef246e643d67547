package org.sparkbeton.loader.memory;

import java.nio.ByteBuffer;

/** Accounted heap buffers: same contract as {@link DirectBufferAllocator}, for tests and small tools. */
public final class HeapBufferAllocator extends AbstractAllocator {
  public HeapBufferAllocator(String name) {
    this(name, Long.MAX_VALUE);
  }

  public HeapBufferAllocator(String name, long limit) {
    super(name, limit);
  }

  @Override
  ByteBuffer obtain(int bytes) {
    return ByteBuffer.allocate(bytes);
  }

  @Override
  void free(ByteBuffer memory) {
    // the GC reclaims it
  }
}
