package org.sparkbeton.spark.write;

/** Option {@link BetonWriteOptions#JPEG_PASS_THROUGH_CHECK}: how a JPEG stored as it came is checked. */
enum PassThroughCheck {
  /** decoded in full (every check of the codec runs) */
  DECODE,
  /** its markers are walked, no pixel decoded */
  MARKERS
}
