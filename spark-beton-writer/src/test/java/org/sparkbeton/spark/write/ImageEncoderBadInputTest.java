package org.sparkbeton.spark.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sparkbeton.codec.ImageDecodeException;
import org.sparkbeton.codec.jpeg.JpegException;
import org.sparkbeton.codec.testing.CorruptionCorpus;
import org.sparkbeton.codec.testing.TestPhotos;
import org.sparkbeton.format.fields.ImageMode;
import org.sparkbeton.format.fields.RgbImage;

/**
 * The image step on damaged input: sizes checked against {@code maxImagePixels} from the header, JPEGs decoded
 * strictly, JPEGs passed through checked by a decode at 1/8, on real photos.
 */
class ImageEncoderBadInputTest {
  static final long SEED = 41;

  private static ImageEncoder encoder(String... options) {
    Map<String, String> o = new HashMap<>();
    for (int i = 0; i < options.length; i += 2) {
      o.put(options[i], options[i + 1]);
    }
    return new ImageEncoder(BetonWriteConf.parse(o), 0);
  }

  /** Photo {@code i} cut in the middle of its scan, then given an end-of-image marker. */
  static byte[] cutWithEoi(int i) {
    byte[] photo = TestPhotos.photo(SEED, i);
    int cut = (CorruptionCorpus.scanStart(photo) + photo.length) / 2;
    byte[] b = Arrays.copyOf(photo, cut + 2);
    b[cut] = (byte) 0xFF;
    b[cut + 1] = (byte) 0xD9;
    return b;
  }

  @Test
  void sizesOverMaxImagePixelsAreRefusedFromTheHeaderInEveryMode() {
    byte[] photo = TestPhotos.photo(SEED, 0);
    byte[] huge = CorruptionCorpus.withSofSize(photo, 65500, 65500);
    byte[] large = CorruptionCorpus.withSofSize(photo, 16000, 16000);
    byte[] bomb = CorruptionCorpus.pngBomb(30000, 30000);
    for (String mode : new String[] {"raw", "jpg"}) {
      try (ImageEncoder enc = encoder("writeMode", mode)) {
        assertThatThrownBy(() -> enc.fromEncoded(huge, 0)).as(mode).isInstanceOf(ImageDecodeException.class)
            .hasMessage("image is too large to decode: 65500x65500 = 4.3 gigapixels, over the limit of 89.5"
                + " megapixels (option maxImagePixels)");
        assertThatThrownBy(() -> enc.fromEncoded(large, 0)).as(mode)
            .hasMessage("image is too large to decode: 16000x16000 = 256 megapixels, over the limit of 89.5"
                + " megapixels (option maxImagePixels)");
        assertThatThrownBy(() -> enc.fromEncoded(bomb, 0)).as(mode)
            .hasMessage("image is too large to decode: 30000x30000 = 900 megapixels, over the limit of 89.5"
                + " megapixels (option maxImagePixels)");
        assertThat(enc.counters().decodeNanos()).as("nothing decoded").isZero();
      }
    }
  }

  @Test
  void maxImagePixelsIsTheUsersLimit() {
    byte[] photo = TestPhotos.photo(SEED, 1);
    int[] wh = CorruptionCorpus.sofSize(photo);
    long pixels = (long) wh[0] * wh[1];
    try (ImageEncoder exact = encoder("writeMode", "jpg", "maxImagePixels", Long.toString(pixels));
         ImageEncoder under = encoder("writeMode", "jpg", "maxImagePixels", Long.toString(pixels - 1))) {
      assertThat(exact.fromEncoded(photo, 0).payloadBytes()).isEqualTo(photo);
      assertThatThrownBy(() -> under.fromEncoded(photo, 0)).isInstanceOf(ImageDecodeException.class)
          .hasMessageEndingWith(", over the limit of " + (pixels - 1) + " pixels (option maxImagePixels)");
    }
    // an image struct's pixels are checked too
    try (ImageEncoder tiny = encoder("maxImagePixels", "100")) {
      assertThatThrownBy(() -> tiny.fromPixels(new byte[20 * 10 * 3], 20, 10, 0))
          .hasMessage("image is too large to decode: 20x10 = 200 pixels, over the limit of 100 pixels (option"
              + " maxImagePixels)");
    }
  }

  @Test
  void aJpegPassedThroughIsCheckedByAStrictDecode() {
    try (ImageEncoder enc = encoder("writeMode", "jpg")) {
      for (int i = 0; i < 10; i++) {
        byte[] photo = TestPhotos.photo(SEED, i);
        assertThat(enc.fromEncoded(photo, i).payloadBytes()).isEqualTo(photo);
      }
      assertThat(enc.counters().passedThrough()).isEqualTo(10);
      assertThat(enc.counters().passThroughDecoded()).isEqualTo(10);
      // whole as a structure (an end-of-image marker after the scan), damaged inside
      assertThatThrownBy(() -> enc.fromEncoded(cutWithEoi(3), 0)).isInstanceOf(JpegException.class)
          .hasMessage("Native JPEG decode failed: Corrupt JPEG data: premature end of data segment".replace("Native",
              org.sparkbeton.codec.jpeg.JpegCodecs.nativeAvailable() ? "Native" : "Java"));
      assertThat(enc.counters().passedThrough()).isEqualTo(10);
    }
  }

  /** A frame header that lies about the size is stored as the lie only when the check is off. */
  @Test
  void aLyingHeaderIsNeverPassedThroughUnlessTheCheckIsOff() {
    byte[] photo = TestPhotos.photo(SEED, 4);
    int[] wh = CorruptionCorpus.sofSize(photo);
    byte[] half = CorruptionCorpus.withSofSize(photo, wh[0] / 2, wh[1] / 2);
    byte[] twice = CorruptionCorpus.withSofSize(photo, wh[0] * 2, wh[1] * 2);
    try (ImageEncoder enc = encoder("writeMode", "jpg")) {
      assertThatThrownBy(() -> enc.fromEncoded(half, 0)).isInstanceOf(JpegException.class)
          .hasMessageMatching(".* decode failed: Corrupt JPEG data: \\d+ extraneous bytes before marker 0xd9");
      assertThatThrownBy(() -> enc.fromEncoded(twice, 0)).isInstanceOf(JpegException.class)
          .hasMessageEndingWith(" decode failed: Corrupt JPEG data: premature end of data segment");
    }
    // the documented risk of jpegPassThroughCheck=markers: both are stored, claiming sizes their data do not hold
    try (ImageEncoder unchecked = encoder("writeMode", "jpg", "jpegPassThroughCheck", "markers")) {
      RgbImage stored = unchecked.fromEncoded(twice, 0);
      assertThat(new int[] {stored.width(), stored.height()}).containsExactly(wh[0] * 2, wh[1] * 2);
      assertThat(unchecked.fromEncoded(half, 1).width()).isEqualTo(wh[0] / 2);
      assertThat(unchecked.counters().passThroughDecoded()).isZero();
    }
  }

  @Test
  void reencodedJpegsAreStrictUnlessJpegStrictIsFalse() {
    byte[] bad = cutWithEoi(5);
    try (ImageEncoder strict = encoder("writeMode", "jpg", "maxResolution", "128");
         ImageEncoder planes = encoder("writeMode", "jpg", "maxResolution", "128", "jpegResizeSpace", "rgb");
         ImageEncoder raw = encoder("maxResolution", "128")) {
      for (ImageEncoder enc : new ImageEncoder[] {strict, planes, raw}) {
        assertThatThrownBy(() -> enc.fromEncoded(bad, 0)).isInstanceOf(JpegException.class)
            .hasMessageEndingWith(" decode failed: Corrupt JPEG data: premature end of data segment");
      }
    }
    try (ImageEncoder lenient = encoder("writeMode", "jpg", "maxResolution", "128", "jpegStrict", "false")) {
      RgbImage img = lenient.fromEncoded(bad, 0);
      assertThat(img.mode()).isEqualTo(ImageMode.JPG);
      assertThat(Math.max(img.width(), img.height())).isEqualTo(128);
    }
  }

  /** A JPEG with an EXIF rotation goes through ImageIO: strict there too. */
  @Test
  void rotatedJpegsAreStrictToo() {
    byte[] bad = CorruptionCorpus.withExifOrientation(cutWithEoi(6), 6);
    try (ImageEncoder enc = encoder("writeMode", "jpg", "maxResolution", "128");
         ImageEncoder lenient = encoder("writeMode", "jpg", "maxResolution", "128", "jpegStrict", "false")) {
      assertThatThrownBy(() -> enc.fromEncoded(bad, 0)).isInstanceOf(ImageDecodeException.class)
          .hasMessageEndingWith("bytes: Corrupt JPEG data: premature end of data segment");
      assertThat(lenient.fromEncoded(bad, 0).mode()).isEqualTo(ImageMode.JPG);
    }
  }

  @Test
  void optionsAreChecked() {
    assertThatThrownBy(() -> BetonWriteConf.parse(Map.of("maxImagePixels", "0")))
        .hasMessage("Option maxImagePixels must be 1..268435456 (the codecs decode nothing larger), got 0");
    assertThatThrownBy(() -> BetonWriteConf.parse(Map.of("maxImagePixels", "300000000")))
        .hasMessage("Option maxImagePixels must be 1..268435456 (the codecs decode nothing larger), got 300000000");
    assertThatThrownBy(() -> BetonWriteConf.parse(Map.of("jpegStrict", "yes")))
        .hasMessage("Option jpegStrict must be true or false, got 'yes'");
    assertThatThrownBy(() -> BetonWriteConf.parse(Map.of("jpegPassThroughCheck", "none")))
        .hasMessage("Option jpegPassThroughCheck must be decode or markers, got 'none'");
    assertThat(BetonWriteConf.parse(Map.of("imageColumns", "i")).recipe()).containsEntry("max_image_pixels", "89478485")
        .containsEntry("jpeg_strict", "true").containsEntry("jpeg_pass_through_check", "decode");
  }
}
