package org.sparkbeton.loader.decoders;

import java.nio.ByteBuffer;

/**
 * The seam to the image codec layer (module {@code beton-codec}, built separately): JPEG decoding for
 * the RGB decoders. The codec module will provide an implementation (libjpeg-turbo with a pure-Java
 * fallback); until it is wired in, {@link #NONE} refuses JPEG payloads with a clear message and the
 * loader decodes RAW images only. Implementations are called concurrently from worker threads and
 * must not allocate per call on the fast path.
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

  String UNAVAILABLE = "JPEG decoding needs the beton-codec module, which is not wired into the loader yet;"
      + " only RAW images decode without it";

  /** Whether {@link #decodeRgb} works. */
  boolean available();

  /**
   * Decodes the JPEG at {@code jpeg[offset, offset + length)} into {@code height × width × 3} RGB
   * bytes at {@code out[outOffset]}; the image must have exactly that size.
   */
  void decodeRgb(ByteBuffer jpeg, int offset, int length, int width, int height, ByteBuffer out, int outOffset);
}
