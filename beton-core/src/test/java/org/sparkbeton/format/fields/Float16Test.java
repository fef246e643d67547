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
}
