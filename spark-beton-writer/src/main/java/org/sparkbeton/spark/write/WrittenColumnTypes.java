package org.sparkbeton.spark.write;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
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
import org.sparkbeton.format.dataset.RecordedColumnTypes;

/**
 * The recipe entries ({@link RecordedColumnTypes}) that record the Spark types of a write's columns whose fields are
 * wider than they: {@code int}, {@code smallint}, {@code tinyint}, {@code boolean}, date and timestamp columns (Int
 * fields), {@code float} (Float), strings stored as bytes, and structs, maps and lists stored as JSON whose values the JSON
 * gives back exactly ({@link #jsonRestores}). Other columns read back as they were written without an entry.
 */
final class WrittenColumnTypes {
  private WrittenColumnTypes() {}

  static Map<String, String> of(List<ColumnPlan> plans) {
    Map<String, String> out = new LinkedHashMap<>();
    for (ColumnPlan p : plans) {
      String type = switch (p.kind()) {
        case INT -> RecordedColumnTypes.INT;
        case SHORT -> RecordedColumnTypes.SMALLINT;
        case BYTE -> RecordedColumnTypes.TINYINT;
        case BOOLEAN -> RecordedColumnTypes.BOOLEAN;
        case DATE -> RecordedColumnTypes.DATE;
        case TIMESTAMP -> RecordedColumnTypes.TIMESTAMP;
        case TIMESTAMP_NTZ -> RecordedColumnTypes.TIMESTAMP_NTZ;
        case FLOAT -> RecordedColumnTypes.FLOAT;
        case DECIMAL -> p.type().sql(); // DECIMAL(10,2)
        case STRING_BYTES -> RecordedColumnTypes.STRING;
        case JSON -> jsonRestores(p.type()) ? p.type().sql() : null;
        default -> null;
      };
      if (type != null) {
        out.put(RecordedColumnTypes.key(p.field().name()), type);
      }
    }
    return out;
  }

  /**
   * Whether the JSON {@link JsonValues} writes for values of {@code t} gives them back: numbers (not-a-number and
   * infinities become null), strings, booleans, binary (lists of byte values), decimals, dates and timestamps (their
   * ISO-8601 text), in structs, lists and maps keyed by any of these but floats and doubles. Intervals and other types are written
   * as their text, which this reader does not parse back: such a column reads back as its JSON text.
   */
  static boolean jsonRestores(DataType t) {
    if (t instanceof StructType s) {
      for (StructField f : s.fields()) {
        if (!jsonRestores(f.dataType())) {
          return false;
        }
      }
      return true;
    }
    if (t instanceof ArrayType a) {
      return jsonRestores(a.elementType());
    }
    if (t instanceof MapType m) {
      // a key is JSON text as a string: a float's not-a-number and infinities would be the text null
      DataType k = m.keyType();
      boolean key = !(k instanceof DoubleType || k instanceof FloatType) && jsonRestores(k);
      return key && jsonRestores(m.valueType());
    }
    return t instanceof StringType || t instanceof BooleanType || t instanceof LongType || t instanceof IntegerType
        || t instanceof ShortType || t instanceof ByteType || t instanceof DoubleType || t instanceof FloatType
        || t instanceof BinaryType || t instanceof DecimalType || t instanceof DateType || t instanceof TimestampType
        || t instanceof TimestampNTZType;
  }
}
