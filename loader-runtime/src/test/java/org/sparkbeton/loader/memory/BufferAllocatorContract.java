package org.sparkbeton.loader.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/** What every allocator must do; one subclass per implementation. */
abstract class BufferAllocatorContract {
  abstract BufferAllocator create(String name, long limit);

  @Test
  void accountsAllocationsAndReleases() {
    try (BufferAllocator a = create("t", Long.MAX_VALUE)) {
      OffHeapBuffer x = a.allocate(1000, "x");
      OffHeapBuffer y = a.allocate(24, "y");
      assertThat(a.allocatedBytes()).isEqualTo(1024);
      assertThat(a.outstanding()).isEqualTo(2);
      x.close();
      x.close(); // idempotent
      assertThat(a.allocatedBytes()).isEqualTo(24);
      assertThat(a.peakBytes()).isEqualTo(1024);
      y.close();
      assertThat(a.outstanding()).isZero();
    }
  }

  @Test
  void buffersAreZeroedLittleEndianAndSized() {
    try (BufferAllocator a = create("t", Long.MAX_VALUE); OffHeapBuffer b = a.allocate(64, "b")) {
      assertThat(b.buffer().capacity()).isEqualTo(64);
      assertThat(b.buffer().order()).isEqualTo(ByteOrder.LITTLE_ENDIAN);
      for (int i = 0; i < 64; i++) {
        assertThat(b.buffer().get(i)).isZero();
      }
    }
  }

  @Test
  void closeWithOutstandingBuffersFailsNamingThem() {
    BufferAllocator a = create("leaky", Long.MAX_VALUE);
    OffHeapBuffer kept = a.allocate(100, "batch slot 0");
    a.allocate(28, "scratch");
    kept.close();
    a.allocate(12, "scratch 2").close();
    BufferAllocator b = create("leaky", Long.MAX_VALUE);
    b.allocate(28, "scratch");
    assertThatThrownBy(b::close)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Allocator leaky closed with 1 outstanding buffer(s), 28 bytes: ['scratch' (28 bytes)]");
    assertThat(b.allocatedBytes()).isZero();
    b.close(); // second close is quiet
    assertThatThrownBy(a::close).hasMessageContaining("1 outstanding buffer(s), 28 bytes");
  }

  @Test
  void aReleasedBufferRefusesAccess() {
    try (BufferAllocator a = create("t", Long.MAX_VALUE)) {
      OffHeapBuffer b = a.allocate(8, "gone");
      b.close();
      assertThatThrownBy(b::buffer)
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("Off-heap buffer 'gone' (8 bytes) was already released");
    }
  }

  @Test
  void theLimitIsEnforced() {
    try (BufferAllocator a = create("small", 100); OffHeapBuffer b = a.allocate(60, "first")) {
      assertThat(b.size()).isEqualTo(60);
      assertThatThrownBy(() -> a.allocate(41, "second"))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("Allocating 41 bytes for 'second' would exceed the 100-byte limit of allocator small (60 bytes in use)");
      assertThat(a.allocatedBytes()).isEqualTo(60);
    }
  }

  @Test
  void aClosedAllocatorRefusesToAllocate() {
    BufferAllocator a = create("done", 10);
    a.close();
    assertThatThrownBy(() -> a.allocate(1, "late"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Allocator done is closed; cannot allocate 'late'");
  }
}
