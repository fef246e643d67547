package org.sparkbeton.codec.resize;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.sparkbeton.codec.TestImages;
import org.sparkbeton.codec.nativeimpl.NativeLibrary;

/**
 * The fixed-point {@link Resizer} against a straightforward double-precision reference of the same
 * semantics (area: overlap-weighted mean of the footprint; bilinear: half-pixel centres, clamped edges),
 * before any rounding: every output byte must be within 1 level of the exact value. Java and native twins
 * run the same boxes, and on the AVX2 and SSE2 paths, and must agree byte for byte.
 */
class ResizerAccuracyTest {

  /** Exact INTER_AREA of the box, no rounding: out[(oy * outW + ox) * 3 + c]. */
  static double[] referenceArea(byte[] img, int stride, int x, int y, int w, int h, int outW, int outH) {
    double sx = (double) w / outW;
    double sy = (double) h / outH;
    double[] out = new double[outW * outH * 3];
    for (int oy = 0; oy < outH; oy++) {
      for (int ox = 0; ox < outW; ox++) {
        double[] sum = new double[3];
        for (int j = (int) Math.floor(oy * sy); j < Math.min(h, Math.ceil((oy + 1) * sy)); j++) {
          double cy = Math.min((oy + 1) * sy, j + 1) - Math.max(oy * sy, j);
          for (int i = (int) Math.floor(ox * sx); i < Math.min(w, Math.ceil((ox + 1) * sx)); i++) {
            double cx = Math.min((ox + 1) * sx, i + 1) - Math.max(ox * sx, i);
            for (int c = 0; c < 3; c++) {
              sum[c] += cx * cy * (img[(y + j) * stride + (x + i) * 3 + c] & 0xFF);
            }
          }
        }
        for (int c = 0; c < 3; c++) {
          out[(oy * outW + ox) * 3 + c] = sum[c] / (sx * sy);
        }
      }
    }
    return out;
  }

  /** Exact bilinear of the box with half-pixel centres, edges clamped (OpenCV INTER_LINEAR), no rounding. */
  static double[] referenceBilinear(byte[] img, int stride, int x, int y, int w, int h, int outW, int outH) {
    double[] out = new double[outW * outH * 3];
    for (int oy = 0; oy < outH; oy++) {
      double fy = Math.max(0, Math.min(h - 1, (oy + 0.5) * h / outH - 0.5));
      int y0 = (int) Math.floor(fy);
      int y1 = Math.min(y0 + 1, h - 1);
      double b = fy - y0;
      for (int ox = 0; ox < outW; ox++) {
        double fx = Math.max(0, Math.min(w - 1, (ox + 0.5) * w / outW - 0.5));
        int x0 = (int) Math.floor(fx);
        int x1 = Math.min(x0 + 1, w - 1);
        double a = fx - x0;
        for (int c = 0; c < 3; c++) {
          double p00 = img[(y + y0) * stride + (x + x0) * 3 + c] & 0xFF;
          double p01 = img[(y + y0) * stride + (x + x1) * 3 + c] & 0xFF;
          double p10 = img[(y + y1) * stride + (x + x0) * 3 + c] & 0xFF;
          double p11 = img[(y + y1) * stride + (x + x1) * 3 + c] & 0xFF;
          out[(oy * outW + ox) * 3 + c] =
              (1 - b) * ((1 - a) * p00 + a * p01) + b * ((1 - a) * p10 + a * p11);
        }
      }
    }
    return out;
  }

  /** A smooth, photo-like image: low-frequency gradients and blobs, a few edges, mild noise. */
  static byte[] photoLike(int w, int h, long seed) {
    Random rnd = new Random(seed);
    double[] f = new double[9];
    for (int i = 0; i < f.length; i++) {
      f[i] = rnd.nextDouble();
    }
    byte[] img = new byte[w * h * 3];
    for (int y = 0; y < h; y++) {
      for (int x = 0; x < w; x++) {
        double u = (double) x / w;
        double v = (double) y / h;
        for (int c = 0; c < 3; c++) {
          double val = 128 + 90 * Math.sin(6 * u * (1 + f[c]) + 4 * v * f[c + 3] + f[c + 6] * 6)
              + (u + v > 1 + 0.3 * f[c] ? 40 : -20) + rnd.nextGaussian() * 6;
          img[(y * w + x) * 3 + c] = (byte) Math.max(0, Math.min(255, (int) Math.round(val)));
        }
      }
    }
    return img;
  }

  /** {max, mean} of |out - exact| over all bytes. */
  static double[] error(ByteBuffer out, int offset, double[] exact) {
    double max = 0;
    double sum = 0;
    for (int i = 0; i < exact.length; i++) {
      double d = Math.abs((out.get(offset + i) & 0xFF) - exact[i]);
      max = Math.max(max, d);
      sum += d;
    }
    return new double[] {max, sum / exact.length};
  }

  @Test
  void withinOneLevelOfTheExactResizeOnRandomAndPhotoLikeData() {
    Resizer java = new Resizer(false);
    int width = 333;
    int height = 251;
    byte[][] images = {new byte[width * height * 3], photoLike(width, height, 3L)};
    new Random(7L).nextBytes(images[0]);
    String[] names = {"random", "photo-like"};
    Random rnd = new Random(13L);
    for (int im = 0; im < images.length; im++) {
      ByteBuffer src = ByteBuffer.wrap(images[im]);
      double worst = 0;
      double meanSum = 0;
      int cases = 150;
      for (int i = 0; i < cases; i++) {
        int w = 1 + rnd.nextInt(width);
        int h = 1 + rnd.nextInt(height);
        int x = rnd.nextInt(width - w + 1);
        int y = rnd.nextInt(height - h + 1);
        // half the cases shrink on both axes (area), the rest bilinear
        int ow = i % 2 == 0 ? 1 + rnd.nextInt(w) : 1 + rnd.nextInt(300);
        int oh = i % 2 == 0 ? 1 + rnd.nextInt(h) : 1 + rnd.nextInt(300);
        ByteBuffer out = ByteBuffer.allocate(ow * oh * 3 + 2);
        java.resize(src, 0, width * 3, x, y, w, h, out, 2, ow, oh);
        double[] exact = w >= ow && h >= oh
            ? referenceArea(images[im], width * 3, x, y, w, h, ow, oh)
            : referenceBilinear(images[im], width * 3, x, y, w, h, ow, oh);
        double[] e = error(out, 2, exact);
        assertThat(e[0]).as("%s box %d,%d %dx%d -> %dx%d", names[im], x, y, w, h, ow, oh).isLessThanOrEqualTo(1.0);
        worst = Math.max(worst, e[0]);
        meanSum += e[1];
      }
      // rounding alone gives a mean of 0.25 on smooth data; the fixed-point weights add little to it
      assertThat(meanSum / cases).as(names[im]).isLessThan(0.27);
      System.out.printf(Locale.ROOT, "Resizer vs exact, %s, %d boxes: max %.3f, mean %.4f%n", names[im], cases, worst,
          meanSum / cases);
    }
  }

  /** Large shrinks have many small taps per output: their rounding errors must still stay below a level. */
  @Test
  void largeShrinksStayWithinOneLevel() {
    Resizer java = new Resizer(false);
    int width = 2400;
    int height = 700;
    byte[] img = new byte[width * height * 3];
    new Random(17L).nextBytes(img);
    // a worst case for weight rounding: columns alternate 0 and 255
    for (int i = 0; i < img.length; i += 3) {
      if ((i / 3) % 2 == 0) {
        img[i] = 0;
      } else {
        img[i] = (byte) 255;
      }
    }
    int[][] sizes = {{2400, 700, 7, 3}, {2400, 700, 37, 11}, {2400, 700, 299, 97}, {1001, 699, 13, 350}};
    for (int[] s : sizes) {
      ByteBuffer out = ByteBuffer.allocate(s[2] * s[3] * 3);
      java.area(ByteBuffer.wrap(img), 0, width * 3, 0, 0, s[0], s[1], out, 0, s[2], s[3]);
      double[] e = error(out, 0, referenceArea(img, width * 3, 0, 0, s[0], s[1], s[2], s[3]));
      assertThat(e[0]).as("%dx%d -> %dx%d", s[0], s[1], s[2], s[3]).isLessThanOrEqualTo(1.0);
    }
  }

  @Test
  void weightsOfEveryOutputSumToOne() {
    double[] w = {0.3, 0.3, 0.3, 0.1};
    int[] q = new int[6];
    Resizer.quantize(w, 4, 14, q, 2);
    // 4915.2 -> 4915 (three times), 1638.4 -> 1638; the remainder 1 goes to the first largest
    assertThat(q).containsExactly(0, 0, 4916, 4915, 4915, 1638);
    assertThat(Resizer.areaPrecision(1.99, Resizer.MAX_PREC_X)).isEqualTo(14);
    assertThat(Resizer.areaPrecision(2.0, Resizer.MAX_PREC_X)).isEqualTo(15);
    assertThat(Resizer.areaPrecision(5.5, Resizer.MAX_PREC_X)).isEqualTo(16);
    assertThat(Resizer.areaPrecision(300, Resizer.MAX_PREC_X)).isEqualTo(16);
    assertThat(Resizer.areaPrecision(300, Resizer.MAX_PREC_Y)).isEqualTo(22);
  }

  @Test
  void nativeTwinMatchesJavaOnLargeShrinksAndPhotoLikeData() {
    org.junit.jupiter.api.Assumptions.assumeTrue(NativeLibrary.isAvailable(), "native library not loaded");
    for (String path : new String[] {"default", "avx2", "sse2"}) {
      if (path.equals("avx2") && !Resizer.avx2Only(true) || path.equals("sse2") && !Resizer.sse2Only(true)) {
        continue;
      }
      try {
        Resizer java = new Resizer(false);
        Resizer nat = new Resizer(true);
        int width = 1500;
        int height = 900;
        byte[] img = photoLike(width, height, 5L);
        ByteBuffer src = TestImages.direct(img);
        int[][] sizes = {{1500, 900, 7, 5}, {1500, 900, 224, 224}, {1500, 900, 61, 899}, {1499, 37, 3, 1},
            {446, 371, 256, 212}, {150, 130, 224, 224}, {1500, 2, 300, 1}};
        for (int[] s : sizes) {
          ByteBuffer a = ByteBuffer.allocateDirect(s[2] * s[3] * 3);
          ByteBuffer b = ByteBuffer.allocateDirect(s[2] * s[3] * 3);
          java.resize(src, 0, width * 3, 0, 0, s[0], s[1], a, 0, s[2], s[3]);
          nat.resize(src, 0, width * 3, 0, 0, s[0], s[1], b, 0, s[2], s[3]);
          assertThat(TestImages.bytes(b, 0, b.capacity())).as("%s path: %dx%d -> %dx%d", path, s[0], s[1], s[2], s[3])
              .isEqualTo(TestImages.bytes(a, 0, a.capacity()));
        }
      } finally {
        Resizer.avx2Only(false);
        Resizer.sse2Only(false);
      }
    }
  }
}
