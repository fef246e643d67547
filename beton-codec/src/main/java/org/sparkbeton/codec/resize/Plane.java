package org.sparkbeton.codec.resize;

import java.nio.ByteBuffer;

/**
 * One 8-bit channel laid out in a buffer (a JPEG's Y, Cb or Cr plane): {@code height} rows of {@code width} bytes,
 * the first at {@code offset}, each {@code stride} bytes after the one before ({@code stride >= width}). What
 * {@link Resizer#resizePlane(Plane, Plane)} and {@link Resizer#areaPlane(Plane, double, double, Plane)} read and
 * write; the resizer checks it against the buffer.
 */
public record Plane(ByteBuffer buffer, int offset, int stride, int width, int height) {
  /** A plane whose rows follow each other with no gap ({@code stride == width}). */
  public static Plane packed(ByteBuffer buffer, int offset, int width, int height) {
    return new Plane(buffer, offset, width, width, height);
  }
}
