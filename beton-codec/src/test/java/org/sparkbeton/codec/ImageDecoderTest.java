package org.sparkbeton.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.sparkbeton.codec.image.RgbImage;

class ImageDecoderTest {
  static final int[][] QUADRANTS = {{220, 30, 40}, {30, 200, 60}, {40, 50, 210}, {128, 128, 128}};

  @ParameterizedTest
  @CsvSource({
      "quad.png, 0", "quad-palette.png, 2", "quad-rgba.png, 0", "quad-16bit.png, 0", "quad.tif, 0", "quad.bmp, 0",
      "quad.gif, 2", "quad.webp, 0", "quad-420.jpg, 6", "quad-progressive.jpg, 6", "quad-exif6.jpg, 6",
      "quad-cmyk-adobe.jpg, 40", "quad-ycck-adobe.jpg, 40"})
  void decodesEveryInputFormatToRgb(String name, int tolerance) {
    RgbImage img = ImageDecoder.decode(TestImages.image(name));
    assertThat(img.width()).as(name).isEqualTo(64);
    assertThat(img.height()).as(name).isEqualTo(48);
    int[][] centres = {{16, 12}, {48, 12}, {16, 36}, {48, 36}};
    for (int q = 0; q < 4; q++) {
      int[] px = TestImages.pixel(img.pixels(), 64, centres[q][0], centres[q][1]);
      for (int c = 0; c < 3; c++) {
        assertThat((double) px[c]).as("%s quadrant %d channel %d", name, q, c)
            .isCloseTo(QUADRANTS[q][c], within((double) tolerance));
      }
    }
  }

  @Test
  void grayPngIsReplicatedWithoutGammaChange() {
    RgbImage img = ImageDecoder.decode(TestImages.image("quad-gray.png"));
    // the PNG stores 88 (PIL's L of (220,30,40)); a linear-to-sRGB conversion (BufferedImage.getRGB) would give ~160
    assertThat(TestImages.pixel(img.pixels(), 64, 16, 12)).containsExactly(88, 88, 88);
  }

  @Test
  void exifOrientationIsApplied() {
    // stored as 48x64, rotated; orientation 6 turns it back to the 64x48 quadrants
    assertThat(ImageDecoder.decode(TestImages.image("quad-exif6.jpg")).width()).isEqualTo(64);
  }

  @Test
  void undecodableInputsNameTheProblem() {
    assertThatThrownBy(() -> ImageDecoder.decode(new byte[0])).isInstanceOf(ImageDecodeException.class)
        .hasMessage("Cannot decode an empty image (0 bytes)");
    assertThatThrownBy(() -> ImageDecoder.decode("hello, world".getBytes(java.nio.charset.StandardCharsets.US_ASCII)))
        .isInstanceOf(ImageDecodeException.class).hasMessage("Unrecognised image format (first bytes 68656C6C6F2C2077)");
    byte[] png = TestImages.image("quad.png");
    byte[] cut = java.util.Arrays.copyOf(png, 60);
    assertThatThrownBy(() -> ImageDecoder.decode(cut)).isInstanceOf(ImageDecodeException.class)
        .hasMessageStartingWith("Cannot decode png image of 60 bytes");
  }
}
