package org.sparkbeton.codec;

/**
 * The largest image, in pixels, that a caller lets a decoder take on, checked from the image's header before any
 * pixel is decoded: a decompression bomb (a 1 MB PNG declaring 30000x30000, a JPEG header patched to 65500x65500)
 * costs a header read instead of gigabytes. {@code name} says where the limit comes from, for the message (the
 * writer's option {@code maxImagePixels}).
 *
 * @param maxPixels the most pixels (width times height) accepted, at least 1
 * @param name what sets the limit, quoted in the message
 */
public record PixelLimit(long maxPixels, String name) {
  /**
   * PIL's {@code Image.MAX_IMAGE_PIXELS} (1024 * 1024 * 1024 / 4 / 3 = 89,478,485: a quarter gigabyte of RGB), above
   * which PIL warns of a decompression bomb.
   */
  public static final long PIL_DEFAULT = 1024L * 1024 * 1024 / 4 / 3;

  public PixelLimit {
    if (maxPixels < 1) {
      throw new IllegalArgumentException("A pixel limit must be at least 1, got " + maxPixels);
    }
    java.util.Objects.requireNonNull(name, "name");
  }

  /** Throws {@link ImageDecodeException} when a {@code width x height} image is over the limit. */
  public void check(long width, long height) {
    if (width * height > maxPixels) {
      throw new ImageDecodeException("image is too large to decode: " + width + "x" + height + " = "
          + pixels(width * height) + ", over the limit of " + pixels(maxPixels) + " (" + name + ")");
    }
  }

  /** {@code 4.3 gigapixels}, {@code 400 megapixels}, {@code 89.5 megapixels}, {@code 250000 pixels}. */
  static String pixels(long n) {
    if (n >= 1_000_000_000L) {
      return String.format(java.util.Locale.ROOT, "%.1f gigapixels", n / 1e9);
    }
    if (n >= 1_000_000L) {
      String mp = String.format(java.util.Locale.ROOT, "%.1f", n / 1e6);
      return (mp.endsWith(".0") ? mp.substring(0, mp.length() - 2) : mp) + " megapixels";
    }
    return n + " pixels";
  }
}
