package org.sparkbeton.codec.jpeg;

/** Inverse DCT used by the decoder (and forward DCT by the encoder). */
public enum Idct {
  /** libjpeg's fast integer IDCT (JDCT_IFAST); what FFCV uses, so golden pixels match bit for bit. */
  FAST,
  /** libjpeg's accurate integer IDCT (JDCT_ISLOW). */
  ACCURATE
}
