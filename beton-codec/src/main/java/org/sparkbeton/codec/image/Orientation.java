package org.sparkbeton.codec.image;

/** Applies an EXIF orientation (1..8) to a packed RGB image, as PIL's {@code ImageOps.exif_transpose}. */
public final class Orientation {
  private Orientation() {}

  public static RgbPixels apply(RgbPixels img, int orientation) {
    if (orientation < 1 || orientation > 8) {
      throw new IllegalArgumentException("EXIF orientation must be 1..8, got " + orientation);
    }
    if (orientation == 1) {
      return img;
    }
    int w = img.width();
    int h = img.height();
    boolean swap = orientation >= 5;
    int ow = swap ? h : w;
    int oh = swap ? w : h;
    byte[] src = img.pixels();
    byte[] out = new byte[src.length];
    for (int y = 0; y < oh; y++) {
      for (int x = 0; x < ow; x++) {
        int sx;
        int sy;
        switch (orientation) {
          case 2: sx = w - 1 - x; sy = y; break;
          case 3: sx = w - 1 - x; sy = h - 1 - y; break;
          case 4: sx = x; sy = h - 1 - y; break;
          case 5: sx = y; sy = x; break;
          case 6: sx = y; sy = h - 1 - x; break;
          case 7: sx = w - 1 - y; sy = h - 1 - x; break;
          default: sx = w - 1 - y; sy = x; break; // 8
        }
        int s = (sy * w + sx) * 3;
        int d = (y * ow + x) * 3;
        out[d] = src[s];
        out[d + 1] = src[s + 1];
        out[d + 2] = src[s + 2];
      }
    }
    return new RgbPixels(ow, oh, out);
  }
}
