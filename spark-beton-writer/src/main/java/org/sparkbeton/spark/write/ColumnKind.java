package org.sparkbeton.spark.write;

/**
 * How a Spark column becomes a .beton value. {@code DATE}: days since 1970-01-01; {@code TIMESTAMP} and
 * {@code TIMESTAMP_NTZ}: microseconds since 1970-01-01T00:00 (UTC, and local time), as Spark keeps them.
 * {@code READ_IMAGE}: an image as a beton read gives it, with the size and mode columns the read adds
 * ({@link ColumnPlan.ImageParts}). {@code READ_JSON}: a JSON field's values as a beton read gives them (a string's
 * text, any other value's JSON text). {@code DECIMAL}: a float64 that gives the decimal back at its scale
 * ({@link org.sparkbeton.format.dataset.StoredDecimals}).
 */
enum ColumnKind {
  LONG, INT, SHORT, BYTE, BOOLEAN, DATE, TIMESTAMP, TIMESTAMP_NTZ, FLOAT, DOUBLE, DECIMAL,
  BINARY, ENCODED_IMAGE, READ_IMAGE, IMAGE_PATH, IMAGE_STRUCT, NUMERIC_ARRAY, STRING_JSON, STRING_BYTES, JSON,
  READ_JSON
}
