package org.sparkbeton.loader.decoders;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.sparkbeton.codec.jpeg.Idct;
import org.sparkbeton.codec.jpeg.ImageSize;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegCodecs;

/**
 * The loader's JPEG decoding: beton-codec's {@link JpegCodec} (the one JPEG seam of the project), one handle per
 * decoding thread. libjpeg-turbo through JNI when the library loads ({@link #fastest()}), else the pure-Java codec;
 * always the fast IDCT, as FFCV decodes. {@link #NONE} refuses JPEG payloads, so only RAW images decode. Called
 * concurrently from worker threads.
 *
 * <p>beton-codec handles are single-threaded, so each decoding thread gets its own, created on its first
 * call. The loader starts new worker threads every epoch: a new thread takes over the handle of a thread
 * that has ended, so there are never more handles than threads alive at once. A decoder that owns this
 * codec {@link #retain}s it for each loader using it and {@link #release}s it when that loader closes;
 * the last release frees every handle (a later call creates new ones). {@link #close()} frees them for
 * good: a call after it throws {@link IllegalStateException}. Steady-state calls allocate nothing: the thread's handle,
 * a reusable view of the source buffer and the codec's own scratch are all kept per thread.
 */
public final class JpegCodecPool implements AutoCloseable {
  /** No codec: every decode fails, saying what is needed; {@link #close()} leaves it as it is. */
  public static final JpegCodecPool NONE = new JpegCodecPool(null, "none");

  static final String UNAVAILABLE = "JPEG decoding is off (JpegCodecPool.NONE); only RAW images decode without a"
      + " codec (the decoders' default constructors use beton-codec)";

  /** null for {@link #NONE} */
  private final Supplier<JpegCodec> factory;
  private final String kind;
  private final List<Handle> handles = new ArrayList<>();
  private final ThreadLocal<Handle> local = ThreadLocal.withInitial(this::acquire);
  private volatile boolean closed;
  private volatile int generation;
  private int users;

  private JpegCodecPool(Supplier<JpegCodec> factory, String kind) {
    this.factory = factory;
    this.kind = kind;
  }

  /** libjpeg-turbo when libbetoncodec loaded, else pure Java (beton-codec's {@code JpegCodecs.fastest()}). */
  public static JpegCodecPool fastest() {
    return JpegCodecs.nativeAvailable() ? new JpegCodecPool(JpegCodecs::fastest, "native")
        : new JpegCodecPool(JpegCodecs::java, "java");
  }

  /** Always the pure-Java codec (tests compare it with the native one). */
  public static JpegCodecPool java() {
    return new JpegCodecPool(JpegCodecs::java, "java");
  }

  /** True when this decodes with libjpeg-turbo. */
  public boolean isNative() {
    return kind.equals("native");
  }

  /** Whether {@link #decodeRgb} works: not {@link #NONE}, not closed. */
  public boolean available() {
    return factory != null && !closed;
  }

  /**
   * Decodes the JPEG at {@code jpeg[offset, offset + length)} into {@code height × width × 3} RGB bytes at
   * {@code out[outOffset]}; the image must have exactly that size.
   */
  public void decodeRgb(ByteBuffer jpeg, int offset, int length, int width, int height, ByteBuffer out, int outOffset) {
    Handle h = handle();
    long size = h.codec.decode(h.source(jpeg, offset, length), 8, Idct.FAST, out, outOffset);
    if (ImageSize.width(size) != width || ImageSize.height(size) != height) {
      throw new IllegalStateException("JPEG is " + ImageSize.width(size) + "x" + ImageSize.height(size)
          + " but its metadata says " + width + "x" + height);
    }
  }

  /**
   * Decodes only the box {@code [x, x+w) × [y, y+h)} (source pixels) of the JPEG at {@code jpeg[offset, offset +
   * length)}, DCT-scaled by {@code scaleNum}/8, as RGB rows at {@code out[outOffset]} that may be wider than the box
   * ({@link JpegCodec#decodeRegionPadded}): {@code layout[0]} gets the box's first column within a row,
   * {@code layout[1]} the row stride in pixels. Returns the decoded size ({@link ImageSize}).
   */
  public long decodeRegionRgbPadded(ByteBuffer jpeg, int offset, int length, int x, int y, int w, int h,
      int scaleNum, ByteBuffer out, int outOffset, int[] layout) {
    Handle handle = handle();
    return handle.codec.decodeRegionPadded(handle.source(jpeg, offset, length), x, y, w, h, scaleNum, Idct.FAST,
        out, outOffset, layout);
  }

  /** Handles created so far (at most the number of threads that decoded at the same time). */
  public synchronized int handles() {
    return handles.size();
  }

  /** One more loader uses this codec. */
  public synchronized void retain() {
    if (closed) {
      throw new IllegalStateException(this + " is closed");
    }
    users++;
  }

  /** A loader using this codec has closed (its workers have stopped); the last one frees every handle. */
  public synchronized void release() {
    if (users > 0 && --users == 0) {
      freeHandles();
    }
  }

  /** Frees every handle for good; idempotent. Threads still decoding must have stopped. */
  @Override
  public synchronized void close() {
    if (closed || factory == null) {
      return;
    }
    closed = true;
    freeHandles();
  }

  private void freeHandles() {
    generation++;
    for (Handle h : handles) {
      h.codec.close();
    }
    handles.clear();
  }

  @Override
  public String toString() {
    return "JpegCodecPool(" + kind + ")";
  }

  private Handle handle() {
    if (factory == null) {
      throw new UnsupportedOperationException(UNAVAILABLE);
    }
    if (closed) {
      throw new IllegalStateException(this + " is closed");
    }
    Handle h = local.get();
    if (h.generation != generation) { // freed by a release since this thread last decoded
      h = acquire();
      local.set(h);
    }
    if (h.owner != Thread.currentThread()) { // cannot happen unless a handle is shared by mistake
      throw new IllegalStateException(this + ": handle owned by " + h.owner.getName());
    }
    return h;
  }

  private synchronized Handle acquire() {
    if (closed) {
      throw new IllegalStateException(this + " is closed");
    }
    Thread me = Thread.currentThread();
    for (Handle h : handles) {
      if (!h.owner.isAlive()) {
        h.owner = me;
        h.lastSource = null;
        h.view = null;
        return h;
      }
    }
    Handle h = new Handle(me, factory.get(), generation);
    handles.add(h);
    return h;
  }

  private static final class Handle {
    final JpegCodec codec;
    final int generation;
    volatile Thread owner;
    ByteBuffer lastSource;
    ByteBuffer view;

    Handle(Thread owner, JpegCodec codec, int generation) {
      this.owner = owner;
      this.generation = generation;
      this.codec = codec;
    }

    /** A view of {@code buf[offset, offset + length)} as position..limit; one duplicate per distinct buffer. */
    ByteBuffer source(ByteBuffer buf, int offset, int length) {
      if (buf != lastSource) {
        view = buf.duplicate();
        lastSource = buf;
      }
      view.limit(view.capacity()).position(offset).limit(offset + length);
      return view;
    }
  }
}
