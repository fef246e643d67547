package org.sparkbeton.spark.write;

import org.apache.spark.sql.types.DataType;
import org.sparkbeton.format.BetonField;

/**
 * One Spark column mapped to one .beton field.
 *
 * @param parts where a {@link ColumnKind#READ_IMAGE} column's size and stored mode are; null for other kinds
 */
record ColumnPlan(String column, int ordinal, DataType type, ColumnKind kind, BetonField field, ImageParts parts) {
  ColumnPlan(String column, int ordinal, DataType type, ColumnKind kind, BetonField field) {
    this(column, ordinal, type, kind, field, null);
  }

  /**
   * The ordinals of the columns a beton read adds beside an image column ({@code _width}, {@code _height},
   * {@code _mode}), which describe its payload.
   *
   * @param rgb whether the payload is always decoded RGB bytes (a read with {@code imageMode=raw}); otherwise it is
   *     the image as stored, RGB bytes where the mode column says {@code raw}
   */
  record ImageParts(int width, int height, int mode, boolean rgb) {}
}
