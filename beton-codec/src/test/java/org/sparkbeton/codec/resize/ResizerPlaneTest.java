package org.sparkbeton.codec.resize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.sparkbeton.codec.nativeimpl.NativeLibrary;

/**
 * {@link Resizer#resizePlane}: each plane resized alone must be exactly that channel of the RGB resize (Java twin)
 * of the planes interleaved, on every path (Java on heap and direct buffers; native on its AVX2 and SSE2 code),
 * with boxes inside larger planes, strides wider than the rows on both sides and non-zero offsets; the bytes
 * between output rows and around them stay untouched. The native path is also swept over the shapes its plane
 * horizontal pass treats apart (tap counts 2, 4, 8 and more, output widths around its blocks of 8 pixels), and
 * its own bound checks are exercised with arguments the Java checks would refuse.
 */
class ResizerPlaneTest {
  /** Where a plane resize runs. */
  enum Path {
    JAVA_HEAP(false, false, false),
    JAVA_DIRECT(false, true, false),
    /** a native-enabled resizer given heap buffers takes the Java code */
    NATIVE_RESIZER_HEAP(true, false, false),
    NATIVE(true, true, false),
    NATIVE_SSE2(true, true, true);

    final boolean allowNative;
    final boolean direct;
    final boolean sse2;

    Path(boolean allowNative, boolean direct, boolean sse2) {
      this.allowNative = allowNative;
      this.direct = direct;
      this.sse2 = sse2;
    }

    /** skips the test where this path cannot run (no library; no SIMD paths in it) */
    void assume() {
      if (allowNative) {
        Assumptions.assumeTrue(NativeLibrary.isAvailable(), "native library not loaded");
      }
      if (sse2) {
        Assumptions.assumeTrue(Resizer.sse2Only(true), "no SIMD paths in this build");
        Resizer.sse2Only(false);
      }
    }
  }

  /** {w, h, outW, outH}: one pixel, odd sizes, shrinks by 2x, >2x, >8x, ~20x, upscales, one axis each way. */
  static final int[][] SIZES = {
      {1, 1, 1, 1}, {1, 1, 3, 2}, {7, 1, 1, 1}, {1, 9, 1, 1}, {1, 40, 1, 13}, {33, 1, 17, 1}, {5, 3, 2, 2},
      {97, 61, 37, 23}, {446, 371, 256, 212}, {223, 186, 128, 106}, {128, 96, 64, 48}, {300, 200, 100, 50},
      {200, 180, 23, 19}, {640, 480, 33, 29}, {64, 64, 64, 64}, {17, 9, 16, 9}, {150, 130, 224, 224},
      {31, 17, 62, 34}, {100, 50, 60, 80}, {40, 90, 70, 30}, {3, 2, 9, 1}};
  static final int PLANE_W = 647;
  static final int PLANE_H = 487;
  static final byte SENTINEL = (byte) 0x5A;

  final Resizer java = new Resizer(false);

  /** Three planes of PLANE_W x PLANE_H bytes: "photo" is photo-like, "random" random, "edges" 0/255 stripes. */
  static byte[][] planes(String content) {
    byte[][] p = new byte[3][PLANE_W * PLANE_H];
    switch (content) {
      case "photo" -> {
        byte[] rgb = ResizerAccuracyTest.photoLike(PLANE_W, PLANE_H, 19L);
        for (int i = 0; i < PLANE_W * PLANE_H; i++) {
          for (int c = 0; c < 3; c++) {
            p[c][i] = rgb[3 * i + c];
          }
        }
      }
      case "random" -> {
        Random rnd = new Random(29L);
        for (byte[] plane : p) {
          rnd.nextBytes(plane);
        }
      }
      case "edges" -> {
        for (int i = 0; i < PLANE_W * PLANE_H; i++) {
          int x = i % PLANE_W;
          int y = i / PLANE_W;
          p[0][i] = (byte) (x % 2 == 0 ? 0 : 255);
          p[1][i] = (byte) (y % 2 == 0 ? 255 : 0);
          p[2][i] = (byte) ((x / 3 + y / 2) % 2 == 0 ? 255 : 0);
        }
      }
      default -> throw new IllegalArgumentException(content);
    }
    return p;
  }

  /** The planes interleaved as packed RGB, rows PLANE_W * 3 bytes apart. */
  static byte[] interleave(byte[][] p) {
    byte[] rgb = new byte[PLANE_W * PLANE_H * 3];
    for (int i = 0; i < PLANE_W * PLANE_H; i++) {
      for (int c = 0; c < 3; c++) {
        rgb[3 * i + c] = p[c][i];
      }
    }
    return rgb;
  }

  /** A plane stored from byte `offset` with rows `stride` bytes apart, the gaps filled with the sentinel. */
  static ByteBuffer store(byte[] plane, int offset, int stride, boolean direct) {
    int size = offset + (PLANE_H - 1) * stride + PLANE_W;
    ByteBuffer b = direct ? ByteBuffer.allocateDirect(size) : ByteBuffer.allocate(size);
    for (int i = 0; i < size; i++) {
      b.put(i, SENTINEL);
    }
    for (int y = 0; y < PLANE_H; y++) {
      b.put(offset + y * stride, plane, y * PLANE_W, PLANE_W);
    }
    return b;
  }

  static ByteBuffer sentinels(int size, boolean direct) {
    ByteBuffer b = direct ? ByteBuffer.allocateDirect(size) : ByteBuffer.allocate(size);
    for (int i = 0; i < size; i++) {
      b.put(i, SENTINEL);
    }
    return b;
  }

  /**
   * Resizes the box of each plane on `path` and compares it with channel c of the Java RGB resize of the same box:
   * source planes at offset 11 with 5 bytes of padding per row, outputs at offset 7, rows outW + 6 apart, in a
   * buffer that ends right after the last output byte; every other byte of it must keep the sentinel.
   */
  void assertPlanesAreChannels(Path path, Resizer plane, byte[][] planes, ByteBuffer rgb, int x, int y, int w,
      int h, int outW, int outH) {
    ByteBuffer want = ByteBuffer.allocate(outW * outH * 3);
    java.resize(rgb, 0, PLANE_W * 3, x, y, w, h, want, 0, outW, outH);
    int dstOffset = 7;
    int dstStride = outW + 6;
    for (int c = 0; c < 3; c++) {
      ByteBuffer src = store(planes[c], 11, PLANE_W + 5, path.direct);
      ByteBuffer dst = sentinels(dstOffset + (outH - 1) * dstStride + outW, path.direct);
      if (path.sse2) {
        Resizer.sse2Only(true);
      }
      try {
        plane.resizePlane(src, 11, PLANE_W + 5, x, y, w, h, dst, dstOffset, dstStride, outW, outH);
      } finally {
        if (path.sse2) {
          Resizer.sse2Only(false);
        }
      }
      for (int i = 0; i < dst.capacity(); i++) {
        int row = (i - dstOffset) / dstStride;
        int col = (i - dstOffset) % dstStride;
        boolean inside = i >= dstOffset && col < outW;
        byte expected = inside ? want.get((row * outW + col) * 3 + c) : SENTINEL;
        if (dst.get(i) != expected) {
          throw new AssertionError(String.format("%s: box %d,%d %dx%d -> %dx%d, plane %d: byte %d (%s) is %d, not %d",
              path, x, y, w, h, outW, outH, c, i, inside ? "pixel " + col + "," + row : "outside the output",
              dst.get(i) & 0xFF, expected & 0xFF));
        }
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Path.class)
  void eachPlaneIsThatChannelOfTheRgbResize(Path path) {
    path.assume();
    Resizer plane = new Resizer(path.allowNative);
    for (String content : new String[] {"photo", "random", "edges"}) {
      byte[][] planes = planes(content);
      ByteBuffer rgb = ByteBuffer.wrap(interleave(planes));
      for (int[] s : SIZES) {
        // the box at the plane's origin, and inside it, ending at its last row and column
        assertPlanesAreChannels(path, plane, planes, rgb, 0, 0, s[0], s[1], s[2], s[3]);
        assertPlanesAreChannels(path, plane, planes, rgb, PLANE_W - s[0], PLANE_H - s[1], s[0], s[1], s[2], s[3]);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Path.class)
  void randomBoxesAndSizes(Path path) {
    path.assume();
    Resizer plane = new Resizer(path.allowNative);
    byte[][] planes = planes("photo");
    ByteBuffer rgb = ByteBuffer.wrap(interleave(planes));
    Random rnd = new Random(37L);
    for (int i = 0; i < 60; i++) {
      int w = 1 + rnd.nextInt(PLANE_W);
      int h = 1 + rnd.nextInt(PLANE_H);
      int x = rnd.nextInt(PLANE_W - w + 1);
      int y = rnd.nextInt(PLANE_H - h + 1);
      // half shrink on both axes (area), the rest are bilinear
      int outW = i % 2 == 0 ? 1 + rnd.nextInt(w) : 1 + rnd.nextInt(300);
      int outH = i % 2 == 0 ? 1 + rnd.nextInt(h) : 1 + rnd.nextInt(300);
      assertPlanesAreChannels(path, plane, planes, rgb, x, y, w, h, outW, outH);
    }
  }

  /**
   * The native plane pass on the shapes it treats apart: pixel tap counts T = 2, 4, 8 (unrolled) and 12 (the
   * general loop), at output widths around its blocks of 8 pixels (pairs of blocks for the window loads, halves of
   * 4 for SSE2), area and bilinear; for T = 2 and 4 both with the AVX2 window loads (each group of 4 pixels
   * starting within 6 elements, see {@link #windowLoads}) and without (larger shrinks: broadcasts). Checks that
   * its sizes reach every one of those cases.
   */
  @ParameterizedTest
  @EnumSource(value = Path.class, names = {"NATIVE", "NATIVE_SSE2"})
  void everyTapCountAroundTheBlocksOfEight(Path path) {
    path.assume();
    Resizer plane = new Resizer(true);
    byte[][] planes = planes("random");
    ByteBuffer rgb = ByteBuffer.wrap(interleave(planes));
    TreeSet<String> kinds = new TreeSet<>();
    int[] widths = new int[38];
    for (int i = 0; i < 34; i++) {
      widths[i] = i + 1;
    }
    widths[34] = 40;
    widths[35] = 47;
    widths[36] = 48;
    widths[37] = 49;
    for (double s : new double[] {1.0, 2.0, 3.0, 1.3, 2.6, 4.3, 5.3, 9.4}) {
      for (int ow : widths) {
        int w = (int) Math.round(ow * s);
        int n = ResizerNativePathsTest.widestWindow(w, ow);
        int taps = n <= 2 ? 2 : (n + 3) & ~3; // the plane pass's T (taps_alloc)
        kinds.add("area T=" + taps + (taps <= 4 && windowLoads(w, ow, true) ? " windows" : ""));
        assertPlanesAreChannels(path, plane, planes, rgb, 3, 2, w, 9, ow, 5);
      }
    }
    // bilinear (T = 2): upscaled, and shrunk by 1.5x (windows) and 3x (broadcasts) while the rows are upscaled
    for (int ow : widths) {
      for (int w : new int[] {Math.max(1, ow * 2 / 3), ow + 3, 3 * ow + 1}) {
        kinds.add("bilinear" + (windowLoads(w, ow, false) ? " windows" : ""));
        assertPlanesAreChannels(path, plane, planes, rgb, 3, 2, w, 5, ow, 7);
      }
    }
    // (area windows of at most 2 columns step at most 2: T = 2 without window loads is bilinear only)
    assertThat(kinds).contains("area T=2 windows", "area T=4", "area T=4 windows", "area T=8", "area T=12",
        "bilinear", "bilinear windows");
  }

  /**
   * Whether the native plane pass takes its AVX2 window loads (resize_taps.c taps_done) for a row of w
   * resized to outW: in every group of 4 output pixels (8-pixel blocks, the last padded with the last pixel's
   * start) each pixel's first source column is 0 to 6 columns right of the group's first.
   */
  static boolean windowLoads(int w, int outW, boolean area) {
    int padded = (outW + 7) / 8 * 8;
    int[] start = new int[padded];
    double s = (double) w / outW;
    for (int o = 0; o < padded; o++) {
      if (o >= outW) {
        start[o] = start[outW - 1];
      } else if (area) {
        int i0 = (int) (o * s); // Resizer.areaTaps: the first column is left out if it covers less than 1e-9
        start[o] = Math.min((o + 1) * s, i0 + 1) - o * s > 1e-9 ? i0 : i0 + 1;
      } else {
        start[o] = Math.max(0, Math.min(w - 1, (int) Math.floor((o + 0.5) * s - 0.5)));
      }
    }
    for (int g = 0; g < padded; g += 4) {
      for (int k = 1; k < 4; k++) {
        int d = start[g + k] - start[g];
        if (d < 0 || d > 6) {
          return false;
        }
      }
    }
    return true;
  }

  @Test
  void areaAndBilinearValues() {
    // the 4x4 plane of ResizerTest.integerAreaIsTheBlockMean, from offset 2 with rows 6 bytes apart
    byte[] plane = {9, 9, 0, 10, 20, 30, 9, 9, 40, 50, 60, 70, 9, 9, 80, 90, 100, 110, 9, 9, 120, (byte) 130,
        (byte) 140, (byte) 151};
    ByteBuffer dst = ByteBuffer.allocate(3 + 2);
    java.resizePlane(ByteBuffer.wrap(plane), 2, 6, 0, 0, 4, 4, dst, 0, 3, 2, 2);
    // (0+10+40+50)/4 = 25, (20+30+60+70)/4 = 45, (80+90+120+130)/4 = 105, (100+110+140+151)/4 = 125.25
    assertThat(dst.array()).containsExactly(25, 45, 0, 105, 125);
    ByteBuffer up = ByteBuffer.allocate(4);
    java.resizePlane(ByteBuffer.wrap(new byte[] {0, (byte) 255}), 0, 2, 0, 0, 2, 1, up, 0, 4, 4, 1);
    assertThat(up.array()).containsExactly(0, 64, (byte) 191, (byte) 255);
  }

  @Test
  void badArgumentsAreRefusedBeforeAnyNativeCall() {
    Resizer r = new Resizer(true);
    for (boolean direct : new boolean[] {false, true}) {
      ByteBuffer src = direct ? ByteBuffer.allocateDirect(10 * 12) : ByteBuffer.allocate(10 * 12); // 10 rows of 12
      ByteBuffer dst = direct ? ByteBuffer.allocateDirect(3 * 8) : ByteBuffer.allocate(3 * 8);
      assertThatThrownBy(() -> r.resizePlane(src, 0, 12, 0, 0, 10, 10, dst, 0, 8, 0, 3))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Bad resize: box 0,0 10x10, output 0x3, offsets 0/0");
      assertThatThrownBy(() -> r.resizePlane(src, 0, 12, -1, 0, 10, 10, dst, 0, 8, 5, 3))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Bad resize: box -1,0 10x10, output 5x3, offsets 0/0");
      assertThatThrownBy(() -> r.resizePlane(src, 0, 12, 0, 0, 10, -2, dst, 0, 8, 5, 3))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Bad resize: box 0,0 10x-2, output 5x3, offsets 0/0");
      assertThatThrownBy(() -> r.resizePlane(src, 0, 12, 0, 0, 10, 10, dst, -1, 8, 5, 3))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Bad resize: box 0,0 10x10, output 5x3, offsets 0/-1");
      // box columns past the source stride, rows past the buffer
      assertThatThrownBy(() -> r.resizePlane(src, 0, 12, 3, 0, 10, 10, dst, 0, 8, 5, 3))
          .isInstanceOf(IllegalArgumentException.class).hasMessage("Box columns 3..13 do not fit a row of 12 bytes");
      assertThatThrownBy(() -> r.resizePlane(src, 0, 9, 0, 0, 10, 10, dst, 0, 8, 5, 3))
          .isInstanceOf(IllegalArgumentException.class).hasMessage("Box columns 0..10 do not fit a row of 9 bytes");
      assertThatThrownBy(() -> r.resizePlane(src, 0, 12, 0, 1, 10, 10, dst, 0, 8, 5, 3))
          .isInstanceOf(IllegalArgumentException.class).hasMessage("Box 0,1 10x10 needs 130 source bytes, buffer has 120");
      assertThatThrownBy(() -> r.resizePlane(src, 1, 12, 2, 0, 10, 10, dst, 0, 8, 5, 3))
          .isInstanceOf(IllegalArgumentException.class).hasMessage("Box 2,0 10x10 needs 121 source bytes, buffer has 120");
      // destination stride below the output width, destination one byte short, read-only
      assertThatThrownBy(() -> r.resizePlane(src, 0, 12, 0, 0, 10, 10, dst, 0, 4, 5, 3))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Destination rows 4 bytes apart cannot hold 5 output bytes each");
      assertThatThrownBy(() -> r.resizePlane(src, 0, 12, 0, 0, 10, 10, dst, 0, 10, 5, 3))
          .isInstanceOf(IllegalArgumentException.class).hasMessage("Destination needs 25 writable bytes, buffer has 24");
      assertThatThrownBy(() -> r.resizePlane(src, 0, 12, 0, 0, 10, 10, dst, 4, 8, 5, 3))
          .isInstanceOf(IllegalArgumentException.class).hasMessage("Destination needs 25 writable bytes, buffer has 24");
      assertThatThrownBy(() -> r.resizePlane(src, 0, 12, 0, 0, 10, 10, dst.asReadOnlyBuffer(), 0, 8, 5, 3))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Destination needs 21 writable bytes, buffer has 24 (read-only)");
      // the largest box and output that fit pass
      r.resizePlane(src, 0, 12, 2, 0, 10, 10, dst, 3, 8, 5, 3);
    }
  }

  /**
   * The C entry point re-checks every range itself: given arguments the Java checks refuse, it returns
   * RC_BAD_ARGUMENT (-2) and leaves the destination untouched.
   */
  @Test
  void nativeEntryPointRechecksBounds() {
    Assumptions.assumeTrue(NativeLibrary.isAvailable(), "native library not loaded");
    ByteBuffer src = ByteBuffer.allocateDirect(10 * 12);
    ByteBuffer dst = sentinels(3 * 8, true);
    long[][] bad = {
        // srcOffset, srcStride, x, y, w, h, dstOffset, dstStride, outW, outH
        {0, 12, 3, 0, 10, 10, 0, 8, 5, 3}, // columns past the stride
        {0, 12, 0, 1, 10, 10, 0, 8, 5, 3}, // rows past the source
        {1, 12, 2, 0, 10, 10, 0, 8, 5, 3}, // the last row one byte past the source
        {-1, 12, 0, 0, 10, 10, 0, 8, 5, 3}, // negative offsets
        {0, 12, 0, 0, 10, 10, -1, 8, 5, 3},
        {0, 12, -1, 0, 10, 10, 0, 8, 5, 3}, // negative box
        {0, 12, 0, -1, 10, 10, 0, 8, 5, 3},
        {0, 12, 0, 0, 0, 10, 0, 8, 5, 3}, // empty box, empty output
        {0, 12, 0, 0, 10, 10, 0, 8, 0, 3},
        {0, 12, 0, 0, 10, 10, 0, 8, 5, -3},
        {0, 12, 0, 0, 10, 10, 0, 4, 5, 3}, // destination rows overlap
        {0, 12, 0, 0, 10, 10, 0, 10, 5, 3}, // destination one byte short, by stride and by offset
        {0, 12, 0, 0, 10, 10, 4, 8, 5, 3},
        {0, 12, 0, 0, 10, 10, 0, 25, 25, 1}, // upscale past the destination
        {0, Integer.MAX_VALUE, 0, 0, 10, 2, 0, 8, 5, 1}, // row offsets past 2^31
        {0, 12, Integer.MAX_VALUE, 0, 10, 10, 0, 8, 5, 3}, // x + w past 2^31
        {Long.MAX_VALUE - 5, 12, 0, 0, 10, 10, 0, 8, 5, 3},
    };
    for (long[] a : bad) {
      int rc = Resizer.plane0(src, a[0], (int) a[1], (int) a[2], (int) a[3], (int) a[4], (int) a[5], dst, a[6],
          (int) a[7], (int) a[8], (int) a[9]);
      assertThat(rc).as(Arrays.toString(a)).isEqualTo(-2);
      for (int i = 0; i < dst.capacity(); i++) {
        assertThat(dst.get(i)).as("%s: byte %d", Arrays.toString(a), i).isEqualTo(SENTINEL);
      }
    }
    // a heap buffer has no address: refused, not dereferenced
    assertThat(Resizer.plane0(ByteBuffer.allocate(120), 0, 12, 0, 0, 10, 10, dst, 0, 8, 5, 3)).isEqualTo(-2);
    assertThat(Resizer.plane0(src, 0, 12, 0, 0, 10, 10, ByteBuffer.allocate(24), 0, 8, 5, 3)).isEqualTo(-2);
    // the same call with room for it succeeds
    assertThat(Resizer.plane0(src, 0, 12, 2, 0, 10, 10, dst, 3, 8, 5, 3)).isZero();
  }
}
