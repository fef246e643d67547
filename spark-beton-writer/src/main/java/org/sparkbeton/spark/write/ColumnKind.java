package org.sparkbeton.spark.write;

/** How a Spark column becomes a .beton value. */
enum ColumnKind {
  LONG, INT, SHORT, BYTE, BOOLEAN, FLOAT, DOUBLE,
  BINARY, ENCODED_IMAGE, IMAGE_PATH, IMAGE_STRUCT, NUMERIC_ARRAY, STRING_JSON, STRING_BYTES, JSON
}
