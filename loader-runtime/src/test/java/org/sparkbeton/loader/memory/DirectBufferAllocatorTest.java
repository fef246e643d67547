package org.sparkbeton.loader.memory;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DirectBufferAllocatorTest extends BufferAllocatorContract {
  @Override
  BufferAllocator create(String name, long limit) {
    return new DirectBufferAllocator(name, limit);
  }

  @Test
  void buffersAreDirectAndFreedEagerly() {
    assertThat(DirectBufferAllocator.freesEagerly()).isTrue();
    try (BufferAllocator a = create("d", Long.MAX_VALUE); OffHeapBuffer b = a.allocate(16, "d")) {
      assertThat(b.buffer().isDirect()).isTrue();
    }
  }
}
