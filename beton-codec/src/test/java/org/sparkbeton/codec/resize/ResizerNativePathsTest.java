package org.sparkbeton.codec.resize;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.sparkbeton.codec.TestImages;
import org.sparkbeton.codec.nativeimpl.NativeLibrary;

/**
 * The native twin against Java, byte for byte on its AVX-512, AVX2 and SSE2 paths, on the shapes its SIMD code
 * treats apart (resize_vertical.c, resize_rgb.c): every tap count T the horizontal pass specialises (2, 4, 6) and general ones (8 and
 * more), at output widths around its blocks of 8 pixels (the last block of a row goes through a buffer); and
 * every vertical form (windows of one or two rows and of three rows summed as differences from one row, of 4
 * to 6 rows in unrolled pairs, of more in a loop, and bilinear rows) at row lengths around its 16- and
 * 32-element steps, below which the SSE2 and scalar loops run. Each test also checks that its sizes reach
 * every one of those cases.
 */
class ResizerNativePathsTest {
  static final int WIDTH = 480;
  static final int HEIGHT = 80;

  final Resizer java = new Resizer(false);
  final Resizer nat = new Resizer(true);
  final ByteBuffer src = TestImages.direct(randomImage());

  static byte[] randomImage() {
    byte[] img = new byte[WIDTH * HEIGHT * 3];
    new Random(31L).nextBytes(img);
    return img;
  }

  /** The most source pixels any output window of an area resize from {@code full} to {@code out} covers. */
  static int widestWindow(int full, int out) {
    double s = (double) full / out;
    int most = 0;
    for (int o = 0; o < out; o++) {
      most = Math.max(most, windowSize(o, s, full));
    }
    return most;
  }

  /** The source pixels output window {@code o} covers (Resizer.areaTaps). */
  static int windowSize(int o, double s, int full) {
    double f0 = o * s;
    double f1 = (o + 1) * s;
    int n = 0;
    for (int i = (int) f0; i < Math.min(full, (int) Math.ceil(f1 - 1e-9)); i++) {
      if (Math.min(f1, i + 1) - Math.max(f0, i) > 1e-9) {
        n++;
      }
    }
    return n;
  }

  @Test
  void everyTapCountAroundTheBlocksOfEight() {
    Assumptions.assumeTrue(NativeLibrary.isAvailable(), "native library not loaded");
    TreeSet<Integer> tapCounts = new TreeSet<>();
    double[] scales = {1.0, 2.0, 3.0, 1.3, 2.6, 3.4, 4.3, 5.3, 9.4};
    int[] widths = new int[38];
    for (int i = 0; i < 34; i++) {
      widths[i] = i + 1;
    }
    widths[34] = 40;
    widths[35] = 47;
    widths[36] = 48;
    widths[37] = 49;
    for (double s : scales) {
      for (int ow : widths) {
        int w = (int) Math.round(ow * s);
        tapCounts.add((widestWindow(w, ow) + 1) & ~1);
        assertTwinsAgree(0, 0, w, 9, ow, 5);
      }
    }
    // bilinear, T = 2: an upscale, and a shrink on one axis only
    for (int ow : widths) {
      assertTwinsAgree(0, 0, Math.max(1, ow * 2 / 3), 5, ow, 7);
      assertTwinsAgree(0, 0, ow + 3, 5, ow, 7);
    }
    assertThat(tapCounts).contains(2, 4, 6, 8).anyMatch(t -> t >= 10);
  }

  @Test
  void everyRowCountAroundTheVectorSteps() {
    Assumptions.assumeTrue(NativeLibrary.isAvailable(), "native library not loaded");
    TreeSet<Integer> rowCounts = new TreeSet<>();
    // rows of 3 * w elements: 15 and 30 stay below the AVX2 path, the others end at every offset of its steps
    int[] boxWidths = {5, 10, 11, 12, 16, 17, 21, 22, 27, 32, 43, 75};
    double[] scales = {1.0, 1.3, 1.5, 1.75, 2.0, 2.5, 3.5, 4.5, 5.5, 7.5};
    int[] heights = {1, 2, 3, 7};
    for (double s : scales) {
      for (int oh : heights) {
        int h = (int) Math.round(oh * s);
        for (int o = 0; o < oh; o++) {
          rowCounts.add(windowSize(o, (double) h / oh, h));
        }
        for (int w : boxWidths) {
          assertTwinsAgree(7, 3, w, h, Math.max(1, w * 3 / 4), oh);
        }
      }
    }
    // bilinear rows: upscaled, or shrunk while the columns are upscaled
    for (int w : boxWidths) {
      assertTwinsAgree(7, 3, w, 4, w, 7);
      assertTwinsAgree(7, 3, w, 9, w + 5, 4);
    }
    assertThat(rowCounts).contains(1, 2, 3, 4, 5, 6).anyMatch(n -> n >= 7);
  }

  /**
   * Java and the native paths (AVX-512 and AVX2 where the CPU has them, SSE2) resize the box alike: the native
   * twin runs with no cap, capped at AVX2, and capped at SSE2.
   */
  private void assertTwinsAgree(int x, int y, int w, int h, int ow, int oh) {
    ByteBuffer want = ByteBuffer.allocateDirect(ow * oh * 3);
    java.resize(src, 0, WIDTH * 3, x, y, w, h, want, 0, ow, oh);
    byte[] expected = TestImages.bytes(want, 0, want.capacity());
    for (String path : new String[] {"default", "avx2", "sse2"}) {
      if (path.equals("avx2") && !Resizer.avx2Only(true) || path.equals("sse2") && !Resizer.sse2Only(true)) {
        continue;
      }
      try {
        ByteBuffer got = ByteBuffer.allocateDirect(ow * oh * 3);
        nat.resize(src, 0, WIDTH * 3, x, y, w, h, got, 0, ow, oh);
        assertThat(TestImages.bytes(got, 0, got.capacity())).as("%s path: box %d,%d %dx%d -> %dx%d", path, x, y, w,
            h, ow, oh).isEqualTo(expected);
      } finally {
        Resizer.avx2Only(false);
        Resizer.sse2Only(false);
      }
    }
  }
}
