package org.sparkbeton.codec.jpeg;

/** Packs an output width and height into one {@code long} so decode calls return without allocating. */
public final class ImageSize {
  private ImageSize() {}

  public static long pack(int width, int height) {
    return ((long) width << 32) | (height & 0xFFFFFFFFL);
  }

  public static int width(long packed) {
    return (int) (packed >>> 32);
  }

  public static int height(long packed) {
    return (int) packed;
  }

  /** Bytes of packed RGB for a packed size. */
  public static int rgbBytes(long packed) {
    return Math.multiplyExact(Math.multiplyExact(width(packed), height(packed)), 3);
  }
}
