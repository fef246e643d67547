package org.sparkbeton.loader.memory;

import static org.assertj.core.api.Assertions.assertThat;

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
}
