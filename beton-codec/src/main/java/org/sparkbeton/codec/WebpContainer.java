package org.sparkbeton.codec;

/**
 * The RIFF container of a WebP file, checked whole before its decode: TwelveMonkeys' lossless (VP8L) decoder
 * returns an image for most files cut short, the rows past the cut filled with garbage, and no error, where
 * libwebp reports {@code NOT_ENOUGH_DATA}. The RIFF header states the file's size, so a cut file is known before
 * any pixel is decoded.
 */
final class WebpContainer {
  private WebpContainer() {}

  /** Throws {@link ImageDecodeException} for a WebP file shorter than its RIFF header says; other bytes pass. */
  static void requireWhole(byte[] b) {
    if (!isWebp(b)) {
      return;
    }
    // the RIFF size (little-endian) counts the bytes after its own 8: "RIFF" and the size itself
    long declared = 8 + ((b[4] & 0xFFL) | (b[5] & 0xFFL) << 8 | (b[6] & 0xFFL) << 16 | (b[7] & 0xFFL) << 24);
    if (declared > b.length) {
      throw new ImageDecodeException("WebP image is truncated: its RIFF header says " + declared + " bytes, and"
          + " the file has " + b.length);
    }
  }

  static boolean isWebp(byte[] b) {
    return b.length >= 12 && b[0] == 'R' && b[1] == 'I' && b[2] == 'F' && b[3] == 'F' && b[8] == 'W' && b[9] == 'E'
        && b[10] == 'B' && b[11] == 'P';
  }
}
