package org.sparkbeton.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.sparkbeton.codec.image.RgbPixels;
import org.sparkbeton.codec.jpeg.Strictness;
import org.sparkbeton.codec.testing.CorruptionCorpus;
import org.sparkbeton.codec.testing.TestPhotos;

class ImageDecoderTest {
  static final int[][] QUADRANTS = {{220, 30, 40}, {30, 200, 60}, {40, 50, 210}, {128, 128, 128}};

  @ParameterizedTest
  @CsvSource({
      "quad.png, 0", "quad-palette.png, 2", "quad-rgba.png, 0", "quad-16bit.png, 0", "quad.tif, 0", "quad.bmp, 0",
      "quad.gif, 2", "quad.webp, 0", "quad-420.jpg, 6", "quad-progressive.jpg, 6", "quad-exif6.jpg, 6",
      "quad-cmyk-adobe.jpg, 40", "quad-ycck-adobe.jpg, 40"})
  void decodesEveryInputFormatToRgb(String name, int tolerance) {
    RgbPixels img = ImageDecoder.decode(TestImages.image(name));
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

  /**
   * What the writer accepts (STRICT): every format decodes as leniently. The CMYK and YCCK JPEGs carry no ICC
   * profile, which TwelveMonkeys reports as a warning about colours, not as damage.
   */
  @ParameterizedTest
  @CsvSource({"quad.png", "quad-palette.png", "quad-rgba.png", "quad-16bit.png", "quad.tif", "quad.bmp", "quad.gif",
      "quad.webp", "quad-420.jpg", "quad-progressive.jpg", "quad-exif6.jpg", "quad-cmyk-adobe.jpg",
      "quad-ycck-adobe.jpg"})
  void decodesEveryValidInputStrictlyAsLeniently(String name) {
    RgbPixels lenient = ImageDecoder.decode(TestImages.image(name));
    RgbPixels strict = ImageDecoder.decode(TestImages.image(name), new PixelLimit(64 * 48, "test"), Strictness.STRICT);
    assertThat(strict.width()).as(name).isEqualTo(lenient.width());
    assertThat(strict.pixels()).as(name).isEqualTo(lenient.pixels());
  }

  @Test
  void grayPngIsReplicatedWithoutGammaChange() {
    RgbPixels img = ImageDecoder.decode(TestImages.image("quad-gray.png"));
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
    byte[] tif = TestImages.image("quad.tif");
    assertThatThrownBy(() -> ImageDecoder.decode(Arrays.copyOf(tif, 8))).isInstanceOf(ImageDecodeException.class)
        .hasMessageStartingWith("Cannot decode tiff image of 8 bytes: the file holds no image (cut short?)");
    byte[] bmp = TestImages.image("quad.bmp");
    assertThatThrownBy(() -> ImageDecoder.decode(Arrays.copyOf(bmp, bmp.length / 2)))
        .isInstanceOf(ImageDecodeException.class).hasMessage("Cannot decode bmp image of " + bmp.length / 2
            + " bytes: the file ends before its image does (cut short?)");
  }

  /**
   * TwelveMonkeys' lossless WebP decoder returned most cut files as images, the rows past the cut garbage; the RIFF
   * header's size refuses them before the decode.
   */
  @Test
  void aWebpCutShortIsRefusedFromItsRiffSize() {
    byte[] whole = TestImages.image("photo-lossless.webp");
    RgbPixels photo = ImageDecoder.decode(whole);
    assertThat(photo.width()).isEqualTo(400);
    assertThat(photo.height()).isEqualTo(300);
    for (int cut : new int[] {whole.length / 2, whole.length - 1, 13}) {
      byte[] part = Arrays.copyOf(whole, cut);
      assertThatThrownBy(() -> ImageDecoder.decode(part, new PixelLimit(PixelLimit.PIL_DEFAULT, "test"),
          Strictness.STRICT)).isInstanceOf(ImageDecodeException.class)
          .hasMessage("WebP image is truncated: its RIFF header says " + whole.length + " bytes, and the file has "
              + cut);
    }
  }

  /**
   * An image under the pixel limit whose decode the heap cannot hold (a 9400x9400 WebP took ~2.7 GB, and a 2 GB
   * JVM died of it) is refused from its header, with what it needs.
   */
  @Test
  void anImageWhoseDecodeTheHeapCannotHoldIsRefusedFromItsHeader() {
    PixelLimit limit = new PixelLimit(PixelLimit.PIL_DEFAULT, "test");
    byte[] webp = TestImages.image("quad.webp"); // 64x48 = 3072 pixels, 32 bytes each
    assertThat(ImageDecoder.decode(webp, limit, Strictness.STRICT, 3072 * 32).width()).isEqualTo(64);
    assertThatThrownBy(() -> ImageDecoder.decode(webp, limit, Strictness.STRICT, 3072 * 32 - 1))
        .isInstanceOf(ImageDecodeException.class)
        .hasMessageStartingWith("image is too large to decode in this JVM's heap: 64x48 ")
        .hasMessageContaining(" needs about 0 MiB to decode, over the 0 MiB one decode may take")
        .hasMessageContaining("spark.executor.memory");
    // an 8-bit RGB PNG: its raster's 3 bytes a pixel and the RGB copy's 3
    byte[] png = TestImages.image("quad.png");
    assertThat(ImageDecoder.decode(png, limit, Strictness.STRICT, 3072 * 6).width()).isEqualTo(64);
    assertThatThrownBy(() -> ImageDecoder.decode(png, limit, Strictness.STRICT, 3072 * 6 - 1))
        .isInstanceOf(ImageDecodeException.class);
    // a 16-bit PNG's raster takes twice that
    assertThatThrownBy(() -> ImageDecoder.decode(TestImages.image("quad-16bit.png"), limit, Strictness.STRICT,
        3072 * 6)).isInstanceOf(ImageDecodeException.class);
  }

  /** A 0.4 MB PNG declaring 20000x20000 (400 megapixels, 1.2 GB of RGB) is refused from its header. */
  @Test
  void aPngBombIsRefusedFromItsHeader() {
    byte[] bomb = CorruptionCorpus.pngBomb(20000, 20000);
    assertThat(bomb.length).isLessThan(600_000);
    long heapBefore = usedHeap();
    assertThatThrownBy(() -> ImageDecoder.decode(bomb, new PixelLimit(PixelLimit.PIL_DEFAULT, "maxImagePixels"),
        Strictness.STRICT)).isInstanceOf(ImageDecodeException.class)
        .hasMessage("image is too large to decode: 20000x20000 = 400 megapixels, over the limit of 89.5 megapixels"
            + " (maxImagePixels)");
    // nothing of the image's size was allocated on the way (a raster would be 400 MB)
    assertThat(usedHeap() - heapBefore).isLessThan(100L << 20);
  }

  /** The bombs are real PNGs: one of 300x200 in chunks of 7 rows (the last one of 4) decodes to its zeros. */
  @Test
  void aBombDecodesWhereTheLimitAllowsIt() {
    RgbPixels img = ImageDecoder.decode(CorruptionCorpus.pngBomb(300, 200, 301 * 7));
    assertThat(img.width()).isEqualTo(300);
    assertThat(img.height()).isEqualTo(200);
    assertThat(img.pixels()).containsOnly(0);
  }

  @Test
  void withoutALimitAnImageWhoseRgbFitsNoArrayIsRefused() {
    byte[] bomb = CorruptionCorpus.pngBomb(30000, 30000);
    assertThatThrownBy(() -> ImageDecoder.decode(bomb)).isInstanceOf(ImageDecodeException.class)
        .hasMessage("image is too large to decode: 30000x30000 = 900 megapixels, over the limit of 715.8 megapixels (the"
            + " most pixels whose RGB fits a Java array)");
  }

  @Test
  void theLimitCountsPixelsNotBytes() {
    byte[] png = TestImages.image("quad.png"); // 64x48 = 3072 pixels
    assertThat(ImageDecoder.decode(png, new PixelLimit(3072, "test"), Strictness.STRICT).width()).isEqualTo(64);
    assertThatThrownBy(() -> ImageDecoder.decode(png, new PixelLimit(3071, "test"), Strictness.STRICT))
        .hasMessage("image is too large to decode: 64x48 = 3072 pixels, over the limit of 3071 pixels (test)");
  }

  /** A JPEG with an EXIF rotation takes ImageIO's path in the writer: strict there too. */
  @Test
  void aStrictJpegDecodeThroughImageIoFailsOnCorruptData() {
    byte[] photo = CorruptionCorpus.withExifOrientation(TestPhotos.photo(3, 0), 6);
    int cut = (CorruptionCorpus.scanStart(photo) + photo.length) / 2;
    byte[] bad = Arrays.copyOf(photo, cut + 2);
    bad[cut] = (byte) 0xFF;
    bad[cut + 1] = (byte) 0xD9;
    int[] wh = CorruptionCorpus.sofSize(photo);
    PixelLimit limit = new PixelLimit(PixelLimit.PIL_DEFAULT, "maxImagePixels");
    assertThat(ImageDecoder.decode(photo, limit, Strictness.STRICT).width()).isEqualTo(wh[1]); // rotated
    assertThat(ImageDecoder.decode(bad, limit, Strictness.LENIENT).width()).isEqualTo(wh[1]);
    assertThatThrownBy(() -> ImageDecoder.decode(bad, limit, Strictness.STRICT))
        .isInstanceOf(ImageDecodeException.class)
        .hasMessage("Cannot decode JPEG image of " + bad.length + " bytes: Corrupt JPEG data: premature end of data"
            + " segment");
  }

  private static long usedHeap() {
    Runtime rt = Runtime.getRuntime();
    return rt.totalMemory() - rt.freeMemory();
  }
}
