package org.sparkbeton.loader.decoders;

import java.nio.ByteBuffer;

/**
 * The seam to the image codec layer: JPEG decoding for the RGB decoders. {@link BetonCodecJpeg} implements
 * it with module {@code beton-codec} (libjpeg-turbo through JNI when the library loads, pure Java
 * otherwise); {@link #NONE} refuses JPEG payloads, so only RAW images decode. Implementations are called
 * concurrently from worker threads and must not allocate per call on the fast path.
 */
public interface JpegCodec {

  /** No codec: every call fails, saying what is needed. */
  JpegCodec NONE = new JpegCodec() {
    @Override
    public boolean available() {
      return false;
    }

    @Override
    public void decodeRgb(ByteBuffer jpeg, int offset, int length, int width, int height, ByteBuffer out, int outOffset) {
      throw new UnsupportedOperationException(UNAVAILABLE);
    }
  };

  String UNAVAILABLE = "JPEG decoding is off (JpegCodec.NONE); only RAW images decode without a codec"
      + " (the decoders' default constructors use beton-codec)";

  /** Whether {@link #decodeRgb} works. */
  boolean available();

  /**
   * Decodes the JPEG at {@code jpeg[offset, offset + length)} into {@code height × width × 3} RGB
   * bytes at {@code out[outOffset]}; the image must have exactly that size.
   */
  void decodeRgb(ByteBuffer jpeg, int offset, int length, int width, int height, ByteBuffer out, int outOffset);

  /**
   * Decodes only the box {@code [x, x+w) × [y, y+h)} (source pixels) of the JPEG at {@code jpeg[offset,
   * offset + length)}, DCT-scaled by {@code scaleNum}/8, as packed RGB rows at {@code out[outOffset]}.
   * Returns the decoded size packed as {@code (width << 32) | height} (beton-codec's {@code ImageSize}):
   * the box mapped onto the scaled image as {@code [floor(x·M/8), ceil((x+w)·M/8))}.
   */
  default long decodeRegionRgb(ByteBuffer jpeg, int offset, int length, int x, int y, int w, int h, int scaleNum,
      ByteBuffer out, int outOffset) {
    throw new UnsupportedOperationException(getClass().getName() + " cannot decode a region; " + UNAVAILABLE);
  }

  /**
   * As {@link #decodeRegionRgb}, but rows may be left wider than the box (beton-codec's
   * {@code decodeRegionPadded}: no row copy out of the decoder's scanlines): {@code layout[0]} gets the box's
   * first column within a row, {@code layout[1]} the row stride in pixels. The default decodes as
   * {@link #decodeRegionRgb}: layout {0, box width}.
   */
  default long decodeRegionRgbPadded(ByteBuffer jpeg, int offset, int length, int x, int y, int w, int h,
      int scaleNum, ByteBuffer out, int outOffset, int[] layout) {
    long size = decodeRegionRgb(jpeg, offset, length, x, y, w, h, scaleNum, out, outOffset);
    layout[0] = 0;
    layout[1] = (int) (size >>> 32);
    return size;
  }
}
