package org.sparkbeton.format.verify;

import java.nio.ByteBuffer;

/**
 * Finds a JPEG's frame size in its SOF marker segment without decoding anything. The walk reads with absolute
 * gets and allocates nothing ({@link #find}, {@link #width}, {@link #height}), so a decoder can run it per sample;
 * {@link #dimensions} is the convenient form for everything else.
 */
public final class JpegSof {
  private JpegSof() {}

  /** {@code {width, height}} from the first SOFn segment, or null if the bytes are not a readable JPEG header. */
  public static int[] dimensions(ByteBuffer jpeg) {
    int sof = find(jpeg, jpeg.position(), jpeg.remaining());
    return sof < 0 ? null : new int[] {width(jpeg, sof), height(jpeg, sof)};
  }

  /**
   * Where the first SOFn segment of the JPEG in {@code b[offset, offset + length)} starts (its FF byte), or -1 if
   * the bytes end, or a scan or the end of the image comes, before one; the segment then holds the frame size
   * ({@link #width}, {@link #height}).
   */
  public static int find(ByteBuffer b, int offset, int length) {
    int end = offset + length;
    if (length < 4 || (b.get(offset) & 0xff) != 0xFF || (b.get(offset + 1) & 0xff) != 0xD8) {
      return -1;
    }
    int pos = offset + 2;
    while (pos + 4 <= end) {
      if ((b.get(pos) & 0xff) != 0xFF) {
        return -1;
      }
      int marker = b.get(pos + 1) & 0xff;
      if (marker == 0xFF) {
        pos++; // fill byte
        continue;
      }
      if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD8)) {
        pos += 2; // markers without a length
        continue;
      }
      if (marker == 0xD9 || marker == 0xDA) {
        return -1; // end of image or start of scan before any frame header
      }
      int segment = u16(b, pos + 2);
      if (segment < 2 || pos + 2 + segment > end) {
        return -1;
      }
      boolean sof = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
      if (sof) {
        return segment < 7 ? -1 : pos;
      }
      pos += 2 + segment;
    }
    return -1;
  }

  /** The frame width in the SOFn segment at {@code sof}, as {@link #find} returned it. */
  public static int width(ByteBuffer b, int sof) {
    return u16(b, sof + 7);
  }

  /** The frame height in the SOFn segment at {@code sof}, as {@link #find} returned it. */
  public static int height(ByteBuffer b, int sof) {
    return u16(b, sof + 5);
  }

  private static int u16(ByteBuffer b, int at) {
    return ((b.get(at) & 0xff) << 8) | (b.get(at + 1) & 0xff);
  }
}
