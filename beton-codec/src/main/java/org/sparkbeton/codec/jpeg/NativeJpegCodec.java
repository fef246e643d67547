package org.sparkbeton.codec.jpeg;

import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import org.sparkbeton.codec.nativeimpl.NativeLibrary;

/**
 * libjpeg-turbo through JNI. Owns one native handle (a decompressor, a compressor and scratch buffers);
 * {@link #close()} frees it, and a {@link Cleaner} frees it if the owner (say, a dead thread's ThreadLocal)
 * becomes unreachable without closing.
 */
public final class NativeJpegCodec implements JpegCodec {
  private static final Cleaner CLEANER = Cleaner.create();
  private static final AtomicInteger LIVE_HANDLES = new AtomicInteger();
  private static final int FLAG_ACCURATE_IDCT = 1;
  private static final int FLAG_PADDED_ROWS = 2;
  private static final int FLAG_STRICT = 4;

  private final Handle handle;
  private final Cleaner.Cleanable cleanable;
  /** {@link #FLAG_STRICT} or 0, for every decode of this handle */
  private final int strictFlag;
  private final int[] probeOut = new int[6];
  private final int[] planeDims = new int[4];

  /** A {@link Strictness#LENIENT} codec; throws {@link IllegalStateException} when the library is not loaded. */
  public NativeJpegCodec() {
    this(Strictness.LENIENT);
  }

  /** Throws {@link IllegalStateException} when the library is not loaded; check {@link #isAvailable()}. */
  public NativeJpegCodec(Strictness strictness) {
    this.strictFlag = java.util.Objects.requireNonNull(strictness, "strictness") == Strictness.STRICT ? FLAG_STRICT : 0;
    if (!NativeLibrary.isAvailable()) {
      throw new IllegalStateException("Native JPEG codec unavailable: " + NativeLibrary.unavailableReason());
    }
    long h = create0();
    if (h == 0) {
      throw new OutOfMemoryError("Could not allocate a native JPEG handle");
    }
    LIVE_HANDLES.incrementAndGet();
    handle = new Handle(h);
    cleanable = CLEANER.register(this, handle);
  }

  public static boolean isAvailable() {
    return NativeLibrary.isAvailable();
  }

  /** Native handles not yet freed, by close() or by the Cleaner; for leak tests. */
  static int liveHandles() {
    return LIVE_HANDLES.get();
  }

  @Override
  public boolean isNative() {
    return true;
  }

  @Override
  public Strictness strictness() {
    return strictFlag != 0 ? Strictness.STRICT : Strictness.LENIENT;
  }

  @Override
  public void probe(ByteBuffer src, JpegHeader into) {
    long h = live();
    try {
      int rc = probe0(h, directOrNull(src), arrayOrNull(src), offset(src), src.remaining(), probeOut);
      check(rc, "probe");
      into.set(probeOut[0], probeOut[1], probeOut[2], JpegColorSpace.ofLibjpeg(probeOut[3]),
          ChromaSubsampling.ofCode(probeOut[4]), probeOut[5] != 0);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  @Override
  public long decode(ByteBuffer src, int scaleNum, Idct idct, ByteBuffer dst, int dstOffset) {
    return decode(src, 0, 0, 0, 0, scaleNum, idct, dst, dstOffset, null);
  }

  @Override
  public long decodeRegion(ByteBuffer src, int x, int y, int w, int h, int scaleNum, Idct idct, ByteBuffer dst,
      int dstOffset) {
    if (x < 0 || y < 0 || w <= 0 || h <= 0) {
      throw new IllegalArgumentException(
          String.format("Crop box %d,%d %dx%d must have a non-negative origin and a positive size", x, y, w, h));
    }
    return decode(src, x, y, w, h, scaleNum, idct, dst, dstOffset, null);
  }

  @Override
  public long decodeRegionPadded(ByteBuffer src, int x, int y, int w, int h, int scaleNum, Idct idct,
      ByteBuffer dst, int dstOffset, int[] layout) {
    if (x < 0 || y < 0 || w <= 0 || h <= 0) {
      throw new IllegalArgumentException(
          String.format("Crop box %d,%d %dx%d must have a non-negative origin and a positive size", x, y, w, h));
    }
    if (layout == null || layout.length < 2) {
      throw new IllegalArgumentException("decodeRegionPadded needs a layout array of 2 ints");
    }
    return decode(src, x, y, w, h, scaleNum, idct, dst, dstOffset, layout);
  }

  /** {@code layout} non-null: rows may stay padded (see {@link JpegCodec#decodeRegionPadded}). */
  private long decode(ByteBuffer src, int x, int y, int w, int h, int scaleNum, Idct idct, ByteBuffer dst,
      int dstOffset, int[] layout) {
    JpegGeometry.checkScale(scaleNum);
    checkDst(dst, dstOffset);
    long handle = live();
    try {
      int flags = (idct == Idct.ACCURATE ? FLAG_ACCURATE_IDCT : 0) | (layout != null ? FLAG_PADDED_ROWS : 0) | strictFlag;
      long r = decode0(handle, directOrNull(src), arrayOrNull(src), offset(src), src.remaining(), x, y, w, h,
          scaleNum, flags, directOrNull(dst), arrayOrNull(dst), dst.isDirect() ? dstOffset : dst.arrayOffset()
              + dstOffset, layout);
      check(r, "decode", src);
      return r;
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  @Override
  public int encode(ByteBuffer rgb, int rgbOffset, int width, int height, int quality,
      ChromaSubsampling subsampling, ByteBuffer dst, int dstOffset) {
    JavaJpegCodec.checkEncodeArgs(rgb, rgbOffset, width, height, quality, subsampling);
    checkDst(dst, dstOffset);
    long handle = live();
    try {
      int rc = encode0(handle, directOrNull(rgb), arrayOrNull(rgb), rgb.isDirect() ? rgbOffset : rgb.arrayOffset()
          + rgbOffset, width, height, quality, subsampling.code(), FLAG_ACCURATE_IDCT, directOrNull(dst),
          arrayOrNull(dst), dst.isDirect() ? dstOffset : dst.arrayOffset() + dstOffset, dst.capacity() - dstOffset);
      check(rc, "encode");
      return rc;
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  @Override
  public void decodePlanes(ByteBuffer src, int scaleNum, Idct idct, ByteBuffer dst, int dstOffset, YccPlanes into) {
    JpegGeometry.checkScale(scaleNum);
    checkDst(dst, dstOffset);
    long handle = live();
    try {
      long r = decodePlanes0(handle, directOrNull(src), arrayOrNull(src), offset(src), src.remaining(), scaleNum,
          (idct == Idct.ACCURATE ? FLAG_ACCURATE_IDCT : 0) | strictFlag, directOrNull(dst), arrayOrNull(dst),
          dst.isDirect() ? dstOffset : dst.arrayOffset() + dstOffset, planeDims);
      check(r, "plane decode", src);
      into.set(planeDims[0], planeDims[1], planeDims[2], planeDims[3]);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  @Override
  public int encodePlanes(ByteBuffer planes, int srcOffset, int width, int height, int quality, ByteBuffer dst,
      int dstOffset) {
    JavaJpegCodec.checkPlaneEncodeArgs(planes, srcOffset, width, height, quality);
    checkDst(dst, dstOffset);
    long handle = live();
    try {
      int rc = encodePlanes0(handle, directOrNull(planes), arrayOrNull(planes),
          planes.isDirect() ? srcOffset : planes.arrayOffset() + srcOffset, width, height, quality, FLAG_ACCURATE_IDCT,
          directOrNull(dst), arrayOrNull(dst), dst.isDirect() ? dstOffset : dst.arrayOffset() + dstOffset,
          dst.capacity() - dstOffset);
      check(rc, "plane encode");
      return rc;
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  @Override
  public void close() {
    if (!handle.closed) {
      handle.closed = true;
      cleanable.clean();
    }
  }

  private long live() {
    if (handle.closed) {
      throw new IllegalStateException("NativeJpegCodec is closed");
    }
    return handle.address;
  }

  private void check(long rc, String op) {
    if (rc < 0) {
      String msg = "Native JPEG " + op + " failed: " + lastError0(handle.address);
      throw new JpegException(msg);
    }
  }

  /**
   * As {@link #check(long, String)}, saying in plain words what libjpeg's "Backing store not supported" means: the
   * image (its size read from {@code src}) needs more working memory than the handle allows (betoncodec.h's
   * MAX_LIBJPEG_MEMORY, 1 GiB; a progressive JPEG keeps every DCT coefficient of the image).
   */
  private void check(long rc, String op, ByteBuffer src) {
    if (rc >= 0) {
      return;
    }
    String error = lastError0(handle.address);
    if (!error.contains("Backing store not supported")) {
      throw new JpegException("Native JPEG " + op + " failed: " + error);
    }
    String size = "";
    if (probe0(handle.address, directOrNull(src), arrayOrNull(src), offset(src), src.remaining(), probeOut) >= 0) {
      size = String.format(": %dx%d = %d megapixels", probeOut[0], probeOut[1], (long) probeOut[0] * probeOut[1] / 1_000_000);
    }
    throw new JpegException("Native JPEG " + op + " failed: image is too large to decode" + size + ", needing more than"
        + " libjpeg-turbo's 1 GiB of working memory (libjpeg: " + error + ")");
  }

  private static void checkDst(ByteBuffer dst, int dstOffset) {
    if (dst.isReadOnly() || (!dst.isDirect() && !dst.hasArray())) {
      throw new IllegalArgumentException("Destination buffer must be writable (direct or array-backed)");
    }
    if (dstOffset < 0 || dstOffset > dst.capacity()) {
      throw new IllegalArgumentException(
          "Destination offset " + dstOffset + " is outside the buffer of capacity " + dst.capacity());
    }
  }

  private static ByteBuffer directOrNull(ByteBuffer b) {
    return b.isDirect() ? b : null;
  }

  private static byte[] arrayOrNull(ByteBuffer b) {
    if (b.isDirect()) {
      return null;
    }
    if (!b.hasArray()) {
      throw new IllegalArgumentException("Buffer must be direct or array-backed (read-only heap buffers are not)");
    }
    return b.array();
  }

  /** Offset of the source's first byte in the direct buffer or backing array. */
  private static int offset(ByteBuffer src) {
    return src.isDirect() ? src.position() : src.arrayOffset() + src.position();
  }

  private static final class Handle implements Runnable {
    final long address;
    volatile boolean closed;

    Handle(long address) {
      this.address = address;
    }

    @Override
    public void run() {
      closed = true;
      destroy0(address);
      LIVE_HANDLES.decrementAndGet();
    }
  }

  /** The libjpeg-turbo version the native library was built against, e.g. "libjpeg-turbo 2.1.5 (libjpeg API 62)". */
  static String libraryVersion() {
    return libraryVersion0();
  }

  private static native String libraryVersion0();

  private static native long create0();

  private static native void destroy0(long handle);

  private static native String lastError0(long handle);

  private static native int probe0(long handle, ByteBuffer srcBuf, byte[] srcArr, int srcOff, int srcLen,
      int[] out);

  private static native long decode0(long handle, ByteBuffer srcBuf, byte[] srcArr, int srcOff, int srcLen, int x,
      int y, int w, int h, int scaleNum, int flags, ByteBuffer dstBuf, byte[] dstArr, int dstOff, int[] layout);

  private static native long decodePlanes0(long handle, ByteBuffer srcBuf, byte[] srcArr, int srcOff, int srcLen,
      int scaleNum, int flags, ByteBuffer dstBuf, byte[] dstArr, int dstOff, int[] dims);

  private static native int encodePlanes0(long handle, ByteBuffer srcBuf, byte[] srcArr, int srcOff, int width,
      int height, int quality, int flags, ByteBuffer dstBuf, byte[] dstArr, int dstOff, int dstLen);

  private static native int encode0(long handle, ByteBuffer srcBuf, byte[] srcArr, int srcOff, int width,
      int height, int quality, int subsampling, int flags, ByteBuffer dstBuf, byte[] dstArr, int dstOff,
      int dstLen);
}
