package org.sparkbeton.codec.resize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.sparkbeton.codec.TestImages;

class ResizerTest {
  final Resizer resizer = new Resizer(false);

  /** A one-channel-looking RGB image: every pixel (v, v, v). */
  static ByteBuffer gray(int... values) {
    ByteBuffer b = ByteBuffer.allocate(values.length * 3);
    for (int i = 0; i < values.length; i++) {
      b.put(3 * i, (byte) values[i]).put(3 * i + 1, (byte) values[i]).put(3 * i + 2, (byte) values[i]);
    }
    return b;
  }

  static int[] red(ByteBuffer b, int n) {
    int[] out = new int[n];
    for (int i = 0; i < n; i++) {
      out[i] = b.get(3 * i) & 0xFF;
    }
    return out;
  }

  @Test
  void integerAreaIsTheBlockMean() {
    ByteBuffer src = gray(0, 10, 20, 30,
        40, 50, 60, 70,
        80, 90, 100, 110,
        120, 130, 140, 151);
    ByteBuffer dst = ByteBuffer.allocate(4 * 3);
    resizer.area(src, 0, 12, 0, 0, 4, 4, dst, 0, 2, 2);
    // (0+10+40+50)/4 = 25, (20+30+60+70)/4 = 45, (80+90+120+130)/4 = 105, (100+110+140+151)/4 = 125.25
    assertThat(red(dst, 4)).containsExactly(25, 45, 105, 125);
  }

  @Test
  void fractionalAreaWeighsPartialPixels() {
    // 3 -> 2 columns: out0 = (a + b/2) / 1.5, out1 = (b/2 + c) / 1.5  (OpenCV INTER_AREA weights)
    ByteBuffer src = gray(30, 90, 200);
    ByteBuffer dst = ByteBuffer.allocate(2 * 3);
    resizer.area(src, 0, 9, 0, 0, 3, 1, dst, 0, 2, 1);
    assertThat(red(dst, 2)).containsExactly(50, 163); // 75/1.5 = 50, 245/1.5 = 163.3
  }

  @Test
  void bilinearUpscaleUsesHalfPixelCentres() {
    ByteBuffer src = gray(0, 255);
    ByteBuffer dst = ByteBuffer.allocate(4 * 3);
    resizer.resize(src, 0, 6, 0, 0, 2, 1, dst, 0, 4, 1);
    assertThat(red(dst, 4)).containsExactly(0, 64, 191, 255);
  }

  @Test
  void cropOfARawImageWithStrideAndOffsets() {
    // 4x2 image stored at offset 5 with a 15-byte stride (3 padding bytes); take the 2x2 box at (1,0)
    ByteBuffer src = ByteBuffer.allocateDirect(5 + 2 * 15);
    int[] vals = {1, 2, 3, 4, 5, 6, 7, 8};
    for (int i = 0; i < 8; i++) {
      int p = 5 + (i / 4) * 15 + (i % 4) * 3;
      src.put(p, (byte) (vals[i] * 10)).put(p + 1, (byte) 0).put(p + 2, (byte) 255);
    }
    ByteBuffer dst = ByteBuffer.allocateDirect(2 + 3);
    resizer.area(src, 5, 15, 1, 0, 2, 2, dst, 2, 1, 1);
    assertThat(dst.get(2) & 0xFF).isEqualTo(45); // (20+30+60+70)/4
    assertThat(dst.get(3) & 0xFF).isEqualTo(0);
    assertThat(dst.get(4) & 0xFF).isEqualTo(255);
  }

  @Test
  void areaWindowEqualsTheCropOfAFullResize() {
    Random rnd = new Random(5L);
    byte[] img = new byte[97 * 61 * 3];
    rnd.nextBytes(img);
    ByteBuffer src = ByteBuffer.wrap(img);
    ByteBuffer full = ByteBuffer.allocate(37 * 23 * 3);
    resizer.area(src, 0, 97 * 3, 0, 0, 97, 61, full, 0, 37, 23);
    for (int i = 0; i < 50; i++) {
      int ow = 1 + rnd.nextInt(37);
      int oh = 1 + rnd.nextInt(23);
      int ox = rnd.nextInt(37 - ow + 1);
      int oy = rnd.nextInt(23 - oh + 1);
      int x0 = Resizer.areaSourceStart(ox, 97, 37);
      int y0 = Resizer.areaSourceStart(oy, 61, 23);
      int x1 = Resizer.areaSourceEnd(ox + ow, 97, 37);
      int y1 = Resizer.areaSourceEnd(oy + oh, 61, 23);
      byte[] part = TestImages.crop(img, 97, x0, y0, x1 - x0, y1 - y0);
      ByteBuffer win = ByteBuffer.allocate(ow * oh * 3);
      resizer.areaWindow(ByteBuffer.wrap(part), 0, (x1 - x0) * 3, x0, y0, 97, 61, 37, 23, ox, oy, ow, oh, win, 0);
      assertThat(win.array()).isEqualTo(TestImages.crop(full.array(), 37, ox, oy, ow, oh));
    }
  }

  @Test
  void ffcvMaxResolutionRule() {
    assertThat(Resizer.fitWithin(500, 375, 256)).isEqualTo((256L << 32) | 192);
    assertThat(Resizer.fitWithin(375, 500, 256)).isEqualTo((192L << 32) | 256);
    assertThat(Resizer.fitWithin(333, 251, 256)).isEqualTo((256L << 32) | 192); // (int)(0.7688*251) = 192
    assertThat(Resizer.fitWithin(200, 100, 256)).isEqualTo((200L << 32) | 100); // never upscale
    assertThatThrownBy(() -> Resizer.fitWithin(0, 10, 256)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot fit a 0x10 image within 256: all must be positive");
  }

  @Test
  void boundsAreCheckedBeforeTouchingMemory() {
    ByteBuffer src = ByteBuffer.allocate(10 * 10 * 3);
    ByteBuffer dst = ByteBuffer.allocate(5 * 5 * 3 - 1);
    assertThatThrownBy(() -> resizer.area(src, 0, 30, 0, 0, 10, 10, dst, 0, 5, 5))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("Destination needs 75 writable bytes, buffer has 74");
    assertThatThrownBy(() -> resizer.area(src, 0, 30, 5, 5, 10, 10, ByteBuffer.allocate(75), 0, 5, 5))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("Box columns 5..15 do not fit a row of 30 bytes");
    assertThatThrownBy(() -> resizer.area(src, 0, 30, 0, 0, 4, 4, ByteBuffer.allocate(75), 0, 5, 5))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("only shrinks");
  }

  @Test
  void nativeTwinIsByteIdenticalToJava() {
    org.junit.jupiter.api.Assumptions.assumeTrue(org.sparkbeton.codec.nativeimpl.NativeLibrary.isAvailable(),
        "native library not loaded");
    assertNativeMatchesJava();
  }

  /** The same vectors through the AVX2 code the native twin runs on CPUs without AVX-512. */
  @Test
  void nativeAvx2PathIsByteIdenticalToJava() {
    org.junit.jupiter.api.Assumptions.assumeTrue(org.sparkbeton.codec.nativeimpl.NativeLibrary.isAvailable(),
        "native library not loaded");
    org.junit.jupiter.api.Assumptions.assumeTrue(Resizer.avx2Only(true), "no SIMD paths in this build");
    try {
      assertNativeMatchesJava();
    } finally {
      Resizer.avx2Only(false);
    }
  }

  /** The same vectors through the SSE2 code the native twin runs on CPUs without AVX2. */
  @Test
  void nativeSse2PathIsByteIdenticalToJava() {
    org.junit.jupiter.api.Assumptions.assumeTrue(org.sparkbeton.codec.nativeimpl.NativeLibrary.isAvailable(),
        "native library not loaded");
    org.junit.jupiter.api.Assumptions.assumeTrue(Resizer.sse2Only(true), "no SIMD paths in this build");
    try {
      assertNativeMatchesJava();
    } finally {
      Resizer.sse2Only(false);
    }
  }

  /** A mapped resize equals the plain resize with its rows and columns picked afterwards, on both twins. */
  @Test
  void coordinateMapsPickRowsAndColumnsOfThePlainResize() {
    boolean nativeToo = org.sparkbeton.codec.nativeimpl.NativeLibrary.isAvailable();
    Random rnd = new Random(23L);
    byte[] img = new byte[201 * 157 * 3];
    rnd.nextBytes(img);
    ByteBuffer src = TestImages.direct(img);
    for (Resizer r : nativeToo ? new Resizer[] {resizer, new Resizer(true)} : new Resizer[] {resizer}) {
      for (int i = 0; i < 60; i++) {
        int w = 1 + rnd.nextInt(201);
        int h = 1 + rnd.nextInt(157);
        int x = rnd.nextInt(201 - w + 1);
        int y = rnd.nextInt(157 - h + 1);
        int ow = 1 + rnd.nextInt(120);
        int oh = 1 + rnd.nextInt(120);
        int[] cols = new int[ow];
        int[] rows = new int[oh];
        for (int k = 0; k < ow; k++) {
          cols[k] = i % 2 == 0 ? ow - 1 - k : rnd.nextInt(ow); // a mirror, or any columns (repeats allowed)
        }
        for (int k = 0; k < oh; k++) {
          rows[k] = rnd.nextInt(oh);
        }
        ByteBuffer plain = ByteBuffer.allocateDirect(ow * oh * 3);
        ByteBuffer mapped = ByteBuffer.allocateDirect(ow * oh * 3);
        r.resize(src, 0, 201 * 3, x, y, w, h, plain, 0, ow, oh);
        r.resize(src, 0, 201 * 3, x, y, w, h, mapped, 0, ow, oh, cols, rows);
        for (int oy = 0; oy < oh; oy++) {
          for (int ox = 0; ox < ow; ox++) {
            for (int c = 0; c < 3; c++) {
              int want = plain.get((rows[oy] * ow + cols[ox]) * 3 + c);
              if (mapped.get((oy * ow + ox) * 3 + c) != want) {
                throw new AssertionError(String.format("%s box %d,%d %dx%d -> %dx%d: pixel %d,%d channel %d",
                    r == resizer ? "java" : "native", x, y, w, h, ow, oh, ox, oy, c));
              }
            }
          }
        }
      }
    }
  }

  @Test
  void badCoordinateMapsAreRefused() {
    ByteBuffer src = gray(1, 2, 3, 4);
    ByteBuffer dst = ByteBuffer.allocate(2 * 3);
    assertThatThrownBy(() -> resizer.resize(src, 0, 12, 0, 0, 4, 1, dst, 0, 2, 1, new int[] {0, 2}, null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("column map sends output column 1 to 2");
    assertThatThrownBy(() -> resizer.resize(src, 0, 12, 0, 0, 4, 1, dst, 0, 2, 1, new int[] {0}, null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 entries for 2 output columns");
    assertThatThrownBy(() -> resizer.resize(src, 0, 12, 0, 0, 4, 1, dst, 0, 2, 1, null, new int[] {-1}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("row map sends output row 0 to -1");
  }

  private void assertNativeMatchesJava() {
    Resizer nat = new Resizer(true);
    Random rnd = new Random(11L);
    byte[] img = new byte[333 * 251 * 3];
    rnd.nextBytes(img);
    ByteBuffer src = TestImages.direct(img);
    for (int i = 0; i < 200; i++) {
      int w = 1 + rnd.nextInt(333);
      int h = 1 + rnd.nextInt(251);
      int x = rnd.nextInt(333 - w + 1);
      int y = rnd.nextInt(251 - h + 1);
      int ow = 1 + rnd.nextInt(300);
      int oh = 1 + rnd.nextInt(300);
      ByteBuffer a = ByteBuffer.allocateDirect(ow * oh * 3 + 5);
      ByteBuffer b = ByteBuffer.allocateDirect(ow * oh * 3 + 5);
      resizer.resize(src, 0, 333 * 3, x, y, w, h, a, 5, ow, oh);
      nat.resize(src, 0, 333 * 3, x, y, w, h, b, 5, ow, oh);
      assertThat(TestImages.bytes(b, 0, b.capacity())).as("box %d,%d %dx%d -> %dx%d", x, y, w, h, ow, oh)
          .isEqualTo(TestImages.bytes(a, 0, a.capacity()));
    }
    // and the window form used by the Java codec's DCT-scale emulation
    ByteBuffer wa = ByteBuffer.allocateDirect(50 * 40 * 3);
    ByteBuffer wb = ByteBuffer.allocateDirect(50 * 40 * 3);
    int x0 = Resizer.areaSourceStart(20, 333, 125);
    int y0 = Resizer.areaSourceStart(30, 251, 95);
    byte[] part = TestImages.crop(img, 333, x0, y0, 333 - x0, 251 - y0);
    ByteBuffer partBuf = TestImages.direct(part);
    resizer.areaWindow(partBuf, 0, (333 - x0) * 3, x0, y0, 333, 251, 125, 95, 20, 30, 50, 40, wa, 0);
    nat.areaWindow(partBuf, 0, (333 - x0) * 3, x0, y0, 333, 251, 125, 95, 20, 30, 50, 40, wb, 0);
    assertThat(TestImages.bytes(wb, 0, wb.capacity())).isEqualTo(TestImages.bytes(wa, 0, wa.capacity()));
  }
}
