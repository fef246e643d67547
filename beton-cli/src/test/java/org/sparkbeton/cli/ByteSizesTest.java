package org.sparkbeton.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ByteSizesTest {
  @Test
  void parsesBinaryUnits() {
    assertThat(ByteSizes.parse("4194304")).isEqualTo(4L << 20);
    assertThat(ByteSizes.parse("8M")).isEqualTo(8L << 20);
    assertThat(ByteSizes.parse("2MiB")).isEqualTo(2L << 20);
    assertThat(ByteSizes.parse("2mb")).isEqualTo(2L << 20);
    assertThat(ByteSizes.parse("1G")).isEqualTo(1L << 30);
    assertThat(ByteSizes.parse("512k")).isEqualTo(512L << 10);
    assertThat(ByteSizes.parse("100B")).isEqualTo(100);
  }

  @Test
  void rejectsNonsense() {
    assertThatThrownBy(() -> ByteSizes.parse("8X")).hasMessage("'8X' is not a size; use bytes or a binary unit, e.g. 8M, 2MiB, 1G");
    assertThatThrownBy(() -> ByteSizes.parse("iB")).hasMessageContaining("is not a size");
    assertThatThrownBy(() -> ByteSizes.parse("100iB")).hasMessageContaining("is not a size");
    assertThatThrownBy(() -> ByteSizes.parse("99999999999T")).hasMessage("'99999999999T' is too large");
  }

  @Test
  void pageSizeMustBeAPowerOfTwoFrom2MTo1G() {
    ByteSizes.PageSizeConverter c = new ByteSizes.PageSizeConverter();
    assertThat(c.convert("2M")).isEqualTo(2L << 20);
    assertThat(c.convert("1G")).isEqualTo(1L << 30);
    assertThatThrownBy(() -> c.convert("1M")).hasMessage("page size 1M (1048576 bytes) must be a power of two between 2M and 1G");
    assertThatThrownBy(() -> c.convert("3M")).hasMessageContaining("power of two");
    assertThatThrownBy(() -> c.convert("2G")).hasMessageContaining("power of two");
  }

  @Test
  void formatsHumanSizes() {
    assertThat(ByteSizes.human(17)).isEqualTo("17 B");
    assertThat(ByteSizes.human(2L << 20)).isEqualTo("2 MiB");
    assertThat(ByteSizes.human(1536)).isEqualTo("1.5 KiB");
  }
}
