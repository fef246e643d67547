package org.sparkbeton.codec.pixels;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.sparkbeton.codec.nativeimpl.NativeLibrary;

/**
 * Replaces every byte of a packed RGB uint8 image by its channel's entry in a 3 x 256 lookup table (uint8,
 * float16 bits or float32 bits), written interleaved ({@code [H, W, 3]}) or as three planes ({@code [3, H,
 * W]}), little-endian. This is the last pass of a training pipeline (normalize, colour jitter, layout change
 * composed into one table by the loader). The native loop reads four pixels with three 4-byte loads and
 * writes each plane's four values with one store: ~70 µs for a 224x224 image to float16 planes here, where
 * the loader's JIT-compiled loop took ~190 µs (in the loader, normalize to float16 NCHW went from
 * 986-1,112 to 1,207-1,235 images/s on 2 threads, A/B). A Java loop computes the same bytes where the
 * library is not loaded, and tests run both on the same vectors.
 *
 * <p>Tables are flat arrays of 768 entries, channel c at {@code [256 c, 256 c + 256)}: {@code byte[]},
 * {@code short[]} or {@code int[]}. Buffers are direct (native) or any kind (Java); positions untouched.
 */
public final class ChannelLookup {
  private ChannelLookup() {}

  /** Whether {@link #apply} runs natively for direct buffers. */
  public static boolean nativeAvailable() {
    return NativeLibrary.isAvailable();
  }

  /** {@code table} is a {@code byte[]}, {@code short[]} or {@code int[]} of 768 entries. */
  public static void apply(ByteBuffer in, int inOffset, int pixels, Object table, boolean planar, ByteBuffer out,
      int outOffset) {
    apply(in, inOffset, pixels, table, planar, out, outOffset, true);
  }

  /** As above; {@code allowNative} false runs the Java loop (tests compare the two). */
  public static void apply(ByteBuffer in, int inOffset, int pixels, Object table, boolean planar, ByteBuffer out,
      int outOffset, boolean allowNative) {
    int elem = checkArguments(in, inOffset, pixels, table, out, outOffset);
    if (allowNative && in.isDirect() && out.isDirect() && NativeLibrary.isAvailable()) {
      int rc = apply0(in, inOffset, pixels, table, elem, planar, out, outOffset);
      if (rc < 0) {
        throw new IllegalStateException("Native channel lookup failed with code " + rc); // checked above: a bug
      }
      return;
    }
    lookupJava(in, inOffset, pixels, table, elem, planar, out.duplicate().order(ByteOrder.LITTLE_ENDIAN), outOffset);
  }

  /** Refuses ranges outside either buffer and a read-only output; returns the table's bytes per value. */
  private static int checkArguments(ByteBuffer in, int inOffset, int pixels, Object table, ByteBuffer out,
      int outOffset) {
    int elem = elementSize(table);
    if (pixels < 0 || inOffset < 0 || outOffset < 0 || (long) inOffset + 3L * pixels > in.capacity()
        || (long) outOffset + 3L * pixels * elem > out.capacity() || out.isReadOnly()) {
      throw new IllegalArgumentException(String.format("Bad channel lookup: %d pixels from byte %d of %d to byte %d"
          + " of %d%s (%d bytes per value)", pixels, inOffset, in.capacity(), outOffset, out.capacity(),
          out.isReadOnly() ? " (read-only)" : "", elem));
    }
    return elem;
  }

  private static int elementSize(Object table) {
    if (table instanceof byte[] b && b.length == 768) {
      return 1;
    }
    if (table instanceof short[] s && s.length == 768) {
      return 2;
    }
    if (table instanceof int[] i && i.length == 768) {
      return 4;
    }
    throw new IllegalArgumentException("A channel lookup table is a byte[], short[] or int[] of 768 entries (3 x 256),"
        + " got " + (table == null ? "null" : table.getClass().getSimpleName()));
  }

  private static void lookupJava(ByteBuffer in, int inOffset, int pixels, Object table, int elem, boolean planar,
      ByteBuffer out, int outOffset) {
    for (int i = 0; i < pixels; i++) {
      for (int c = 0; c < 3; c++) {
        int v = c * 256 + (in.get(inOffset + 3 * i + c) & 0xFF);
        int at = outOffset + (planar ? (c * pixels + i) * elem : (3 * i + c) * elem);
        switch (elem) {
          case 1 -> out.put(at, ((byte[]) table)[v]);
          case 2 -> out.putShort(at, ((short[]) table)[v]);
          default -> out.putInt(at, ((int[]) table)[v]);
        }
      }
    }
  }

  /**
   * For a float16 table (768 entries): six floats, (a, b) per channel, with which {@link #applyHalfPlanes}
   * computes the table's exact bits as {@code fma(v, a, b)} rounded to float16, eight values per instruction,
   * instead of looking each one up. Null when there are none: a map that is not affine, rounding no float pair
   * reproduces, no native library or a CPU without F16C and FMA. The native side fits a line through the
   * entries' rounding intervals, tries floats a few ulps around it and keeps a pair only if it reproduces all
   * 256 entries of the channel through the kernel's own arithmetic, so the fast path is exact by check, not by
   * argument. Call once per table (well under a millisecond).
   */
  public static float[] fitHalfAffine(short[] table) {
    if (table == null || table.length != 768) {
      throw new IllegalArgumentException("fitHalfAffine needs a float16 table of 768 entries");
    }
    if (!NativeLibrary.isAvailable()) {
      return null;
    }
    float[] ab = new float[6];
    int rc = fitHalfAffine0(table, ab);
    if (rc < 0) {
      throw new IllegalStateException("Native affine fit failed with code " + rc); // checked above: a bug
    }
    return rc == 1 ? ab : null;
  }

  /**
   * {@link #apply} of a float16 {@code table} into three planes ({@code [3, H, W]}), computed with
   * {@code affine} from {@link #fitHalfAffine} where it is not null and both buffers are direct, looked up
   * otherwise: the same bytes either way.
   */
  public static void applyHalfPlanes(ByteBuffer in, int inOffset, int pixels, short[] table, float[] affine,
      ByteBuffer out, int outOffset) {
    if (affine == null || !in.isDirect() || !out.isDirect()) {
      apply(in, inOffset, pixels, table, true, out, outOffset);
      return;
    }
    if (affine.length != 6) {
      throw new IllegalArgumentException("An affine fit is 6 floats (a, b per channel), got " + affine.length);
    }
    checkArguments(in, inOffset, pixels, table, out, outOffset);
    int rc = applyHalfAffine0(in, inOffset, pixels, table, affine, out, outOffset);
    if (rc < 0) {
      throw new IllegalStateException("Native float16 planes failed with code " + rc); // checked above: a bug
    }
  }

  private static native int fitHalfAffine0(short[] table, float[] ab);

  private static native int applyHalfAffine0(ByteBuffer in, long inOffset, long pixels, short[] table, float[] ab,
      ByteBuffer out, long outOffset);

  private static native int apply0(ByteBuffer in, long inOffset, long pixels, Object table, int elemSize,
      boolean planar, ByteBuffer out, long outOffset);
}
