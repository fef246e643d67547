package org.sparkbeton.loader.memory;

class HeapBufferAllocatorTest extends BufferAllocatorContract {
  @Override
  BufferAllocator create(String name, long limit) {
    return new HeapBufferAllocator(name, limit);
  }
}
