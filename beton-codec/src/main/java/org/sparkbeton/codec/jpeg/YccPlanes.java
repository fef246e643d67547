package org.sparkbeton.codec.jpeg;

/**
 * The layout of a YCbCr image held as three planes in one buffer: Y ({@code width x height} bytes), then Cb,
 * then Cr ({@code chromaWidth x chromaHeight} bytes each), every plane packed row by row from the buffer's
 * base offset. {@link JpegCodec#decodePlanes} fills one; {@link JpegCodec#encodePlanes} takes 4:2:0 planes.
 * Mutable and reusable so the per-image path does not allocate; not thread-safe.
 */
public final class YccPlanes {
  private int width;
  private int height;
  private int chromaWidth;
  private int chromaHeight;

  /** Sets all four sizes; each must be positive. */
  public YccPlanes set(int width, int height, int chromaWidth, int chromaHeight) {
    if (width <= 0 || height <= 0 || chromaWidth <= 0 || chromaHeight <= 0) {
      throw new IllegalArgumentException(String.format("Plane sizes must be positive: Y %dx%d, chroma %dx%d", width,
          height, chromaWidth, chromaHeight));
    }
    this.width = width;
    this.height = height;
    this.chromaWidth = chromaWidth;
    this.chromaHeight = chromaHeight;
    return this;
  }

  /** The 4:2:0 layout of a {@code width x height} image: chroma {@code (width+1)/2 x (height+1)/2}. */
  public YccPlanes set420(int width, int height) {
    return set(width, height, chromaSide420(width), chromaSide420(height));
  }

  /** A 4:2:0 chroma plane's side for a Y side of {@code side} pixels (the last chroma sample may cover one). */
  public static int chromaSide420(int side) {
    return (side + 1) / 2;
  }

  /** Bytes of the 4:2:0 planes of a {@code width x height} image (a long: no side limit is assumed). */
  public static long bytes420(int width, int height) {
    return (long) width * height + 2L * chromaSide420(width) * chromaSide420(height);
  }

  /**
   * Bytes a decode of a {@code width x height} (scaled) image may need: chroma planes are never larger than Y
   * (sampling factors are at least 1), so three times Y.
   */
  public static long maxBytes(int width, int height) {
    return 3L * width * height;
  }

  public int width() {
    return width;
  }

  public int height() {
    return height;
  }

  public int chromaWidth() {
    return chromaWidth;
  }

  public int chromaHeight() {
    return chromaHeight;
  }

  /** Offset of Cb from the base: Y's size. */
  public int cbOffset() {
    return Math.multiplyExact(width, height);
  }

  /** Offset of Cr from the base. */
  public int crOffset() {
    return Math.addExact(cbOffset(), Math.multiplyExact(chromaWidth, chromaHeight));
  }

  /** All three planes' bytes. */
  public int totalBytes() {
    return Math.addExact(crOffset(), Math.multiplyExact(chromaWidth, chromaHeight));
  }

  /** True when the chroma planes are the 4:2:0 ones of Y's size. */
  public boolean is420() {
    return chromaWidth == chromaSide420(width) && chromaHeight == chromaSide420(height);
  }

  @Override
  public String toString() {
    return "YccPlanes[Y " + width + "x" + height + ", chroma " + chromaWidth + "x" + chromaHeight + "]";
  }
}
