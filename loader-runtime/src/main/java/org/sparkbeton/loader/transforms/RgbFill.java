package org.sparkbeton.loader.transforms;

import java.nio.ByteBuffer;

/** The colour a transform paints pixels with: Cutout's square, RandomTranslate's border. */
record RgbFill(byte r, byte g, byte b) {

  /** The fill {@code op} was given as R, G, B values in 0..255; throws naming {@code op} otherwise. */
  static RgbFill of(String op, int[] rgb) {
    int[] v = Images.rgb(op, "fill", rgb);
    return new RgbFill((byte) v[0], (byte) v[1], (byte) v[2]);
  }

  /**
   * Paints {@code pixels} packed RGB pixels of {@code out} in colour (r, g, b), the first at byte {@code at}. Static,
   * with the colour passed in, so a stage's loop keeps the three bytes in registers.
   */
  static void paint(ByteBuffer out, int at, int pixels, byte r, byte g, byte b) {
    for (int i = 0; i < pixels; i++, at += 3) {
      out.put(at, r);
      out.put(at + 1, g);
      out.put(at + 2, b);
    }
  }
}
