package org.sparkbeton.format.fields;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class Float16Test {
  @Test
  void halfFloatsWiden() {
    assertThat(Float16.toFloat((short) 0x3c00)).isEqualTo(1.0f);
    assertThat(Float16.toFloat((short) 0xc000)).isEqualTo(-2.0f);
    assertThat(Float16.toFloat((short) 0x0001)).isEqualTo(0x1p-24f);
    assertThat(Float16.toFloat((short) 0x7bff)).isEqualTo(65504f);
    assertThat(Float16.toFloat((short) 0x7c00)).isEqualTo(Float.POSITIVE_INFINITY);
    assertThat(Float16.toFloat((short) 0x7e00)).isNaN();
  }

  @Test
  void floatsNarrowToNearestEvenAndEveryHalfRoundTrips() {
    assertThat(Float16.fromFloat(1f)).isEqualTo((short) 0x3c00);
    assertThat(Float16.fromFloat(-2f)).isEqualTo((short) 0xc000);
    assertThat(Float16.fromFloat(0.1f)).isEqualTo((short) 0x2e66);
    assertThat(Float16.fromFloat(65504f)).isEqualTo((short) 0x7bff);
    assertThat(Float16.fromFloat(65520f)).isEqualTo((short) 0x7c00);
    assertThat(Float16.fromFloat(0x1p-24f)).isEqualTo((short) 0x0001);
    assertThat(Float16.fromFloat(0x1p-25f)).isEqualTo((short) 0x0000); // tie to even
    assertThat(Float16.fromFloat(1f + 0x1p-11f)).isEqualTo((short) 0x3c00); // tie to even
    assertThat(Float16.fromFloat(1f + 0x1p-11f + 0x1p-20f)).isEqualTo((short) 0x3c01);
    for (int h = 0; h < 0x10000; h++) {
      short bits = (short) h;
      boolean nan = (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0;
      if (!nan) {
        assertThat(Float16.fromFloat(Float16.toFloat(bits))).as("half %04x", h).isEqualTo(bits);
      }
    }
  }
}
