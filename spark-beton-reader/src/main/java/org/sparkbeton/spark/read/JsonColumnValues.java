package org.sparkbeton.spark.read;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.DateTimeUtils;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.Decimal;
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
import org.apache.spark.unsafe.types.UTF8String;
import org.sparkbeton.format.dataset.JsonText;

/**
 * A JSON field's value as the Spark value of the struct, map or list type its writer recorded
 * ({@link BetonSchema}), the inverse of the writer's JSON: objects to structs (by member name; a missing member is
 * null) and maps (keys parsed as the key type), lists to arrays, lists of byte values to binary, decimal text to
 * decimals, ISO-8601 text to dates and timestamps. A value that is not of the type (a dataset edited by another
 * writer) is an IllegalArgumentException saying what was found.
 */
final class JsonColumnValues {
  private JsonColumnValues() {}

  static Object parse(String text, DataType type) {
    return value(JsonText.value(text), type);
  }

  private static Object value(Object v, DataType t) {
    if (v == null) {
      return null;
    }
    if (t instanceof StructType s) {
      Map<?, ?> members = as(Map.class, v, t);
      StructField[] fields = s.fields();
      Object[] out = new Object[fields.length];
      for (int i = 0; i < fields.length; i++) {
        out[i] = value(members.get(fields[i].name()), fields[i].dataType());
      }
      return new GenericInternalRow(out);
    }
    if (t instanceof ArrayType a) {
      List<?> items = as(List.class, v, t);
      Object[] out = new Object[items.size()];
      for (int i = 0; i < out.length; i++) {
        out[i] = value(items.get(i), a.elementType());
      }
      return new GenericArrayData(out);
    }
    if (t instanceof MapType m) {
      Map<?, ?> members = as(Map.class, v, t);
      Object[] keys = new Object[members.size()];
      Object[] values = new Object[members.size()];
      int i = 0;
      for (Map.Entry<?, ?> e : members.entrySet()) {
        keys[i] = key((String) e.getKey(), m.keyType());
        values[i++] = value(e.getValue(), m.valueType());
      }
      return new ArrayBasedMapData(new GenericArrayData(keys), new GenericArrayData(values));
    }
    if (t instanceof StringType) {
      return UTF8String.fromString(as(String.class, v, t));
    }
    if (t instanceof BooleanType) {
      return as(Boolean.class, v, t);
    }
    if (t instanceof LongType || t instanceof IntegerType || t instanceof ShortType || t instanceof ByteType) {
      return integer(as(Long.class, v, t), t);
    }
    if (t instanceof DoubleType) {
      return as(Number.class, v, t).doubleValue();
    }
    if (t instanceof FloatType) {
      return as(Number.class, v, t).floatValue();
    }
    if (t instanceof BinaryType) {
      List<?> items = as(List.class, v, t);
      byte[] out = new byte[items.size()];
      for (int i = 0; i < out.length; i++) {
        Object b = items.get(i);
        if (!(b instanceof Long l) || l < 0 || l > 255) {
          throw new IllegalArgumentException("expected byte values 0-255 for " + t.simpleString() + ", found " + b);
        }
        out[i] = (byte) (long) l;
      }
      return out;
    }
    if (t instanceof DecimalType d) {
      try {
        Decimal out = Decimal.apply(new BigDecimal(as(String.class, v, t)));
        if (out.changePrecision(d.precision(), d.scale())) {
          return out;
        }
      } catch (NumberFormatException e) {
        // below
      }
      throw new IllegalArgumentException("expected a " + t.simpleString() + " as text, found " + v);
    }
    if (t instanceof DateType || t instanceof TimestampType || t instanceof TimestampNTZType) {
      String text = as(String.class, v, t);
      try {
        if (t instanceof DateType) {
          return DateTimeUtils.localDateToDays(LocalDate.parse(text));
        }
        return t instanceof TimestampType ? DateTimeUtils.instantToMicros(Instant.parse(text))
            : DateTimeUtils.localDateTimeToMicros(LocalDateTime.parse(text));
      } catch (DateTimeParseException | ArithmeticException e) {
        throw new IllegalArgumentException("expected a " + t.simpleString() + " as ISO-8601 text, found " + text, e);
      }
    }
    throw new IllegalArgumentException("no JSON form of " + t.simpleString());
  }

  /**
   * A map key, which JSON keeps as a string: the string itself; an integer, a boolean, a decimal, a date or a
   * timestamp as the text its value is written as; binary, structs and lists as their JSON text.
   */
  private static Object key(String k, DataType t) {
    if (t instanceof StringType) {
      return UTF8String.fromString(k);
    }
    try {
      if (t instanceof LongType || t instanceof IntegerType || t instanceof ShortType || t instanceof ByteType) {
        return integer(Long.parseLong(k), t);
      }
      if (t instanceof BooleanType) {
        if (!k.equals("true") && !k.equals("false")) {
          throw new IllegalArgumentException("expected true or false");
        }
        return Boolean.valueOf(k);
      }
      if (t instanceof DecimalType || t instanceof DateType || t instanceof TimestampType
          || t instanceof TimestampNTZType) {
        return value(k, t);
      }
      return value(JsonText.value(k), t);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("expected a " + t.simpleString() + " map key, found \"" + k + "\"", e);
    }
  }

  /** An integer of type {@code t} (bigint, int, smallint, tinyint), narrowed as an Int field's values are. */
  private static Object integer(long v, DataType t) {
    NarrowColumn narrow = NarrowColumn.ofInteger(t);
    if (narrow == null) {
      return v;
    }
    if (!narrow.fits(v)) {
      throw new IllegalArgumentException(v + " is out of range for " + t.simpleString());
    }
    return narrow.value(v);
  }

  private static <T> T as(Class<T> kind, Object v, DataType t) {
    if (!kind.isInstance(v)) {
      throw new IllegalArgumentException("expected " + t.simpleString() + ", found " + v);
    }
    return kind.cast(v);
  }
}
