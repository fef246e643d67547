package org.sparkbeton.loader.decoders;

import java.nio.ByteBuffer;
import org.sparkbeton.format.verify.JpegSof;
import org.sparkbeton.loader.pipeline.BadSampleException;
import org.sparkbeton.loader.pipeline.FieldSource;

/**
 * Refuses a JPEG whose frame (its SOF marker segment, read in place by {@link JpegSof} with no allocation: it runs
 * per sample) disagrees with the image size in its metadata, before a decoder decodes it into memory sized by
 * that metadata.
 */
final class JpegFrame {
  private JpegFrame() {}

  /** Throws a {@link BadSampleException} naming the sample unless the JPEG's frame is {@code width x height}. */
  static void require(ByteBuffer b, int offset, int length, int width, int height, FieldSource field, long sample) {
    int sof = JpegSof.find(b, offset, length);
    if (sof < 0) {
      throw new BadSampleException(field.where(sample) + ", field '" + field.name() + "': the JPEG payload has no"
          + " readable frame header (SOF marker)");
    }
    int frameWidth = JpegSof.width(b, sof);
    int frameHeight = JpegSof.height(b, sof);
    if (frameWidth != width || frameHeight != height) {
      throw new BadSampleException(field.where(sample) + ", field '" + field.name() + "': the JPEG's frame is "
          + frameWidth + "x" + frameHeight + " but its metadata says " + width + "x" + height);
    }
  }
}
