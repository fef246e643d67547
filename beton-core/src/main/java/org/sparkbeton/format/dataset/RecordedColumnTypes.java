package org.sparkbeton.format.dataset;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.sparkbeton.format.FieldTypes;

/**
 * The column types a Spark write records in its dataset's recipe, one entry {@code spark_type.<field>} per field whose
 * .beton type is wider than the column it was written from: a field stores every integer as int64 and every
 * floating-point number as float64 (and a date as its days, a timestamp as its microseconds since 1970), a string as
 * UTF-8 bytes when asked, a struct, map or list as JSON text. A read of the dataset gives each such column the
 * recorded type again ({@code int}, not {@code bigint}; the struct, not its
 * JSON text). The values are Spark SQL type names ({@code INT}, {@code STRUCT<`a`: INT>}), which readers without
 * Spark ignore: the .beton files are the same with or without them.
 *
 * <p>An append keeps a recorded type only where it holds for the rows appended too ({@link #afterAppend}): {@code int}
 * rows appended to {@code smallint} ones make the field {@code int}; a {@code bigint} column, or a type recorded on
 * one side only, leaves no record, and the field reads as its .beton type.
 */
public final class RecordedColumnTypes {
  /** The prefix of a field's entry in the recipe. */
  public static final String PREFIX = "spark_type.";
  public static final String TINYINT = "TINYINT";
  public static final String SMALLINT = "SMALLINT";
  public static final String INT = "INT";
  public static final String BOOLEAN = "BOOLEAN";
  /** Days since 1970-01-01. */
  public static final String DATE = "DATE";
  /** Microseconds since 1970-01-01T00:00Z. */
  public static final String TIMESTAMP = "TIMESTAMP";
  /** Microseconds since 1970-01-01T00:00, local time (no zone). */
  public static final String TIMESTAMP_NTZ = "TIMESTAMP_NTZ";
  public static final String FLOAT = "FLOAT";
  public static final String STRING = "STRING";
  /** The integer types an Int field records, narrowest first: an append takes the wider of two. */
  private static final List<String> INTEGERS = List.of(TINYINT, SMALLINT, INT);
  /** The other types an Int field records. */
  /** A decimal's type as Spark writes it ({@code DecimalType.sql()}): {@code DECIMAL(10,2)}. */
  private static final java.util.regex.Pattern DECIMAL = java.util.regex.Pattern.compile("DECIMAL\\(\\d+, ?\\d+\\)");

  private static final List<String> OTHER_INT_FIELD_TYPES = List.of(BOOLEAN, DATE, TIMESTAMP, TIMESTAMP_NTZ);

  private RecordedColumnTypes() {}

  /** Whether {@code type} is a decimal's, {@code DECIMAL(p,s)}: stored as {@link StoredDecimals}. */
  public static boolean isDecimal(String type) {
    return DECIMAL.matcher(type).matches();
  }

  /** The recipe key of {@code field}'s type. */
  public static String key(String field) {
    return PREFIX + field;
  }

  /** The types {@code recipe} records, by field name. */
  public static Map<String, String> of(Map<String, String> recipe) {
    Map<String, String> out = new LinkedHashMap<>();
    recipe.forEach((k, v) -> {
      if (k.startsWith(PREFIX)) {
        out.put(k.substring(PREFIX.length()), v);
      }
    });
    return out;
  }

  /**
   * Whether a field of FFCV type {@code typeId} can hold the values of a column of recorded type {@code type}: an Int
   * field integers, booleans, dates and timestamps, a Float field floats and decimals, a Bytes field strings, a JSON
   * field structs, maps and lists.
   */
  public static boolean fits(int typeId, String type) {
    return switch (typeId) {
      case FieldTypes.INT -> INTEGERS.contains(type) || OTHER_INT_FIELD_TYPES.contains(type);
      case FieldTypes.FLOAT -> type.equals(FLOAT) || isDecimal(type);
      case FieldTypes.BYTES -> type.equals(STRING);
      case FieldTypes.JSON -> {
        String upper = type.toUpperCase(Locale.ROOT);
        yield upper.startsWith("STRUCT<") || upper.startsWith("ARRAY<") || upper.startsWith("MAP<");
      }
      default -> false;
    };
  }

  /**
   * The recipe an append publishes: {@code written} (this write's recipe) with its recorded types replaced by those
   * that hold for the dataset's rows and the appended ones alike, per field the type both record or, for integers,
   * the wider of the two. A dataset without samples constrains nothing: this write's types stand.
   *
   * @param previous the dataset appended to
   */
  public static Map<String, String> afterAppend(Map<String, String> written, DatasetManifest previous) {
    if (previous.totalSamples() == 0) {
      return written;
    }
    Map<String, String> before = of(previous.recipe());
    Map<String, String> out = new LinkedHashMap<>();
    written.forEach((k, v) -> {
      if (!k.startsWith(PREFIX)) {
        out.put(k, v);
        return;
      }
      String joined = join(before.get(k.substring(PREFIX.length())), v);
      if (joined != null) {
        out.put(k, joined);
      }
    });
    return out;
  }

  /**
   * The recorded types of datasets read together ({@code recipes}, one per dataset or file, empty for a file; {@code
   * names} name them in messages), as recipe entries: per field the type that holds every part's values
   * ({@link #join}), none where one part records none or no recorded type holds them all (the field's own type).
   * Parts that count an Int field in different units (days beside microseconds) are refused: read as one type, one
   * part's values would mean something else.
   */
  public static Map<String, String> joined(List<Map<String, String>> recipes, List<String> names) {
    List<Map<String, String>> types = recipes.stream().map(RecordedColumnTypes::of).toList();
    java.util.Set<String> fields = new java.util.LinkedHashSet<>();
    types.forEach(t -> fields.addAll(t.keySet()));
    Map<String, String> out = new LinkedHashMap<>();
    for (String field : fields) {
      String first = types.get(0).get(field);
      String type = first;
      for (int i = 1; i < types.size(); i++) {
        String other = types.get(i).get(field);
        // units equal to the first part's are equal to each other's
        if (!unit(first).equals(unit(other)) && (isTime(first) || isTime(other))) {
          throw new IllegalArgumentException("Column '" + field + "' is " + sqlName(first) + " in " + names.get(0)
              + " but " + sqlName(other) + " in " + names.get(i) + ": read as one column, one of them would count "
              + unit(other) + " as " + unit(first) + ". Read them apart and cast the column to one type before a"
              + " union");
        }
        type = join(type, other);
      }
      if (type != null) {
        out.put(key(field), type);
      }
    }
    return out;
  }

  /** A recorded type's name for messages: a field without one holds bigints. */
  public static String sqlName(String recorded) {
    return recorded == null ? "BIGINT" : recorded;
  }

  /** Whether {@code type} is a date's or a timestamp's: its numbers count days or microseconds ({@link #unit}). */
  public static boolean isTime(String type) {
    return DATE.equals(type) || TIMESTAMP.equals(type) || TIMESTAMP_NTZ.equals(type);
  }

  /**
   * What an Int field's stored numbers count for a column of recorded type {@code type} (null: none recorded, a
   * bigint): days for a date, microseconds for timestamps (since 1970 in UTC, or in local time without a zone), plain
   * numbers for integers and booleans. Two types of different units cannot share a field: read back as one type,
   * the rows of one of them would mean something else.
   */
  public static String unit(String type) {
    if (type == null) {
      return "numbers";
    }
    return switch (type) {
      case DATE -> "days since 1970-01-01";
      case TIMESTAMP -> "microseconds since 1970-01-01 UTC";
      case TIMESTAMP_NTZ -> "microseconds since 1970-01-01 local time";
      default -> "numbers";
    };
  }

  /** The type that holds the values of both types, or null (the field's own type) when no recorded one does. */
  static String join(String a, String b) {
    if (a == null || b == null) {
      return null;
    }
    if (a.equals(b)) {
      return a;
    }
    if (isDecimal(a) && isDecimal(b)) {
      return widerDecimal(a, b);
    }
    int i = INTEGERS.indexOf(a);
    int j = INTEGERS.indexOf(b);
    return i < 0 || j < 0 ? null : INTEGERS.get(Math.max(i, j));
  }

  /**
   * The decimal that holds both: the larger scale, and the more digits before the point. Read back at that scale, a
   * stored float64 gives each value again while the precision is at most 15 digits ({@link StoredDecimals}); past
   * that, null (the field reads as double).
   */
  private static String widerDecimal(String a, String b) {
    int[] x = precisionAndScale(a);
    int[] y = precisionAndScale(b);
    int scale = Math.max(x[1], y[1]);
    int precision = Math.max(x[0] - x[1], y[0] - y[1]) + scale;
    return precision <= 15 ? "DECIMAL(" + precision + "," + scale + ")" : null;
  }

  private static int[] precisionAndScale(String decimal) {
    String[] parts = decimal.substring(decimal.indexOf('(') + 1, decimal.indexOf(')')).split(",");
    return new int[] {Integer.parseInt(parts[0].trim()), Integer.parseInt(parts[1].trim())};
  }
}
