package org.sparkbeton.loader.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SlotRingTest {
  @Test
  void layoutIsAlignedAndEverythingIsFreedOnClose() {
    HeapBufferAllocator a = new HeapBufferAllocator("ring");
    SlotRing ring = new SlotRing(a, 5, 3, new int[] {7, 8});
    assertThat(ring.slots()).isEqualTo(5);
    assertThat(ring.dataOffset(0)).isZero();
    assertThat(ring.lengthsOffset(0)).isEqualTo(64); // 21 bytes of rows, aligned
    assertThat(ring.dataOffset(1)).isEqualTo(128);
    assertThat(ring.lengthsOffset(1)).isEqualTo(192);
    assertThat(ring.buffer(0).capacity()).isEqualTo(256);
    assertThat(a.outstanding()).isEqualTo(5);
    long g = ring.generation(2);
    assertThat(ring.recycle(2, true)).isEqualTo(g + 1);
    assertThat(ring.buffer(2).get(100)).isEqualTo((byte) 0xA5);
    ring.close();
    assertThat(ring.generation(2)).isEqualTo(g + 2);
    assertThat(a.outstanding()).isZero();
    a.close();
  }

  @Test
  void aHeldSlotIsNotRecycledAndAReleaseRunsTheCallback() {
    HeapBufferAllocator a = new HeapBufferAllocator("ring");
    SlotRing ring = new SlotRing(a, 2, 1, new int[] {8});
    int[] released = {0};
    ring.onRelease(() -> released[0]++);
    long g = ring.recycle(1, false);
    assertThat(ring.hold(1, g - 1)).isFalse(); // an older batch of the slot cannot be held
    assertThat(ring.hold(1, g)).isTrue();
    assertThat(ring.isHeld(1)).isTrue();
    assertThat(ring.heldSlots()).isEqualTo(1);
    assertThatThrownBy(() -> ring.recycle(1, false)).isInstanceOf(IllegalStateException.class)
        .hasMessage("Slot 1 is held by a consumer and cannot be recycled");
    ring.release(1, g);
    assertThat(ring.isHeld(1)).isFalse();
    assertThat(released[0]).isEqualTo(1);
    ring.release(1, g); // nothing held: no callback
    assertThat(released[0]).isEqualTo(1);
    assertThat(ring.hold(1, g)).isTrue();
    ring.close();
    assertThat(ring.heldSlots()).isEqualTo(1); // the hold outlives the close (see below)
    ring.release(1, g); // the ring closed: the release frees the slot, and no worker needs waking
    assertThat(ring.heldSlots()).isZero();
    assertThat(released[0]).isEqualTo(1);
    assertThat(a.outstanding()).isZero();
    a.close();
  }

  /** A held slot outlives the ring's close until its last release; whenFreed's action runs after that release. */
  @Test
  void aSlotHeldAtCloseIsFreedByItsLastRelease() {
    HeapBufferAllocator a = new HeapBufferAllocator("ring");
    SlotRing ring = new SlotRing(a, 3, 1, new int[] {8});
    long g = ring.recycle(1, false);
    assertThat(ring.hold(1, g)).isTrue();
    assertThat(ring.hold(1, g)).isTrue();
    ring.buffer(1).put(0, (byte) 42);
    ring.close();
    int[] freed = {0};
    ring.whenFreed(() -> freed[0]++);
    assertThat(a.outstanding()).isEqualTo(1);
    assertThat(ring.generation(1)).isEqualTo(g); // still its batch's
    assertThat(ring.buffer(1).get(0)).isEqualTo((byte) 42);
    assertThatThrownBy(() -> ring.recycle(1, false)).hasMessageContaining("closed");
    ring.release(1, g);
    assertThat(a.outstanding()).isEqualTo(1);
    assertThat(freed[0]).isZero();
    ring.release(1, g);
    assertThat(a.outstanding()).isZero();
    assertThat(freed[0]).isEqualTo(1);
    assertThat(ring.generation(1)).isEqualTo(g + 1);
    ring.release(1, g); // a release too many does nothing
    ring.close(); // idempotent
    a.close();
  }

  /** With nothing held, whenFreed runs at once. */
  @Test
  void whenFreedRunsAtOnceWhenNothingIsHeld() {
    HeapBufferAllocator a = new HeapBufferAllocator("ring");
    SlotRing ring = new SlotRing(a, 2, 1, new int[] {8});
    assertThatThrownBy(() -> ring.whenFreed(() -> { })).hasMessage("The slot ring is not closed");
    ring.close();
    int[] freed = {0};
    ring.whenFreed(() -> freed[0]++);
    assertThat(freed[0]).isEqualTo(1);
    a.close();
  }

  /** Direct memory running out (batchesAhead in the thousands) was a bare OutOfMemoryError naming no option. */
  @Test
  void memoryRunningOutIsRefusedNamingBatchesAheadAndFreesWhatItTook() {
    int[] obtained = {0};
    AbstractAllocator failing = new AbstractAllocator("failing", Long.MAX_VALUE) {
      @Override
      java.nio.ByteBuffer obtain(int bytes) {
        if (++obtained[0] == 3) {
          throw new OutOfMemoryError("Cannot reserve 64 bytes of direct buffer memory");
        }
        return java.nio.ByteBuffer.allocate(bytes);
      }

      @Override
      void free(java.nio.ByteBuffer memory) {}
    };
    assertThatThrownBy(() -> new SlotRing(failing, 100_002, 1, new int[] {8}))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Cannot allocate the loader's 100,002 batch slots of 128 bytes (12,800,256 bytes in all; slot 2"
            + " failed: Cannot reserve 64 bytes of direct buffer memory): the loader keeps batchesAhead + 2 batches;"
            + " lower batchesAhead or the batch size, or raise -XX:MaxDirectMemorySize")
        .hasCauseInstanceOf(OutOfMemoryError.class);
    assertThat(failing.outstanding()).isZero();
    failing.close();
  }
}
