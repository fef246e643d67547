package org.sparkbeton.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SizeArgsTest {
  @Test
  void parsesBinaryUnits() {
    assertThat(SizeArgs.parse("4194304")).isEqualTo(4L << 20);
    assertThat(SizeArgs.parse("8M")).isEqualTo(8L << 20);
    assertThat(SizeArgs.parse("2MiB")).isEqualTo(2L << 20);
    assertThat(SizeArgs.parse("2mb")).isEqualTo(2L << 20);
    assertThat(SizeArgs.parse("1G")).isEqualTo(1L << 30);
    assertThat(SizeArgs.parse("512k")).isEqualTo(512L << 10);
    assertThat(SizeArgs.parse("100B")).isEqualTo(100);
  }

  @Test
  void rejectsNonsense() {
    assertThatThrownBy(() -> SizeArgs.parse("8X")).hasMessage("'8X' is not a size; use bytes or a binary unit, e.g. 8M, 2MiB, 1G");
    assertThatThrownBy(() -> SizeArgs.parse("iB")).hasMessageContaining("is not a size");
    assertThatThrownBy(() -> SizeArgs.parse("100iB")).hasMessageContaining("is not a size");
    assertThatThrownBy(() -> SizeArgs.parse("99999999999T")).hasMessage("'99999999999T' is too large");
  }

  @Test
  void pageSizeMustBeAPowerOfTwoFrom2MTo1G() {
    SizeArgs.PageSizeConverter c = new SizeArgs.PageSizeConverter();
    assertThat(c.convert("2M")).isEqualTo(2L << 20);
    assertThat(c.convert("1G")).isEqualTo(1L << 30);
    assertThatThrownBy(() -> c.convert("1M")).hasMessage("page size 1M (1048576 bytes) must be a power of two between 2M and 1G");
    assertThatThrownBy(() -> c.convert("3M")).hasMessageContaining("power of two");
    assertThatThrownBy(() -> c.convert("2G")).hasMessageContaining("power of two");
  }

  @Test
  void formatsHumanSizes() {
    assertThat(SizeArgs.human(17)).isEqualTo("17 B");
    assertThat(SizeArgs.human(2L << 20)).isEqualTo("2 MiB");
    assertThat(SizeArgs.human(1536)).isEqualTo("1.5 KiB");
  }
}
