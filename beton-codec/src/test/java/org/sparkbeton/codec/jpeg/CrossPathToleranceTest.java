package org.sparkbeton.codec.jpeg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.sparkbeton.codec.TestImages;

/**
 * The same vectors through both paths (lz4-java style): the Java path must stay within the documented
 * tolerance of the native fast-IDCT pixels (which are FFCV's). Numbers here are the ones in the README.
 */
class CrossPathToleranceTest {
  /** Full decode, Java (ImageIO accurate IDCT) vs native fast IDCT. */
  static final int FULL_MAX = 8;
  static final double FULL_MEAN = 1.5;
  /** A box at 8/8: the IDCT difference plus libjpeg-turbo's crop-edge upsampling (see NativeJpegCodecTest). */
  static final int REGION_MAX = 16;
  /** DCT-scaled decode: libjpeg's reduced IDCT vs the Java path's area-averaging emulation. */
  static final int SCALED_MAX = 40;
  static final double SCALED_MEAN = 8.0;

  @BeforeAll
  static void nativeLoaded() {
    assumeTrue(NativeJpegCodec.isAvailable(), "native library not loaded");
  }

  static byte[] decode(JpegCodec c, byte[] jpeg, int scale) {
    JpegHeader h = new JpegHeader();
    c.probe(ByteBuffer.wrap(jpeg), h);
    int n = JpegGeometry.scaledDim(h.width(), scale) * JpegGeometry.scaledDim(h.height(), scale) * 3;
    ByteBuffer dst = ByteBuffer.allocateDirect(n);
    c.decode(ByteBuffer.wrap(jpeg), scale, Idct.FAST, dst, 0);
    return TestImages.bytes(dst, 0, n);
  }

  @Test
  void goldenJpegsDecodeWithinToleranceOnTheJavaPath() {
    double worstMax = 0;
    double worstMean = 0;
    try (JpegCodec nat = new NativeJpegCodec(); JpegCodec java = new JavaJpegCodec()) {
      for (TestImages.Golden g : TestImages.golden()) {
        byte[] a = decode(nat, g.bytes(), 8);
        byte[] b = decode(java, g.bytes(), 8);
        assertThat(TestImages.sha256(a)).isEqualTo(g.rgbSha256());
        double[] d = TestImages.diff(a, b);
        assertThat(d[0]).as(g.name() + " max").isLessThanOrEqualTo(FULL_MAX);
        assertThat(d[1]).as(g.name() + " mean").isLessThanOrEqualTo(FULL_MEAN);
        worstMax = Math.max(worstMax, d[0]);
        worstMean = Math.max(worstMean, d[1]);
      }
    }
    System.out.printf("golden, Java vs native fast IDCT: worst max %.0f, worst mean %.3f%n", worstMax, worstMean);
    assertThat(worstMax).as("the paths really differ (different IDCTs)").isGreaterThan(0);
  }

  @Test
  void scaledAndRegionDecodesWithinToleranceOnTheJavaPath() {
    Random rnd = new Random(7L);
    String[] files = {"texture-420.jpg", "texture-444.jpg", "texture-progressive.jpg"};
    double worstMax = 0;
    double worstMean = 0;
    try (JpegCodec nat = new NativeJpegCodec(); JpegCodec java = new JavaJpegCodec()) {
      for (int i = 0; i < 24; i++) {
        byte[] jpeg = TestImages.image(files[i % 3]);
        int w = 40 + rnd.nextInt(294);
        int h = 40 + rnd.nextInt(212);
        int x = rnd.nextInt(333 - w + 1);
        int y = rnd.nextInt(251 - h + 1);
        int m = new int[] {2, 4, 8}[rnd.nextInt(3)];
        long box = JpegGeometry.scaledBox(333, 251, x, y, w, h, m);
        int n = ImageSize.rgbBytes(box);
        ByteBuffer da = ByteBuffer.allocateDirect(n);
        ByteBuffer db = ByteBuffer.allocateDirect(n);
        assertThat(nat.decodeRegion(ByteBuffer.wrap(jpeg), x, y, w, h, m, Idct.FAST, da, 0)).isEqualTo(box);
        assertThat(java.decodeRegion(ByteBuffer.wrap(jpeg), x, y, w, h, m, Idct.FAST, db, 0)).isEqualTo(box);
        double[] d = TestImages.diff(TestImages.bytes(da, 0, n), TestImages.bytes(db, 0, n));
        String what = String.format("%s %d,%d %dx%d at %d/8", files[i % 3], x, y, w, h, m);
        int maxTol = m == 8 ? REGION_MAX : SCALED_MAX;
        double meanTol = m == 8 ? FULL_MEAN : SCALED_MEAN;
        assertThat(d[0]).as(what + " max").isLessThanOrEqualTo(maxTol);
        assertThat(d[1]).as(what + " mean").isLessThanOrEqualTo(meanTol);
        if (m < 8) {
          worstMax = Math.max(worstMax, d[0]);
          worstMean = Math.max(worstMean, d[1]);
        }
      }
    }
    System.out.printf("scaled regions, Java vs native: worst max %.0f, worst mean %.3f%n", worstMax, worstMean);
  }
}
