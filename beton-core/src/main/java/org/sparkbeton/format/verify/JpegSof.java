package org.sparkbeton.format.verify;

import java.nio.ByteBuffer;

/** Finds a JPEG's frame size in its SOF marker segment without decoding anything. */
public final class JpegSof {
  private JpegSof() {}

  /** {@code {width, height}} from the first SOFn segment, or null if the bytes are not a readable JPEG header. */
  public static int[] dimensions(ByteBuffer jpeg) {
    ByteBuffer b = jpeg.duplicate();
    int base = b.position();
    int end = b.limit();
    if (end - base < 4 || (b.get(base) & 0xff) != 0xFF || (b.get(base + 1) & 0xff) != 0xD8) {
      return null;
    }
    int pos = base + 2;
    while (pos + 4 <= end) {
      if ((b.get(pos) & 0xff) != 0xFF) {
        return null;
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
        return null; // end of image or start of scan before any frame header
      }
      int length = ((b.get(pos + 2) & 0xff) << 8) | (b.get(pos + 3) & 0xff);
      if (length < 2 || pos + 2 + length > end) {
        return null;
      }
      boolean sof = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
      if (sof) {
        if (length < 7) {
          return null;
        }
        int height = ((b.get(pos + 5) & 0xff) << 8) | (b.get(pos + 6) & 0xff);
        int width = ((b.get(pos + 7) & 0xff) << 8) | (b.get(pos + 8) & 0xff);
        return new int[] {width, height};
      }
      pos += 2 + length;
    }
    return null;
  }
}
