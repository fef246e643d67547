package org.sparkbeton.codec.jpeg;

/** Colour space of the encoded data, as libjpeg guesses it from JFIF/Adobe markers and component ids. */
public enum JpegColorSpace {
  UNKNOWN, GRAYSCALE, RGB, YCBCR, CMYK, YCCK;

  static JpegColorSpace ofLibjpeg(int jcs) {
    return jcs >= 0 && jcs <= 5 ? values()[jcs] : UNKNOWN;
  }
}
