package org.sparkbeton.codec.resize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.sparkbeton.codec.nativeimpl.NativeLibrary;

/** {@link Resizer#areaPlane}: explicit scales, windows cut by the far edge, Java and native alike. */
class ResizerAreaPlaneTest {
  private static ByteBuffer plane(int w, int h, long seed, boolean direct) {
    ByteBuffer b = direct ? ByteBuffer.allocateDirect(w * h) : ByteBuffer.allocate(w * h);
    Random r = new Random(seed);
    for (int y = 0; y < h; y++) {
      for (int x = 0; x < w; x++) {
        // smooth with noise on top, like a chroma plane
        b.put(y * w + x, (byte) Math.min(255, Math.max(0, 128 + 60 * Math.sin(x / 7.0) + 40 * Math.cos(y / 5.0)
            + r.nextInt(21) - 10)));
      }
    }
    return b;
  }

  private static byte[] area(Resizer r, ByteBuffer src, int w, int h, double sx, double sy, int outW, int outH,
      boolean direct) {
    ByteBuffer dst = direct ? ByteBuffer.allocateDirect(outW * outH) : ByteBuffer.allocate(outW * outH);
    r.areaPlane(src, 0, w, w, h, sx, sy, dst, 0, outW, outW, outH);
    byte[] out = new byte[outW * outH];
    dst.get(0, out);
    return out;
  }

  @Test
  void handComputedWindows() {
    for (boolean nativeToo : new boolean[] {false, true}) {
      if (nativeToo) {
        assumeTrue(NativeLibrary.isAvailable(), "native library not loaded");
      }
      Resizer r = new Resizer(nativeToo);
      ByteBuffer src = nativeToo ? ByteBuffer.allocateDirect(3) : ByteBuffer.allocate(3);
      src.put(0, (byte) 0).put(1, (byte) 30).put(2, (byte) 60);
      // 1.5 source pixels per output: (0 + 30 * 0.5) / 1.5 = 10 and (30 * 0.5 + 60) / 1.5 = 50
      assertThat(area(r, src, 3, 1, 1.5, 1, 2, 1, nativeToo)).containsExactly(10, 50);
      // 1.2 per output, 2 outputs: (30 * 0.2) / 1.2 = 5 and (30 * 0.8 + 60 * 0.4) / 1.2 = 40; the last 0.6 pixel
      // is outside both windows
      assertThat(area(r, src, 3, 1, 1.2, 1, 2, 1, nativeToo)).containsExactly(5, 40);
      // 2 per output: (0 + 30) / 2 = 15, then [2, 4) is cut to [2, 3): sample 2 alone, its whole weight
      assertThat(area(r, src, 3, 1, 2, 1, 2, 1, nativeToo)).containsExactly(15, 60);
      // 2.5: (0 + 30 + 60 * 0.5) / 2.5 = 24 and [2.5, 5) cut to [2.5, 3): 60 alone
      assertThat(area(r, src, 3, 1, 2.5, 1, 2, 1, nativeToo)).containsExactly(24, 60);
    }
  }

  @Test
  void theSizesRatioGivesResizePlanesBytes() {
    Resizer java = new Resizer(false);
    ByteBuffer src = plane(223, 186, 1, false);
    byte[] a = area(java, src, 223, 186, 223 / 128.0, 186 / 106.0, 128, 106, false);
    ByteBuffer dst = ByteBuffer.allocate(128 * 106);
    java.resizePlane(src, 0, 223, 0, 0, 223, 186, dst, 0, 128, 128, 106);
    assertThat(a).isEqualTo(dst.array());
  }

  @Test
  void javaAndNativeAgreeOnFractionalScalesAndCutWindows() {
    assumeTrue(NativeLibrary.isAvailable(), "native library not loaded");
    Resizer java = new Resizer(false);
    Resizer nat = new Resizer(true);
    // chroma of odd luma sides: 371 rows -> 186 chroma rows, shrunk by the luma ratio 371/212 to 106
    // and windows the far edge cuts: odd target sides (213 rows -> 107 chroma rows at 371/213), 1/8 decodes
    int[][] cases = {{223, 186, 128, 106}, {167, 106, 128, 81}, {129, 128, 128, 127}, {64, 48, 1, 1}, {5, 3, 2, 2},
        {300, 17, 31, 9}, {223, 186, 128, 107}, {63, 42, 30, 20}, {129, 128, 64, 64}};
    double[][] scales = {{446.0 / 256, 371.0 / 212}, {333.0 / 256, 211.0 / 162}, {257.0 / 256, 255.0 / 254},
        {64, 48}, {2.5, 1.6}, {9.7, 1.9}, {446.0 / 256, 371.0 / 213}, {2.1, 2.0 * 42 / 39}, {257.0 / 128, 255.0 / 127}};
    for (int i = 0; i < cases.length; i++) {
      int[] c = cases[i];
      byte[] a = area(java, plane(c[0], c[1], i, false), c[0], c[1], scales[i][0], scales[i][1], c[2], c[3], false);
      byte[] b = area(nat, plane(c[0], c[1], i, true), c[0], c[1], scales[i][0], scales[i][1], c[2], c[3], true);
      assertThat(b).as("case %d", i).isEqualTo(a);
    }
  }

  @Test
  void scalesThatLeaveAnOutputWithoutSourceAreRefused() {
    Resizer r = new Resizer();
    ByteBuffer src = plane(10, 10, 3, true);
    ByteBuffer dst = ByteBuffer.allocateDirect(100);
    assertThatThrownBy(() -> r.areaPlane(src, 0, 10, 10, 10, 0.9, 1, dst, 0, 10, 10, 10))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Bad area scales");
    // the fourth window would start at 3 * 4 = 12, past the 10-pixel side
    assertThatThrownBy(() -> r.areaPlane(src, 0, 10, 10, 10, 4, 1, dst, 0, 4, 4, 2))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("start inside");
    assertThatThrownBy(() -> r.areaPlane(src, 0, 10, 10, 10, 11, 1, dst, 0, 1, 1, 1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
