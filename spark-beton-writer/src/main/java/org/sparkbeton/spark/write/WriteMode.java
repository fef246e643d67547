package org.sparkbeton.spark.write;

import java.util.Locale;

/** FFCV's image write modes (docs/format.md#image-write-modes). */
public enum WriteMode {
  /** Decoded RGB bytes, H*W*3. */
  RAW,
  /** JPEG. */
  JPG,
  /** JPEG when the raw size exceeds {@code smartThreshold} bytes, raw otherwise. */
  SMART,
  /** JPEG with probability {@code compressProbability}, raw otherwise. */
  PROPORTION;

  static WriteMode parse(String s) {
    try {
      return valueOf(s.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Option " + BetonWriteOptions.WRITE_MODE + " must be raw, jpg, smart or proportion, got '"
          + s + "'");
    }
  }
}
