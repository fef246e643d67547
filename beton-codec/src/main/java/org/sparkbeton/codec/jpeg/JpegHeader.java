package org.sparkbeton.codec.jpeg;

/**
 * What {@link JpegCodec#probe} learns from a JPEG header without decoding. Mutable and reusable so the
 * per-image path does not allocate; not thread-safe.
 */
public final class JpegHeader {
  private int width;
  private int height;
  private int components;
  private JpegColorSpace colorSpace = JpegColorSpace.UNKNOWN;
  private ChromaSubsampling subsampling = ChromaSubsampling.UNKNOWN;
  private boolean progressive;

  void set(int width, int height, int components, JpegColorSpace colorSpace, ChromaSubsampling subsampling,
      boolean progressive) {
    this.width = width;
    this.height = height;
    this.components = components;
    this.colorSpace = colorSpace;
    this.subsampling = subsampling;
    this.progressive = progressive;
  }

  public int width() {
    return width;
  }

  public int height() {
    return height;
  }

  public int components() {
    return components;
  }

  public JpegColorSpace colorSpace() {
    return colorSpace;
  }

  public ChromaSubsampling subsampling() {
    return subsampling;
  }

  public boolean progressive() {
    return progressive;
  }

  @Override
  public String toString() {
    return width + "x" + height + " " + components + "ch " + colorSpace + " " + subsampling
        + (progressive ? " progressive" : " baseline");
  }
}
