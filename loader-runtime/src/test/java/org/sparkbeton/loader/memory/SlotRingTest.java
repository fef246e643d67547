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
    assertThat(ring.heldSlots()).isZero();
    ring.release(1, g); // the ring closed: a late release does nothing
    assertThat(released[0]).isEqualTo(1);
    a.close();
  }
}
