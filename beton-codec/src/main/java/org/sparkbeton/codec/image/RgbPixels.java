package org.sparkbeton.codec.image;

import java.util.Objects;

/** A decoded image: packed 8-bit RGB rows, {@code width*3} bytes each. */
public final class RgbPixels {
  private final int width;
  private final int height;
  private final byte[] pixels;

  public RgbPixels(int width, int height, byte[] pixels) {
    Objects.requireNonNull(pixels, "pixels");
    if (width <= 0 || height <= 0 || (long) width * height * 3 != pixels.length) {
      throw new IllegalArgumentException(String.format(
          "RGB image %dx%d needs %d bytes, got %d", width, height, (long) width * height * 3, pixels.length));
    }
    this.width = width;
    this.height = height;
    this.pixels = pixels;
  }

  public int width() {
    return width;
  }

  public int height() {
    return height;
  }

  /** The backing array (not a copy). */
  public byte[] pixels() {
    return pixels;
  }
}
