package org.sparkbeton.codec.resize;

import java.nio.ByteBuffer;
import org.sparkbeton.codec.nativeimpl.NativeLibrary;

/**
 * Resizes a box of a packed RGB image (rows {@code srcStride} bytes apart) into a packed RGB output, or
 * ({@link #resizePlane}) a box of one 8-bit channel, such as a JPEG's Y, Cb or Cr plane, into a plane with rows
 * any distance apart, in pure Java. One instance per thread: it keeps its weight tables and row scratch and
 * grows them only when a larger image arrives, so steady-state calls do not allocate. Source and destination
 * may be heap or direct buffers, positions untouched.
 *
 * <p>{@link #resize} follows OpenCV {@code INTER_AREA} (what FFCV's writer and crop decoders use): area
 * averaging when shrinking on both axes, bilinear otherwise. Area weights are the overlap of each source
 * pixel with the output pixel's footprint, as OpenCV's {@code resizeArea}; bilinear uses half-pixel centres
 * and clamps at the edges.
 *
 * <p>The arithmetic is 16-bit fixed point (Pillow-SIMD style). Each output pixel's taps are quantised to
 * integers summing to exactly {@code 1 << prec} ({@link #quantize}; 14 bits, more for large area shrinks, see
 * {@link #areaPrecision}); a vertical pass keeps 7 fraction bits per element ({@code (sum w*p + round) >>
 * (prec - 7)}, at most {@code 255 << 7}, a 16-bit lane), a horizontal pass sums the taps of that row and
 * rounds to nearest ({@code >> (prec + 7)}). The result is within 1 level of the exact real-valued resize
 * (ResizerAccuracyTest against a double-precision reference).
 *
 * <p>A plane goes through the same arithmetic with one channel instead of three: the weights depend only on
 * the sizes, so resizing each plane alone gives exactly the bytes of the RGB resize of the planes interleaved
 * (ResizerPlaneTest). A writer can thus resize a JPEG's planes (chroma at its own subsampled size) without
 * converting them to RGB and back.
 *
 * <p>When both buffers are direct and libbetoncodec is loaded, the same integer arithmetic runs in C with
 * SSE2/AVX2 ({@code pmaddwd}); its output is byte-identical to the Java code's by construction.
 */
public final class Resizer {
  /** weight bits of bilinear taps and of area taps when shrinking less than 2x */
  static final int PREC = 14;
  /** fraction bits kept between the vertical and the horizontal pass */
  static final int MID_BITS = 7;
  /** the horizontal sum, at most {@code (255 << 7) << 16} plus rounding, must fit an int */
  static final int MAX_PREC_X = 16;
  /** the vertical sum, at most {@code 255 << 22} plus rounding, likewise */
  static final int MAX_PREC_Y = 22;

  private final boolean useNative;
  private final JavaResize twin = new JavaResize();

  /** Uses the native twin for direct buffers when the library is loaded. */
  public Resizer() {
    this(true);
  }

  /** @param allowNative false forces the Java code (tests compare the two) */
  public Resizer(boolean allowNative) {
    this.useNative = allowNative && NativeLibrary.isAvailable();
  }

  /**
   * FFCV's writer rule: {@code ratio = maxResolution / max(w, h)}; new size {@code (int)(ratio*w),
   * (int)(ratio*h)}, never upscaling. Returns the size packed as {@code (w << 32) | h}.
   */
  public static long fitWithin(int width, int height, int maxResolution) {
    if (width <= 0 || height <= 0 || maxResolution <= 0) {
      throw new IllegalArgumentException(String.format(
          "Cannot fit a %dx%d image within %d: all must be positive", width, height, maxResolution));
    }
    double ratio = (double) maxResolution / Math.max(width, height);
    if (ratio >= 1) {
      return ((long) width << 32) | height;
    }
    int w = Math.max(1, (int) (ratio * width));
    int h = Math.max(1, (int) (ratio * height));
    return ((long) w << 32) | h;
  }

  /** OpenCV INTER_AREA semantics: area when {@code w >= outW && h >= outH}, bilinear otherwise. */
  public void resize(ByteBuffer src, int srcOffset, int srcStride, int x, int y, int w, int h, ByteBuffer dst,
      int dstOffset, int outW, int outH) {
    resize(src, srcOffset, srcStride, x, y, w, h, dst, dstOffset, outW, outH, null, null);
  }

  /**
   * As {@link #resize(ByteBuffer, int, int, int, int, int, int, ByteBuffer, int, int, int)}, with the output's
   * coordinates remapped at no cost: output pixel (i, j) is pixel ({@code rows[i]}, {@code columns[j]}) of
   * the resized image, each computed once straight into place. A mirrored column map is a horizontal flip;
   * null means identity. Maps need at least {@code outW} (columns) and {@code outH} (rows) entries, each in
   * [0, outW) or [0, outH); they are read, never kept.
   */
  public void resize(ByteBuffer src, int srcOffset, int srcStride, int x, int y, int w, int h, ByteBuffer dst,
      int dstOffset, int outW, int outH, int[] columns, int[] rows) {
    checkMap(columns, outW, "column");
    checkMap(rows, outH, "row");
    if (w >= outW && h >= outH) {
      area(src, srcOffset, srcStride, x, y, w, h, dst, dstOffset, outW, outH, columns, rows);
    } else {
      bilinear(src, srcOffset, srcStride, x, y, w, h, dst, dstOffset, outW, outH, columns, rows);
    }
  }

  /**
   * {@link #resize(ByteBuffer, int, int, int, int, int, int, ByteBuffer, int, int, int) resize} for one 8-bit
   * channel (a JPEG's Y, Cb or Cr plane): the box {@code [x, x+w) x [y, y+h)} of a plane whose rows are
   * {@code srcStride} bytes apart, resized to {@code outW x outH} bytes written from {@code dstOffset} with rows
   * {@code dstStride} bytes apart ({@code dstStride >= outW}; the bytes between rows are left alone). Same
   * semantics and arithmetic as the RGB resize (area when {@code w >= outW && h >= outH}, bilinear otherwise):
   * each byte equals that channel of the RGB resize of the planes interleaved.
   */
  public void resizePlane(ByteBuffer src, int srcOffset, int srcStride, int x, int y, int w, int h, ByteBuffer dst,
      int dstOffset, int dstStride, int outW, int outH) {
    check(src, srcOffset, srcStride, 1, x, y, w, h, dst, dstOffset, dstStride, outW, outH);
    if (useNative && src.isDirect() && dst.isDirect()) {
      checkNative(plane0(src, srcOffset, srcStride, x, y, w, h, dst, dstOffset, dstStride, outW, outH));
      return;
    }
    int base = srcOffset + y * srcStride + x;
    if (w >= outW && h >= outH) {
      twin.area(src, base, srcStride, 1, w, h, (double) w / outW, (double) h / outH, 0, 0, dst, dstOffset, dstStride,
          outW, outH, null, null);
    } else {
      twin.bilinear(src, base, srcStride, 1, w, h, dst, dstOffset, dstStride, outW, outH, null, null);
    }
  }

  /**
   * {@link #resizePlane(ByteBuffer, int, int, int, int, int, int, ByteBuffer, int, int, int, int) resizePlane} of the
   * whole plane {@code src} to {@code dst}.
   */
  public void resizePlane(Plane src, Plane dst) {
    resizePlane(src.buffer(), src.offset(), src.stride(), 0, 0, src.width(), src.height(), dst.buffer(), dst.offset(),
        dst.stride(), dst.width(), dst.height());
  }

  /**
   * Area shrink of a whole {@code w x h} plane by given scales, source pixels per output pixel (each in [1, side]),
   * instead of {@code w/outW} and {@code h/outH}: output (i, j) averages the plane over {@code [i*sx, (i+1)*sx) x
   * [j*sy, (j+1)*sy)}. Every window must start inside the plane; one that runs past its far edge is averaged over
   * what is left (its taps' weights still sum to exactly one: the largest takes the remainder; such an axis uses
   * 14-bit weights, which hold a single pixel's whole weight). For chroma planes whose sides were rounded up from
   * odd luma sides: with the luma ratio as scale they stay registered with luma, where {@link #resizePlane} would
   * stretch them by up to half a sample.
   */
  public void areaPlane(ByteBuffer src, int srcOffset, int srcStride, int w, int h, double sx, double sy,
      ByteBuffer dst, int dstOffset, int dstStride, int outW, int outH) {
    check(src, srcOffset, srcStride, 1, 0, 0, w, h, dst, dstOffset, dstStride, outW, outH);
    if (!(sx >= 1) || !(sy >= 1) || sx > w || sy > h || (outW - 1) * sx >= w || (outH - 1) * sy >= h) {
      throw new IllegalArgumentException(String.format(
          "Bad area scales %s x %s for %dx%d output pixels from a %dx%d plane: each must be in [1, side] and every"
              + " window must start inside the plane", sx, sy, outW, outH, w, h));
    }
    if (useNative && src.isDirect() && dst.isDirect()) {
      checkNative(areaPlane0(src, srcOffset, srcStride, w, h, sx, sy, dst, dstOffset, dstStride, outW, outH));
      return;
    }
    twin.area(src, srcOffset, srcStride, 1, w, h, sx, sy, 0, 0, dst, dstOffset, dstStride, outW, outH, null, null);
  }

  /**
   * {@link #areaPlane(ByteBuffer, int, int, int, int, double, double, ByteBuffer, int, int, int, int) areaPlane} of
   * the whole plane {@code src} to {@code dst}.
   */
  public void areaPlane(Plane src, double sx, double sy, Plane dst) {
    areaPlane(src.buffer(), src.offset(), src.stride(), src.width(), src.height(), sx, sy, dst.buffer(), dst.offset(),
        dst.stride(), dst.width(), dst.height());
  }

  /** Area-averaging downscale of the box {@code [x, x+w) x [y, y+h)} to {@code outW x outH}. */
  public void area(ByteBuffer src, int srcOffset, int srcStride, int x, int y, int w, int h, ByteBuffer dst,
      int dstOffset, int outW, int outH) {
    area(src, srcOffset, srcStride, x, y, w, h, dst, dstOffset, outW, outH, null, null);
  }

  private void area(ByteBuffer src, int srcOffset, int srcStride, int x, int y, int w, int h, ByteBuffer dst,
      int dstOffset, int outW, int outH, int[] columns, int[] rows) {
    check(src, srcOffset, srcStride, 3, x, y, w, h, dst, dstOffset, outW * 3, outW, outH);
    if (w < outW || h < outH) {
      throw new IllegalArgumentException(String.format(
          "Area resize only shrinks: box %dx%d is smaller than the output %dx%d", w, h, outW, outH));
    }
    int base = srcOffset + y * srcStride + x * 3;
    if (useNative && src.isDirect() && dst.isDirect()) {
      checkNative(area0(src, base, srcStride, w, h, (double) w / outW, (double) h / outH, 0, 0, outW, outH, dst,
          dstOffset, columns, rows));
      return;
    }
    twin.area(src, base, srcStride, 3, w, h, (double) w / outW, (double) h / outH, 0, 0, dst, dstOffset, outW * 3,
        outW, outH, columns, rows);
  }

  /**
   * A window of an area downscale: the output pixels {@code [outX, outX+outW) x [outY, outY+outH)} of
   * resizing a {@code fullW x fullH} image to {@code fullOutW x fullOutH}, computed from a buffer that holds
   * only the source pixels from {@code (srcX, srcY)} on, which must cover {@link #areaSourceStart} to
   * {@link #areaSourceEnd} of the window. The result equals the same box cut from the full resize exactly.
   */
  public void areaWindow(ByteBuffer src, int srcOffset, int srcStride, int srcX, int srcY, int fullW, int fullH,
      int fullOutW, int fullOutH, int outX, int outY, int outW, int outH, ByteBuffer dst, int dstOffset) {
    if (fullOutW > fullW || fullOutH > fullH || outX < 0 || outY < 0 || outX + outW > fullOutW
        || outY + outH > fullOutH) {
      throw new IllegalArgumentException(String.format(
          "Bad area window %d,%d %dx%d of %dx%d -> %dx%d", outX, outY, outW, outH, fullW, fullH, fullOutW, fullOutH));
    }
    int x0 = areaSourceStart(outX, fullW, fullOutW);
    int y0 = areaSourceStart(outY, fullH, fullOutH);
    int x1 = areaSourceEnd(outX + outW, fullW, fullOutW);
    int y1 = areaSourceEnd(outY + outH, fullH, fullOutH);
    if (srcX > x0 || srcY > y0) {
      throw new IllegalArgumentException(String.format(
          "Source buffer starts at %d,%d but the window needs pixels from %d,%d", srcX, srcY, x0, y0));
    }
    check(src, srcOffset, srcStride, 3, x0 - srcX, y0 - srcY, x1 - x0, y1 - y0, dst, dstOffset, outW * 3, outW,
        outH);
    // global column i lives at buffer column i - srcX
    if (useNative && src.isDirect() && dst.isDirect()) {
      checkNative(area0(src, (long) srcOffset - (long) srcY * srcStride - srcX * 3L, srcStride, fullW, fullH,
          (double) fullW / fullOutW, (double) fullH / fullOutH, outX, outY, outW, outH, dst, dstOffset, null, null));
      return;
    }
    twin.area(src, srcOffset - srcY * srcStride - srcX * 3, srcStride, 3, fullW, fullH, (double) fullW / fullOutW,
        (double) fullH / fullOutH, outX, outY, dst, dstOffset, outW * 3, outW, outH, null, null);
  }

  /** First source column/row an area window starting at output index {@code out} reads. */
  public static int areaSourceStart(int out, int full, int fullOut) {
    return (int) (out * ((double) full / fullOut));
  }

  /** One past the last source column/row an area window ending at output index {@code outEnd} reads. */
  public static int areaSourceEnd(int outEnd, int full, int fullOut) {
    return Math.min(full, (int) Math.ceil(outEnd * ((double) full / fullOut) - 1e-9));
  }

  /** Bilinear resize with OpenCV's half-pixel centres and edge clamping. */
  public void bilinear(ByteBuffer src, int srcOffset, int srcStride, int x, int y, int w, int h, ByteBuffer dst,
      int dstOffset, int outW, int outH) {
    bilinear(src, srcOffset, srcStride, x, y, w, h, dst, dstOffset, outW, outH, null, null);
  }

  private void bilinear(ByteBuffer src, int srcOffset, int srcStride, int x, int y, int w, int h, ByteBuffer dst,
      int dstOffset, int outW, int outH, int[] columns, int[] rows) {
    check(src, srcOffset, srcStride, 3, x, y, w, h, dst, dstOffset, outW * 3, outW, outH);
    if (useNative && src.isDirect() && dst.isDirect()) {
      checkNative(bilinear0(src, srcOffset, srcStride, x, y, w, h, outW, outH, dst, dstOffset, columns, rows));
      return;
    }
    twin.bilinear(src, srcOffset + y * srcStride + x * 3, srcStride, 3, w, h, dst, dstOffset, outW * 3, outW, outH,
        columns, rows);
  }

  /**
   * Weight bits of an area axis shrinking by {@code scale >= 1}, at most {@code max}: no tap weighs more than
   * {@code 1 / floor(scale)}, so {@code 14 + floor(log2(floor(scale)))} bits still fit a signed 16-bit lane,
   * and the rounding errors of the many small taps of a large shrink stay far below a level.
   */
  static int areaPrecision(double scale, int max) {
    return Math.min(max, PREC + 31 - Integer.numberOfLeadingZeros((int) scale));
  }

  /**
   * Weights {@code w[0, n)}, summing to about 1, as integers {@code q[at, at + n)} summing to exactly
   * {@code 1 << prec}: each rounded to nearest, then the first largest takes the remainder.
   */
  static void quantize(double[] w, int n, int prec, int[] q, int at) {
    int one = 1 << prec;
    int sum = 0;
    int big = at;
    for (int i = 0; i < n; i++) {
      int v = (int) Math.floor(w[i] * one + 0.5);
      q[at + i] = v;
      sum += v;
      if (v > q[big]) {
        big = at + i;
      }
    }
    q[big] += one - sum;
  }

  /**
   * The box of {@code ch}-byte pixels inside the source buffer, the output rows ({@code outW * ch} bytes,
   * {@code dstStride} apart) inside a writable destination.
   */
  private static void check(ByteBuffer src, int srcOffset, int srcStride, int ch, int x, int y, int w, int h,
      ByteBuffer dst, int dstOffset, int dstStride, int outW, int outH) {
    if (x < 0 || y < 0 || w <= 0 || h <= 0 || outW <= 0 || outH <= 0 || srcOffset < 0 || dstOffset < 0) {
      throw new IllegalArgumentException(String.format(
          "Bad resize: box %d,%d %dx%d, output %dx%d, offsets %d/%d", x, y, w, h, outW, outH, srcOffset, dstOffset));
    }
    if (((long) x + w) * ch > srcStride) {
      throw new IllegalArgumentException(String.format(
          "Box columns %d..%d do not fit a row of %d bytes", x, (long) x + w, srcStride));
    }
    long lastByte = srcOffset + ((long) y + h - 1) * srcStride + ((long) x + w) * ch;
    if (lastByte > src.capacity()) {
      throw new IllegalArgumentException(String.format(
          "Box %d,%d %dx%d needs %d source bytes, buffer has %d", x, y, w, h, lastByte, src.capacity()));
    }
    if (dstStride < (long) outW * ch) {
      throw new IllegalArgumentException(String.format(
          "Destination rows %d bytes apart cannot hold %d output bytes each", dstStride, (long) outW * ch));
    }
    long need = dstOffset + ((long) outH - 1) * dstStride + (long) outW * ch;
    if (need > dst.capacity() || dst.isReadOnly()) {
      throw new IllegalArgumentException(String.format(
          "Destination needs %d writable bytes, buffer has %d%s", need, dst.capacity(),
          dst.isReadOnly() ? " (read-only)" : ""));
    }
  }

  private static void checkMap(int[] map, int n, String what) {
    if (map == null) {
      return;
    }
    if (map.length < n) {
      throw new IllegalArgumentException(String.format("The %s map has %d entries for %d output %ss", what,
          map.length, n, what));
    }
    for (int i = 0; i < n; i++) {
      if (map[i] < 0 || map[i] >= n) {
        throw new IllegalArgumentException(String.format("The %s map sends output %s %d to %d, outside 0..%d", what,
            what, i, map[i], n - 1));
      }
    }
  }

  private static void checkNative(int rc) {
    if (rc < 0) {
      // arguments were validated in Java; a failure here is a bug or out of memory
      throw new IllegalStateException("Native resize failed with code " + rc);
    }
  }

  /**
   * Tests only: keeps the native resize on its SSE2 code even where the CPU has AVX2, so both SIMD paths run
   * the same test vectors on one machine. Returns false where the library has no such paths.
   */
  static boolean sse2Only(boolean on) {
    return sse2Only0(on) == 1;
  }

  private static native int sse2Only0(boolean on);

  /**
   * Tests only: keeps the native resize off its AVX-512 code even where the CPU has AVX-512 (BW, VL, VNNI), so
   * its AVX2 code runs the same test vectors on such a machine. Returns false where the library has no SIMD paths.
   */
  static boolean avx2Only(boolean on) {
    return avx2Only0(on) == 1;
  }

  private static native int avx2Only0(boolean on);

  private static native int area0(ByteBuffer src, long base, int stride, int w, int h, double sx, double sy,
      int outX, int outY, int outW, int outH, ByteBuffer dst, long dstOffset, int[] columns, int[] rows);

  /** package-private: ResizerPlaneTest passes it arguments the Java checks refuse, to test the C checks */
  static native int plane0(ByteBuffer src, long srcOffset, int srcStride, int x, int y, int w, int h,
      ByteBuffer dst, long dstOffset, int dstStride, int outW, int outH);

  private static native int areaPlane0(ByteBuffer src, long srcOffset, int srcStride, int w, int h, double sx,
      double sy, ByteBuffer dst, long dstOffset, int dstStride, int outW, int outH);

  private static native int bilinear0(ByteBuffer src, long srcOffset, int stride, int x, int y, int w, int h,
      int outW, int outH, ByteBuffer dst, long dstOffset, int[] columns, int[] rows);
}
