package org.sparkbeton.spark.write;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.DateTimeUtils;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.unsafe.types.UTF8String;
import org.sparkbeton.format.JsonStrings;

/**
 * Spark values (structs, maps, arrays and their leaves) as JSON text in Python's {@code json.dumps}
 * style, so FFCV's {@code JSONField.unpack} gives back the dict. Binary leaves become arrays of
 * byte values; dates and timestamps their ISO-8601 text ({@code "2024-05-01"}, {@code "2024-05-01T12:30:00Z"},
 * without a zone for timestamps without one); map keys become strings; non-finite floats become null.
 */
final class JsonValues {
  private JsonValues() {}

  static String toJson(Object value, DataType type) {
    StringBuilder sb = new StringBuilder();
    append(sb, value, type);
    return sb.toString();
  }

  static void append(StringBuilder sb, Object v, DataType t) {
    if (v == null) {
      sb.append("null");
    } else if (t instanceof StructType s) {
      InternalRow row = (InternalRow) v;
      sb.append('{');
      StructField[] fields = s.fields();
      for (int i = 0; i < fields.length; i++) {
        if (i > 0) {
          sb.append(", ");
        }
        string(sb, fields[i].name());
        sb.append(": ");
        append(sb, row.isNullAt(i) ? null : row.get(i, fields[i].dataType()), fields[i].dataType());
      }
      sb.append('}');
    } else if (t instanceof ArrayType a) {
      ArrayData arr = (ArrayData) v;
      sb.append('[');
      for (int i = 0; i < arr.numElements(); i++) {
        if (i > 0) {
          sb.append(", ");
        }
        append(sb, arr.isNullAt(i) ? null : arr.get(i, a.elementType()), a.elementType());
      }
      sb.append(']');
    } else if (t instanceof MapType m) {
      MapData map = (MapData) v;
      sb.append('{');
      for (int i = 0; i < map.numElements(); i++) {
        if (i > 0) {
          sb.append(", ");
        }
        // JSON keys are strings: a string key as it is (escaped once, here), another key's JSON text, unquoted
        Object k = map.keyArray().get(i, m.keyType());
        StringBuilder key = new StringBuilder();
        if (m.keyType() instanceof StringType) {
          key.append(Utf8Text.of((UTF8String) k));
        } else {
          append(key, k, m.keyType());
          if (key.length() > 1 && key.charAt(0) == '"') {
            key.deleteCharAt(key.length() - 1).deleteCharAt(0);
          }
        }
        string(sb, key.toString());
        sb.append(": ");
        append(sb, map.valueArray().isNullAt(i) ? null : map.valueArray().get(i, m.valueType()), m.valueType());
      }
      sb.append('}');
    } else if (t instanceof StringType) {
      string(sb, Utf8Text.of((UTF8String) v));
    } else if (t instanceof BooleanType || t instanceof LongType || t instanceof IntegerType || t instanceof ShortType
        || t instanceof ByteType) {
      sb.append(v);
    } else if (t instanceof DoubleType || t instanceof FloatType) {
      double d = ((Number) v).doubleValue();
      if (!Double.isFinite(d)) {
        // JSON has no such number: stored as null, it read back as null without a word
        throw new IllegalArgumentException("a " + d + " inside a struct, array or map, which is stored as JSON: JSON"
            + " has no NaN or infinity, and it would read back as null. Replace it first (nanvl(x, ...), or"
            + " when(isnan(x) || abs(x) = 'Infinity', ...)), or store an array of numbers as an NDArray field"
            + " (option arrayShapes), which keeps it");
      }
      sb.append(Double.toString(d));
    } else if (t instanceof DateType) {
      string(sb, DateTimeUtils.daysToLocalDate((Integer) v).toString());
    } else if (t instanceof TimestampType) {
      string(sb, DateTimeUtils.microsToInstant((Long) v).toString());
    } else if (t instanceof TimestampNTZType) {
      string(sb, DateTimeUtils.microsToLocalDateTime((Long) v).toString());
    } else if (t instanceof BinaryType) {
      byte[] b = (byte[]) v;
      sb.append('[');
      for (int i = 0; i < b.length; i++) {
        sb.append(i > 0 ? ", " : "").append(b[i] & 0xff);
      }
      sb.append(']');
    } else {
      string(sb, v.toString());
    }
  }

  static void string(StringBuilder sb, String s) {
    JsonStrings.append(sb, s);
  }
}
