package org.sparkbeton.spark.write;

import java.io.Serializable;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Option {@link BetonWriteOptions#ARRAY_SHAPES}: the shape of each numeric array column stored as an NDArray field,
 * {@code emb:3x4;mask:16}, column names in any case. Every entry must shape such a column: an entry that shapes
 * nothing (a misspelt or dropped column, a scalar, a nested or decimal array, which are stored as JSON text) or a
 * column given twice is refused before any task runs, since the write would otherwise store the column some other
 * way without a word.
 */
final class ArrayShapes implements Serializable {
  private static final long serialVersionUID = 1L;

  /** One entry: the column as given, its shape, and the entry's text for messages. */
  private record Entry(String column, long[] shape, String text) implements Serializable {}

  /** By column name in lower case, in the order given. */
  private final Map<String, Entry> entries;

  private ArrayShapes(Map<String, Entry> entries) {
    this.entries = entries;
  }

  /** Parses the option's value ({@code ""} when not given); throws IllegalArgumentException naming a bad entry. */
  static ArrayShapes parse(String text) {
    Map<String, Entry> entries = new LinkedHashMap<>();
    for (String entry : text.split(";")) {
      if (entry.isBlank()) {
        continue;
      }
      String[] kv = entry.split(":");
      if (kv.length != 2 || kv[0].isBlank()) {
        throw new IllegalArgumentException("Option arrayShapes must look like 'emb:3x4;mask:16', got '" + entry + "'");
      }
      String column = kv[0].trim();
      String[] dims = kv[1].trim().toLowerCase(Locale.ROOT).split("x", -1); // '2x' has an empty last dimension
      long[] shape = new long[dims.length];
      for (int i = 0; i < dims.length; i++) {
        try {
          shape[i] = Long.parseLong(dims[i].trim());
        } catch (NumberFormatException e) {
          shape[i] = -1;
        }
        if (shape[i] < 1) {
          throw new IllegalArgumentException("Option arrayShapes: dimension '" + dims[i] + "' of column '" + column
              + "' is not a positive integer");
        }
      }
      Entry before = entries.putIfAbsent(column.toLowerCase(Locale.ROOT), new Entry(column, shape, entry.trim()));
      if (before != null) {
        throw new IllegalArgumentException("Option arrayShapes gives column '" + column + "' two shapes ('"
            + before.text() + "' and '" + entry.trim() + "'): give each column once");
      }
    }
    return new ArrayShapes(entries);
  }

  /** The shape given to {@code column} (any case), or null. */
  long[] of(String column) {
    Entry e = entries.get(column.toLowerCase(Locale.ROOT));
    return e == null ? null : e.shape().clone();
  }

  /**
   * Refuses an entry naming a column {@code schema} does not have ({@code missing} words the message): checked before
   * the columns are planned, since a misspelt entry leaves the column it meant without a shape, whose refusal would
   * otherwise come first and not name the entry.
   */
  void requireColumnsExist(StructType schema, java.util.function.Function<String, IllegalArgumentException> missing) {
    for (Entry e : entries.values()) {
      if (Arrays.stream(schema.fieldNames()).noneMatch(e.column()::equalsIgnoreCase)) {
        throw missing.apply(e.column());
      }
    }
  }

  /**
   * Refuses an entry that shapes no column of {@code plans}, the columns of {@code schema} stored: one the DataFrame
   * does not have ({@code missing} words that message), or one not stored as an NDArray field, saying why.
   */
  void requireEachShapesAnArray(StructType schema, List<ColumnPlan> plans,
      java.util.function.Function<String, IllegalArgumentException> missing) {
    for (Entry e : entries.values()) {
      StructField column = Arrays.stream(schema.fields()).filter(f -> f.name().equalsIgnoreCase(e.column()))
          .findFirst().orElseThrow(() -> missing.apply(e.column()));
      ColumnPlan plan = plans.stream().filter(p -> p.column().equalsIgnoreCase(e.column())).findFirst().orElse(null);
      if (plan == null || plan.kind() != ColumnKind.NUMERIC_ARRAY) {
        throw new IllegalArgumentException("Option arrayShapes entry '" + e.text() + "' shapes column '"
            + column.name() + "' (" + column.dataType().simpleString() + "), which is not stored as an NDArray field: "
            + whyNot(column, plan));
      }
    }
  }

  /** Why {@code column} (planned as {@code plan}, null when it is not stored) takes no shape, and what would. */
  private static String whyNot(StructField column, ColumnPlan plan) {
    DataType t = column.dataType();
    String name = column.name();
    if (plan == null) {
      return "it is not stored (the sourceIdColumn, or a part of an image column a beton read gave); drop the entry";
    }
    if (t instanceof ArrayType a && a.elementType() instanceof ArrayType) {
      return "an array of arrays is stored as JSON text. Flatten it (flatten(" + name + ")) and give the shape of"
          + " the whole, e.g. '" + name + ":2x2' for two lists of 2, to store it as one";
    }
    if (t instanceof ArrayType a && a.elementType() instanceof DecimalType) {
      return "an array of decimals is stored as JSON text. Cast it to array<double> to store it as one";
    }
    if (t instanceof ArrayType) {
      return "only arrays of numbers or booleans are; this one is stored as JSON text";
    }
    return "it is stored as a " + org.sparkbeton.format.FieldTypes.name(plan.field().typeId()) + " field, and only"
        + " arrays of numbers or booleans take a shape; drop the entry";
  }
}
