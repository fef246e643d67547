package org.sparkbeton.spark.write;

import org.apache.spark.sql.types.DataType;
import org.sparkbeton.format.BetonField;

/** One Spark column mapped to one .beton field. */
record ColumnPlan(String column, int ordinal, DataType type, ColumnKind kind, BetonField field) {
}
