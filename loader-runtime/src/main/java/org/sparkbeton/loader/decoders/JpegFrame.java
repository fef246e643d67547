package org.sparkbeton.loader.decoders;

import java.nio.ByteBuffer;
import org.sparkbeton.loader.pipeline.BadSampleException;
import org.sparkbeton.loader.pipeline.FieldSource;

/**
 * A JPEG's frame size from its SOF marker segment, read in place (absolute gets, no allocation: it runs per
 * sample), so a decoder can refuse a JPEG whose frame disagrees with the image size in its metadata before
 * decoding it into memory sized by that metadata.
 */
final class JpegFrame {
  private JpegFrame() {}

  /** {@code (width << 16) | height} of the first SOFn segment in {@code b[offset, offset + length)}, or -1. */
  static long size(ByteBuffer b, int offset, int length) {
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
      int segment = ((b.get(pos + 2) & 0xff) << 8) | (b.get(pos + 3) & 0xff);
      if (segment < 2 || pos + 2 + segment > end) {
        return -1;
      }
      boolean sof = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
      if (sof) {
        if (segment < 7) {
          return -1;
        }
        long height = ((b.get(pos + 5) & 0xff) << 8) | (b.get(pos + 6) & 0xff);
        long width = ((b.get(pos + 7) & 0xff) << 8) | (b.get(pos + 8) & 0xff);
        return (width << 16) | height;
      }
      pos += 2 + segment;
    }
    return -1;
  }

  /** Throws a {@link BadSampleException} naming the sample unless the JPEG's frame is {@code width x height}. */
  static void require(ByteBuffer b, int offset, int length, int width, int height, FieldSource field, long sample) {
    long size = size(b, offset, length);
    if (size < 0) {
      throw new BadSampleException(field.where(sample) + ", field '" + field.name() + "': the JPEG payload has no"
          + " readable frame header (SOF marker)");
    }
    if ((size >>> 16) != width || (size & 0xffff) != height) {
      throw new BadSampleException(field.where(sample) + ", field '" + field.name() + "': the JPEG's frame is "
          + (size >>> 16) + "x" + (size & 0xffff) + " but its metadata says " + width + "x" + height);
    }
  }
}
