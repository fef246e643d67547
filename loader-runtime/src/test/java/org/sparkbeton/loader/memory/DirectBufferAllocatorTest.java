package org.sparkbeton.loader.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;
import org.sparkbeton.codec.nativeimpl.HugePageMemory;

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

  @Test
  void largeBuffersLiveInHugePageMappingsUntilReleased() {
    assumeTrue(HugePageMemory.isAvailable(), "libbetoncodec is not loaded");
    int before = HugePageMemory.outstanding();
    try (DirectBufferAllocator a = new DirectBufferAllocator("h", Long.MAX_VALUE)) {
      assertThat(a.usesHugePages()).isTrue();
      OffHeapBuffer large = a.allocate(DirectBufferAllocator.HUGE_PAGE_MIN_BYTES, "slot");
      OffHeapBuffer small = a.allocate(DirectBufferAllocator.HUGE_PAGE_MIN_BYTES - 1, "scratch");
      assertThat(HugePageMemory.owns(large.buffer())).isTrue();
      assertThat(HugePageMemory.owns(small.buffer())).isFalse();
      assertThat(large.buffer().isDirect()).isTrue();
      assertThat(large.buffer().getLong(DirectBufferAllocator.HUGE_PAGE_MIN_BYTES - 8)).isZero();
      assertThat(a.allocatedBytes()).isEqualTo(2L * DirectBufferAllocator.HUGE_PAGE_MIN_BYTES - 1);
      assertThat(HugePageMemory.outstanding()).isEqualTo(before + 1);
      large.close();
      assertThat(HugePageMemory.outstanding()).isEqualTo(before);
      small.close();
    }
  }

  @Test
  void aLeakedHugePageBufferIsUnmappedByClose() {
    assumeTrue(HugePageMemory.isAvailable(), "libbetoncodec is not loaded");
    int before = HugePageMemory.outstanding();
    DirectBufferAllocator a = new DirectBufferAllocator("leaky", Long.MAX_VALUE);
    a.allocate(DirectBufferAllocator.HUGE_PAGE_MIN_BYTES, "forgotten slot");
    assertThat(HugePageMemory.outstanding()).isEqualTo(before + 1);
    org.assertj.core.api.Assertions.assertThatThrownBy(a::close).hasMessageContaining("forgotten slot");
    assertThat(HugePageMemory.outstanding()).isEqualTo(before);
  }

  @Test
  void hugePagesOffOrInDebugModeGiveOrdinaryDirectBuffers() {
    try (DirectBufferAllocator off = new DirectBufferAllocator("off", Long.MAX_VALUE, true, false);
        DirectBufferAllocator debug = new DirectBufferAllocator("debug", Long.MAX_VALUE, false, true)) {
      assertThat(off.usesHugePages()).isFalse();
      assertThat(debug.usesHugePages()).isFalse();
      try (OffHeapBuffer b = off.allocate(DirectBufferAllocator.HUGE_PAGE_MIN_BYTES, "slot");
          OffHeapBuffer d = debug.allocate(DirectBufferAllocator.HUGE_PAGE_MIN_BYTES, "slot")) {
        assertThat(HugePageMemory.owns(b.buffer())).isFalse();
        assertThat(HugePageMemory.owns(d.buffer())).isFalse();
        assertThat(b.buffer().isDirect()).isTrue();
      }
    }
  }
}
