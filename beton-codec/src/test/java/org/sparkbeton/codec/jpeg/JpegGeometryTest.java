package org.sparkbeton.codec.jpeg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class JpegGeometryTest {
  @Test
  void scaledDimensionsRoundUpLikeLibjpeg() {
    assertThat(JpegGeometry.scaledDim(500, 4)).isEqualTo(250);
    assertThat(JpegGeometry.scaledDim(375, 4)).isEqualTo(188);
    assertThat(JpegGeometry.scaledDim(375, 1)).isEqualTo(47);
    assertThat(JpegGeometry.scaledDim(500, 3)).isEqualTo(188);
  }

  @Test
  void boxMapsOutwardToScaledPixels() {
    // x 10..110 at 1/2 -> 5..55; y 3..50 at 1/2 -> floor(1.5)=1 .. ceil(25)=25
    assertThat(JpegGeometry.scaledBox(500, 375, 10, 3, 100, 47, 4)).isEqualTo(ImageSize.pack(50, 24));
    // clipped at the scaled edge: 499+1 at 3/8 -> floor(187.1)=187 .. min(188, ceil(187.5)=188)
    assertThat(JpegGeometry.scaledBox(500, 375, 499, 0, 1, 1, 3)).isEqualTo(ImageSize.pack(1, 1));
    assertThatThrownBy(() -> JpegGeometry.scaledBox(500, 375, 450, 0, 51, 1, 8))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("Crop box 450,0 51x1 is not inside the 500x375 image");
  }

  @Test
  void bestScaleIsTheSmallestThatStillCoversTheOutput() {
    // a 448x448 crop for a 224 output: 1/2 is exactly enough
    assertThat(JpegGeometry.bestScale(448, 448, 224, 224, JpegGeometry.FAST_SCALES)).isEqualTo(4);
    assertThat(JpegGeometry.bestScale(447, 448, 224, 224, JpegGeometry.FAST_SCALES)).isEqualTo(8);
    assertThat(JpegGeometry.bestScale(447, 448, 224, 224, JpegGeometry.ALL_SCALES)).isEqualTo(5);
    assertThat(JpegGeometry.bestScale(2000, 1800, 224, 224, JpegGeometry.FAST_SCALES)).isEqualTo(1);
    assertThat(JpegGeometry.bestScale(100, 100, 224, 224, JpegGeometry.ALL_SCALES)).isEqualTo(8);
    assertThatThrownBy(() -> JpegGeometry.bestScale(0, 1, 1, 1, JpegGeometry.ALL_SCALES))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("crop 0x1");
  }
}
