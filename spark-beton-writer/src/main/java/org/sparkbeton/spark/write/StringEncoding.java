package org.sparkbeton.spark.write;

/** Option {@link BetonWriteOptions#STRING_ENCODING}: how string columns are stored. */
enum StringEncoding {
  /** as a JSON field (FFCV's {@code JSONField}) */
  JSON,
  /** as UTF-8 bytes (FFCV's {@code BytesField}) */
  BYTES
}
