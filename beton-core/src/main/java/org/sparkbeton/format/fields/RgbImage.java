package org.sparkbeton.format.fields;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * An encoded image as the format stores it: mode, size and payload. Producing the payload (decode,
 * resize, JPEG encode) is the codec layer's job, not the format's.
 */
public record RgbImage(ImageMode mode, int width, int height, ByteBuffer payload) {
  public static final int MAX_SIDE = 65535;

  public RgbImage {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(payload, "payload");
    if (width < 1 || width > MAX_SIDE || height < 1 || height > MAX_SIDE) {
      throw new IllegalArgumentException("Image size " + width + "x" + height
          + " is outside 1..65535 per side (the format stores u16 sizes)");
    }
    if (mode == ImageMode.RAW && payload.remaining() != rawSize(width, height)) {
      throw new IllegalArgumentException("Raw image " + width + "x" + height + " needs " + rawSize(width, height)
          + " bytes (H*W*3), got " + payload.remaining());
    }
    if (mode == ImageMode.JPG && payload.remaining() == 0) {
      throw new IllegalArgumentException("JPEG image " + width + "x" + height + " has an empty payload");
    }
  }

  public static RgbImage raw(int width, int height, byte[] rgb) {
    return new RgbImage(ImageMode.RAW, width, height, ByteBuffer.wrap(rgb));
  }

  public static RgbImage jpeg(int width, int height, byte[] jpeg) {
    return new RgbImage(ImageMode.JPG, width, height, ByteBuffer.wrap(jpeg));
  }

  public static long rawSize(int width, int height) {
    return 3L * width * height;
  }

  /** The payload bytes as a fresh array. */
  public byte[] payloadBytes() {
    ByteBuffer p = payload.duplicate();
    byte[] out = new byte[p.remaining()];
    p.get(out);
    return out;
  }
}
