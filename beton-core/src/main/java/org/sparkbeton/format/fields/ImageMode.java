package org.sparkbeton.format.fields;

/** How an RGBImage payload is stored: the {@code mode} byte of its metadata. */
public enum ImageMode {
  /** A JPEG file (baseline JFIF in FFCV's writer). */
  JPG(0),
  /** {@code height * width * 3} bytes, row-major, R,G,B interleaved. */
  RAW(1);

  private final int code;

  ImageMode(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  /** The mode for a stored byte, or null when the byte is neither 0 nor 1. */
  public static ImageMode ofCode(int code) {
    return code == 0 ? JPG : code == 1 ? RAW : null;
  }

  public String label() {
    return this == JPG ? "jpg" : "raw";
  }
}
