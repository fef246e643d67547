package org.sparkbeton.codec.jpeg;

/** Chroma subsampling of an encoded JPEG; codes are TurboJPEG's TJSAMP values. */
public enum ChromaSubsampling {
  S444(0), S422(1), S420(2), GRAY(3), S440(4), S411(5), UNKNOWN(-1);

  private final int code;

  ChromaSubsampling(int code) {
    this.code = code;
  }

  int code() {
    return code;
  }

  static ChromaSubsampling ofCode(int code) {
    for (ChromaSubsampling s : values()) {
      if (s.code == code) {
        return s;
      }
    }
    return UNKNOWN;
  }
}
