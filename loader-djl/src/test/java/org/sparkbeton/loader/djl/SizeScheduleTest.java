package org.sparkbeton.loader.djl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SizeScheduleTest {
  @Test
  void perEpochRepeatsItsLastSize() {
    SizeSchedule s = SizeSchedule.perEpoch(128, 160, 192);
    assertThat(new int[] {s.size(0), s.size(1), s.size(2), s.size(3), s.size(50)})
        .containsExactly(128, 160, 192, 192, 192);
    assertThat(s.maxSize()).isEqualTo(192);
  }

  @Test
  void rampMatchesFfcvsGetResolution() {
    // FFCV's rn50 defaults: min_res 160, max_res 192, start_ramp 65, end_ramp 76; values from
    // int(np.round(np.interp([e], [65, 76], [160, 192])[0] / 32)) * 32
    SizeSchedule s = SizeSchedule.ramp(160, 192, 65, 76, 32);
    assertThat(s.size(0)).isEqualTo(160);
    assertThat(s.size(65)).isEqualTo(160);
    assertThat(s.size(70)).isEqualTo(160); // 174.5 / 32 = 5.45
    assertThat(s.size(71)).isEqualTo(192); // 177.5 / 32 = 5.55
    assertThat(s.size(76)).isEqualTo(192);
    assertThat(s.size(88)).isEqualTo(192);
    SizeSchedule fine = SizeSchedule.ramp(64, 96, 0, 2, 16); // 64, 80, 96
    assertThat(new int[] {fine.size(0), fine.size(1), fine.size(2)}).containsExactly(64, 80, 96);
  }

  @Test
  void badSchedulesAreRefused() {
    assertThatThrownBy(SizeSchedule::perEpoch).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("A size schedule needs at least one size");
    assertThatThrownBy(() -> SizeSchedule.perEpoch(128, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Image sides must be at least 1 pixel, got 0");
    assertThatThrownBy(() -> SizeSchedule.ramp(160, 192, 5, 5, 32)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("A ramp needs 0 <= startEpoch < endEpoch, got 5 and 5");
    assertThatThrownBy(() -> SizeSchedule.ramp(160, 200, 0, 5, 32)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Ramp sizes 160 and 200 must be multiples of the rounding step 32 (and the step at least 1)");
    assertThatThrownBy(() -> SizeSchedule.perEpoch(8).size(-1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Epochs start at 0, got -1");
  }
}
