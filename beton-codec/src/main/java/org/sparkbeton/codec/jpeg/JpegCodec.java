package org.sparkbeton.codec.jpeg;

import java.nio.ByteBuffer;

/**
 * JPEG probe, decode and encode into caller-provided memory. An instance is a per-thread handle: not
 * thread-safe, closed by its owner, unusable after {@link #close()}. Get one from {@link JpegCodecs}.
 *
 * <p>Sources are the bytes between {@code position()} and {@code limit()} of a heap or direct buffer (the
 * position is not moved). Decoded pixels are packed RGB rows (width*3 bytes, R,G,B) written from
 * {@code dstOffset} of {@code dst} (absolute, position untouched). Decode methods return the output size
 * as {@link ImageSize#pack}.
 */
public interface JpegCodec extends AutoCloseable {
  /**
   * The largest image either codec decodes (2^28 pixels, 268 megapixels), refused from its header before any
   * decoding: a header claiming 65500x65500 in a small file is a lie, and a real image that large takes libjpeg
   * minutes, needs more than its memory limit when progressive, and more than a JVM heap on the Java path.
   */
  long MAX_DECODE_PIXELS = 1L << 28;

  /** Throws a {@link JpegException} saying the image is too large to decode when it is over {@link #MAX_DECODE_PIXELS}. */
  static void checkDecodable(String codec, long width, long height) {
    long pixels = width * height;
    if (pixels > MAX_DECODE_PIXELS) {
      String size = pixels >= 1_000_000_000L ? String.format("%.1f gigapixels", pixels / 1e9)
          : (pixels / 1_000_000) + " megapixels";
      throw new JpegException(String.format("%s failed: image is too large to decode: %dx%d = %s (the limit is %d"
          + " megapixels)", codec, width, height, size, MAX_DECODE_PIXELS / 1_000_000));
    }
  }


  /** True for the libjpeg-turbo JNI path. */
  boolean isNative();

  /** How this codec's decodes treat data libjpeg reports as corrupt; fixed when the codec is made. */
  Strictness strictness();

  /** Reads the header only. */
  void probe(ByteBuffer src, JpegHeader into);

  /** Full decode at scale {@code scaleNum}/8 (8 = full size). */
  long decode(ByteBuffer src, int scaleNum, Idct idct, ByteBuffer dst, int dstOffset);

  /**
   * Decodes only the crop box {@code [x, x+w) x [y, y+h)} (source pixel coordinates) at scale
   * {@code scaleNum}/8; the output is the box mapped by {@link JpegGeometry#scaledBox}.
   */
  long decodeRegion(ByteBuffer src, int x, int y, int w, int h, int scaleNum, Idct idct, ByteBuffer dst,
      int dstOffset);

  /**
   * As {@link #decodeRegion}, but the decoded rows may be wider than the box: libjpeg crops scanlines only to
   * iMCU boundaries, and keeping them as they are lets it decode straight into {@code dst} instead of copying
   * every row out of a scanline buffer (callers that read the box through a stride, like a resize, lose
   * nothing). Returns the box's size as {@link #decodeRegion} does and sets {@code layout[0]} to the box's
   * first column within a row and {@code layout[1]} to the row stride in pixels. The default decodes as
   * {@link #decodeRegion}: layout {0, box width}.
   */
  default long decodeRegionPadded(ByteBuffer src, int x, int y, int w, int h, int scaleNum, Idct idct,
      ByteBuffer dst, int dstOffset, int[] layout) {
    long size = decodeRegion(src, x, y, w, h, scaleNum, idct, dst, dstOffset);
    layout[0] = 0;
    layout[1] = ImageSize.width(size);
    return size;
  }

  /**
   * Encodes packed RGB rows to a baseline JFIF JPEG; returns the number of bytes written at
   * {@code dstOffset}. Fails with {@link JpegException} if they do not fit; {@link #maxEncodedSize} always fits.
   */
  int encode(ByteBuffer rgb, int rgbOffset, int width, int height, int quality, ChromaSubsampling subsampling,
      ByteBuffer dst, int dstOffset);

  /** Encodes with 4:2:0 chroma subsampling (the default, as FFCV's writer) into a new array. */
  default byte[] encode(ByteBuffer rgb, int rgbOffset, int width, int height, int quality) {
    return encode(rgb, rgbOffset, width, height, quality, ChromaSubsampling.S420);
  }

  /** Convenience for writers: encodes into a new array of exactly the JPEG's length. */
  default byte[] encode(ByteBuffer rgb, int rgbOffset, int width, int height, int quality,
      ChromaSubsampling subsampling) {
    ByteBuffer out = ByteBuffer.allocate(maxEncodedSize(width, height));
    int n = encode(rgb, rgbOffset, width, height, quality, subsampling, out, 0);
    byte[] bytes = new byte[n];
    out.get(0, bytes);
    return bytes;
  }

  /**
   * Decodes a 3-component YCbCr JPEG at scale {@code scaleNum}/8 into its Y, Cb and Cr planes, with no colour
   * conversion: the layout (see {@link YccPlanes}) goes into {@code into}, the planes from {@code dstOffset} of
   * {@code dst}, at most {@link YccPlanes#maxBytes} of the scaled size. The chroma planes' size is the codec's:
   * libjpeg-turbo returns them as the image stores them (no upsampling: half of Y's size for 4:2:0 at full scale,
   * but as large as Y at 1/2, where it scales chroma by its IDCT instead); the Java codec always returns 4:2:0
   * planes. Other colour spaces (greyscale, CMYK, YCCK) fail with {@link JpegException}.
   */
  void decodePlanes(ByteBuffer src, int scaleNum, Idct idct, ByteBuffer dst, int dstOffset, YccPlanes into);

  /**
   * Encodes 4:2:0 planes ({@link YccPlanes#set420} layout of a {@code width x height} image, from
   * {@code srcOffset}) to a baseline JFIF JPEG with 4:2:0 chroma, without colour conversion or chroma
   * downsampling; returns the bytes written at {@code dstOffset}. {@link #maxEncodedSize} always fits.
   */
  int encodePlanes(ByteBuffer planes, int srcOffset, int width, int height, int quality, ByteBuffer dst,
      int dstOffset);

  /** An upper bound of the encoded size (TurboJPEG's tjBufSize rule for 4:4:4, the worst case). */
  static int maxEncodedSize(int width, int height) {
    long pw = (width + 15L) & ~15L;
    long ph = (height + 15L) & ~15L;
    long n = pw * ph * 6 + 2048;
    if (n > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("Image " + width + "x" + height + " is too large to encode");
    }
    return (int) n;
  }

  /** Frees the handle; idempotent. */
  @Override
  void close();
}
