package org.sparkbeton.codec.jpeg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sparkbeton.codec.TestImages;

/**
 * {@link JpegCodec#decodePlanes} and {@link JpegCodec#encodePlanes} on both codecs. Where libjpeg needs no
 * chroma upsampling (a 4:4:4 image; a 4:2:0 image at 1/2, whose chroma it scales by its IDCT), converting the
 * native planes with libjpeg's own formulas ({@link YccConversion}) must give libjpeg's RGB decode byte for
 * byte: the planes are exactly what libjpeg converts. Elsewhere the tests bound the difference, which is the
 * chroma upsampling (libjpeg's fancy triangle filter against repetition).
 */
class JpegPlanesTest {
  private static final String[] YCC = {"texture-420.jpg", "texture-444.jpg", "texture-progressive.jpg",
      "quad-420.jpg", "quad-444.jpg"};

  static JpegCodec codec(boolean nativeCodec) {
    if (nativeCodec) {
      assumeTrue(NativeJpegCodec.isAvailable(), "native library not loaded");
      return new NativeJpegCodec();
    }
    return new JavaJpegCodec();
  }

  static JpegHeader header(JpegCodec c, byte[] jpeg) {
    JpegHeader h = new JpegHeader();
    c.probe(ByteBuffer.wrap(jpeg), h);
    return h;
  }

  static byte[] rgb(JpegCodec c, byte[] jpeg, int scale) {
    JpegHeader h = header(c, jpeg);
    int n = JpegGeometry.scaledDim(h.width(), scale) * JpegGeometry.scaledDim(h.height(), scale) * 3;
    ByteBuffer dst = ByteBuffer.allocateDirect(n);
    c.decode(ByteBuffer.wrap(jpeg), scale, Idct.ACCURATE, dst, 0);
    return TestImages.bytes(dst, 0, n);
  }

  /** The planes converted to RGB with chroma repeated. */
  static byte[] planesAsRgb(ByteBuffer planes, int offset, YccPlanes layout) {
    ByteBuffer out = ByteBuffer.allocate(layout.width() * layout.height() * 3);
    YccConversion.planesToRgb(planes, offset, layout, out, 0);
    return out.array();
  }

  @Test
  void nativePlanesAreExactlyWhatLibjpegConvertsWhereNoUpsamplingIsInvolved() {
    try (JpegCodec c = codec(true)) {
      check444(c, "texture-444.jpg", 8);
      check444(c, "quad-444.jpg", 8);
      check444(c, "texture-420.jpg", 4); // chroma IDCT-scaled to Y's size
      check444(c, "texture-progressive.jpg", 4);
    }
  }

  private static void check444(JpegCodec c, String name, int scale) {
    byte[] jpeg = TestImages.image(name);
    JpegHeader h = header(c, jpeg);
    int w = JpegGeometry.scaledDim(h.width(), scale);
    int ht = JpegGeometry.scaledDim(h.height(), scale);
    ByteBuffer planes = ByteBuffer.allocateDirect((int) YccPlanes.maxBytes(w, ht) + 7);
    YccPlanes layout = new YccPlanes();
    c.decodePlanes(ByteBuffer.wrap(jpeg), scale, Idct.ACCURATE, planes, 7, layout);
    assertThat(layout.width()).as(name).isEqualTo(w);
    assertThat(layout.height()).as(name).isEqualTo(ht);
    assertThat(layout.chromaWidth()).as(name + " chroma as large as Y").isEqualTo(w);
    assertThat(layout.chromaHeight()).as(name).isEqualTo(ht);
    assertThat(planesAsRgb(planes, 7, layout)).as(name + " at " + scale + "/8").isEqualTo(rgb(c, jpeg, scale));
  }

  @ParameterizedTest(name = "native={0}")
  @ValueSource(booleans = {true, false})
  void a420ImageAtFullScaleHasHalfSizeChromaCloseToTheRgbDecode(boolean nativeCodec) {
    try (JpegCodec c = codec(nativeCodec)) {
      for (String name : new String[] {"texture-420.jpg", "texture-progressive.jpg", "quad-420.jpg"}) {
        byte[] jpeg = TestImages.image(name);
        JpegHeader h = header(c, jpeg);
        ByteBuffer planes = ByteBuffer.allocate((int) YccPlanes.maxBytes(h.width(), h.height()));
        YccPlanes layout = new YccPlanes();
        c.decodePlanes(ByteBuffer.wrap(jpeg), 8, Idct.ACCURATE, planes, 0, layout);
        assertThat(layout.is420()).as(name + " " + layout).isTrue();
        assertThat(layout.width()).isEqualTo(h.width());
        byte[] fromPlanes = planesAsRgb(planes, 0, layout);
        byte[] decoded = rgb(c, jpeg, 8);
        double[] d = TestImages.diff(fromPlanes, decoded);
        // repeated chroma against libjpeg's triangle filter (native) or re-averaged chroma (Java) differ at colour
        // edges: a photo-like texture has soft ones, the quadrants of quad-420 hard ones
        assertThat(TestImages.psnr(fromPlanes, decoded)).as(name + " PSNR, diff " + Arrays.toString(d))
            .isGreaterThan(name.startsWith("quad") ? 20 : 30);
        assertThat(d[1]).as(name + " mean").isLessThan(3.0);
      }
    }
  }

  @Test
  void nativeAndJavaYPlanesAgreeWithinTheIdctTolerance() {
    try (JpegCodec nat = codec(true); JpegCodec java = codec(false)) {
      for (String name : YCC) {
        byte[] jpeg = TestImages.image(name);
        JpegHeader h = header(nat, jpeg);
        int n = (int) YccPlanes.maxBytes(h.width(), h.height());
        ByteBuffer a = ByteBuffer.allocateDirect(n);
        ByteBuffer b = ByteBuffer.allocate(n);
        YccPlanes la = new YccPlanes();
        YccPlanes lb = new YccPlanes();
        nat.decodePlanes(ByteBuffer.wrap(jpeg), 8, Idct.ACCURATE, a, 0, la);
        java.decodePlanes(ByteBuffer.wrap(jpeg), 8, Idct.ACCURATE, b, 0, lb);
        int ySize = h.width() * h.height();
        double[] d = TestImages.diff(TestImages.bytes(a, 0, ySize), TestImages.bytes(b, 0, ySize));
        // ImageIO's IDCT and an RGB round trip (clamping) on the Java side
        assertThat(d[0]).as(name + " Y max").isLessThanOrEqualTo(CrossPathToleranceTest.FULL_MAX + 2);
        assertThat(d[1]).as(name + " Y mean").isLessThanOrEqualTo(CrossPathToleranceTest.FULL_MEAN);
      }
    }
  }

  @ParameterizedTest(name = "native={0}")
  @ValueSource(booleans = {true, false})
  void imagesThatAreNotYCbCrAreRefusedByName(boolean nativeCodec) {
    try (JpegCodec c = codec(nativeCodec)) {
      for (String name : new String[] {"quad-gray.jpg", "quad-cmyk-adobe.jpg", "quad-ycck-adobe.jpg"}) {
        byte[] jpeg = TestImages.image(name);
        ByteBuffer dst = ByteBuffer.allocateDirect(1 << 20);
        assertThatThrownBy(() -> c.decodePlanes(ByteBuffer.wrap(jpeg), 8, Idct.ACCURATE, dst, 0, new YccPlanes()))
            .as(name).isInstanceOf(JpegException.class).hasMessageContaining("YCbCr");
      }
    }
  }

  @ParameterizedTest(name = "native={0}")
  @ValueSource(booleans = {true, false})
  void corruptTruncatedAndTooSmallDestinationsFailCleanly(boolean nativeCodec) {
    byte[] jpeg = TestImages.image("texture-420.jpg");
    try (JpegCodec c = codec(nativeCodec)) {
      JpegHeader h = header(c, jpeg);
      ByteBuffer dst = ByteBuffer.allocateDirect((int) YccPlanes.maxBytes(h.width(), h.height()));
      byte[] truncated = Arrays.copyOf(jpeg, jpeg.length / 2);
      assertThatThrownBy(() -> c.decodePlanes(ByteBuffer.wrap(truncated), 8, Idct.ACCURATE, dst, 0, new YccPlanes()))
          .isInstanceOf(JpegException.class);
      byte[] garbage = jpeg.clone();
      for (int i = jpeg.length / 3; i < jpeg.length - 2; i += 7) {
        garbage[i] = (byte) (i * 31);
      }
      try {
        c.decodePlanes(ByteBuffer.wrap(garbage), 8, Idct.ACCURATE, dst, 0, new YccPlanes());
      } catch (JpegException expected) {
        // either outcome is fine: corrupt entropy data may decode to noise; what matters is no crash
      }
      ByteBuffer small = ByteBuffer.allocateDirect(h.width() * h.height()); // Y fits, chroma does not
      assertThatThrownBy(() -> c.decodePlanes(ByteBuffer.wrap(jpeg), 8, Idct.ACCURATE, small, 0, new YccPlanes()))
          .isInstanceOf(JpegException.class).hasMessageContaining("too small");
      // the handle still works after every failure
      YccPlanes layout = new YccPlanes();
      c.decodePlanes(ByteBuffer.wrap(jpeg), 8, Idct.ACCURATE, dst, 0, layout);
      assertThat(layout.width()).isEqualTo(h.width());
    }
  }

  /** Planes of a real image, the 4:2:0 ones {@link YccConversion} makes from its RGB decode. */
  private static ByteBuffer planes420(byte[] rgb, int w, int h, int offset, boolean direct) {
    int n = new YccPlanes().set420(w, h).totalBytes();
    ByteBuffer planes = direct ? ByteBuffer.allocateDirect(offset + n) : ByteBuffer.allocate(offset + n);
    YccConversion.rgbToPlanes420(ByteBuffer.wrap(rgb), 0, w, h, planes, offset);
    return planes;
  }

  @Test
  void nativePlaneEncodeMatchesTheRgbEncodeOfTheSamePixels() {
    // libjpeg's own RGB encode converts with the same formulas and averages chroma 2x2 (rounding alternately
    // down and up where YccConversion rounds half up): the two JPEGs decode to all but the same pixels
    try (JpegCodec c = codec(true)) {
      byte[] jpeg = TestImages.image("texture-420.jpg");
      JpegHeader h = header(c, jpeg);
      byte[] rgb = rgb(c, jpeg, 8);
      int w = h.width();
      int ht = h.height();
      ByteBuffer planes = planes420(rgb, w, ht, 5, true);
      ByteBuffer a = ByteBuffer.allocateDirect(JpegCodec.maxEncodedSize(w, ht));
      int na = c.encodePlanes(planes, 5, w, ht, 90, a, 0);
      ByteBuffer b = ByteBuffer.allocateDirect(JpegCodec.maxEncodedSize(w, ht));
      int nb = c.encode(ByteBuffer.wrap(rgb), 0, w, ht, 90, ChromaSubsampling.S420, b, 0);
      byte[] fromPlanes = rgb(c, TestImages.bytes(a, 0, na), 8);
      byte[] fromRgb = rgb(c, TestImages.bytes(b, 0, nb), 8);
      double[] d = TestImages.diff(fromPlanes, fromRgb);
      assertThat(d[1]).as("mean " + Arrays.toString(d)).isLessThan(0.5);
      assertThat(TestImages.psnr(fromPlanes, fromRgb)).isGreaterThan(45);
      assertThat(Math.abs(na - nb)).as("sizes %d vs %d", na, nb).isLessThan(nb / 50);
      JpegHeader out = header(c, TestImages.bytes(a, 0, na));
      assertThat(out.subsampling()).isEqualTo(ChromaSubsampling.S420);
      assertThat(out.colorSpace()).isEqualTo(JpegColorSpace.YCBCR);
    }
  }

  @ParameterizedTest(name = "native={0}")
  @ValueSource(booleans = {true, false})
  void oddAndTinySizesEncodeWithTheirEdgesRepeated(boolean nativeCodec) {
    byte[] source = TestImages.image("texture-420.jpg");
    try (JpegCodec c = codec(nativeCodec)) {
      JpegHeader h = header(c, source);
      byte[] full = rgb(c, source, 8);
      for (int[] size : new int[][] {{1, 1}, {2, 1}, {17, 9}, {33, 31}, {16, 16}, {47, 18}}) {
        int w = size[0];
        int ht = size[1];
        byte[] rgb = TestImages.crop(full, h.width(), 3, 5, w, ht);
        for (boolean direct : new boolean[] {true, false}) {
          ByteBuffer planes = planes420(rgb, w, ht, 3, direct);
          ByteBuffer dst = direct ? ByteBuffer.allocateDirect(JpegCodec.maxEncodedSize(w, ht) + 11)
              : ByteBuffer.allocate(JpegCodec.maxEncodedSize(w, ht) + 11);
          int n = c.encodePlanes(planes, 3, w, ht, 95, dst, 11);
          byte[] back = rgb(c, TestImages.bytes(dst, 11, n), 8);
          byte[] expected = planesAsRgb(planes, 3, new YccPlanes().set420(w, ht));
          assertThat(back.length).isEqualTo(w * ht * 3);
          assertThat(TestImages.psnr(back, expected)).as(w + "x" + ht + " direct=" + direct).isGreaterThan(30);
        }
      }
    }
  }

  @ParameterizedTest(name = "native={0}")
  @ValueSource(booleans = {true, false})
  void planeEncodeArgumentsAreChecked(boolean nativeCodec) {
    try (JpegCodec c = codec(nativeCodec)) {
      ByteBuffer planes = ByteBuffer.allocateDirect(new YccPlanes().set420(16, 16).totalBytes());
      ByteBuffer dst = ByteBuffer.allocateDirect(JpegCodec.maxEncodedSize(16, 16));
      assertThatThrownBy(() -> c.encodePlanes(planes, 0, 17, 16, 90, dst, 0))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("need");
      assertThatThrownBy(() -> c.encodePlanes(planes, 1, 16, 16, 90, dst, 0))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> c.encodePlanes(planes, 0, 16, 16, 0, dst, 0))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("quality");
      assertThatThrownBy(() -> c.encodePlanes(planes, 0, 0, 16, 90, dst, 0))
          .isInstanceOf(IllegalArgumentException.class);
      ByteBuffer tiny = ByteBuffer.allocateDirect(40);
      assertThatThrownBy(() -> c.encodePlanes(planes, 0, 16, 16, 90, tiny, 0)).isInstanceOf(JpegException.class);
      assertThat(c.encodePlanes(planes, 0, 16, 16, 90, dst, 0)).isPositive();
    }
  }
}
