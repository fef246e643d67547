package org.sparkbeton.spark.write;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
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
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.FieldDescriptor;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.dataset.ColumnAnnotations;
import org.sparkbeton.format.fields.BytesField;
import org.sparkbeton.format.fields.FloatField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.JsonField;
import org.sparkbeton.format.fields.NdArrayField;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.format.options.OptionNames;

/**
 * Spark schema → .beton fields, checked when the write is planned, with messages naming the column
 * (a column an option names must exist; image options need an image column; an {@code arrayShapes} entry must
 * shape a numeric array column):
 * integral and boolean → Int; dates and timestamps → Int (days, microseconds since 1970); float/double → Float;
 * binary → Bytes, or RGBImage for the columns named in {@code imageColumns} (strings named there are paths of image files, read by the executors);
 * Spark's {@code image} struct → RGBImage; arrays of numbers with a shape in {@code arrayShapes} (or from the beton
 * read that gave them, with its dtype: {@link StoredArrays}) → NDArray; string → JSON string literal (or UTF-8
 * Bytes), except a JSON field a beton read gave, which stays a JSON field ({@link #readFromJsonField}); other structs,
 * maps and arrays → JSON. Field names must be 16 ASCII bytes at most, unique. The image columns of a
 * DataFrame read with {@code format("beton")} are image columns by themselves ({@link ReadImageColumns}).
 */
public final class BetonSchemaMapping {
  private static final Set<String> IMAGE_STRUCT_FIELDS = Set.of("origin", "height", "width", "nChannels", "mode", "data");

  private BetonSchemaMapping() {}

  /** The fields, in column order; throws IllegalArgumentException naming the first bad column. */
  public static List<BetonField> fields(StructType schema, BetonWriteConf conf) {
    return plan(schema, conf).stream().map(ColumnPlan::field).toList();
  }

  static List<ColumnPlan> plan(StructType schema, BetonWriteConf conf) {
    if (schema.fields().length == 0) {
      throw new IllegalArgumentException("Cannot write a DataFrame without columns as .beton");
    }
    for (String image : conf.imageColumns) {
      if (ordinal(schema, image) < 0) {
        throw missingColumn(BetonWriteOptions.IMAGE_COLUMNS, image, schema);
      }
    }
    int source = sourceIdOrdinal(schema, conf);
    List<ColumnPlan> plans = new ArrayList<>();
    StructField[] fields = schema.fields();
    Map<Integer, ColumnPlan.ImageParts> readImages = new HashMap<>();
    Set<Integer> imageParts = readImageParts(schema, conf, readImages);
    conf.arrayShapes.requireColumnsExist(schema, column -> missingColumn(BetonWriteOptions.ARRAY_SHAPES, column, schema));
    for (int i = 0; i < fields.length; i++) {
      if (i != source && !imageParts.contains(i)) {
        plans.add(planColumn(fields[i], i, conf, readImages.get(i)));
      }
    }
    if (plans.isEmpty()) {
      throw new IllegalArgumentException("Cannot write a DataFrame whose only column is the sourceIdColumn '"
          + conf.sourceIdColumn + "' as .beton");
    }
    requireImageColumnFor(conf.imageOptionsGiven, plans, schema);
    refuseOptionsOfOtherModes(conf);
    conf.arrayShapes.requireEachShapesAnArray(schema, plans,
        column -> missingColumn(BetonWriteOptions.ARRAY_SHAPES, column, schema));
    try {
      FieldDescriptor.validateNames(plans.stream().map(p -> p.field().name()).toList());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Cannot write these columns as .beton fields: " + e.getMessage(), e);
    }
    refuseNamesReadsConfuse(plans);
    return plans;
  }

  /**
   * The columns a beton read added beside the image columns of this write ({@code _width}, {@code _height},
   * {@code _mode}, known by their annotations under any name): not fields of their own, since reads of the new
   * dataset add them again, but the description of their image's payload. {@code parts} gets, for each image column
   * whose three columns are here, where they are ({@link ReadImageColumns#parts}).
   *
   * @throws IllegalArgumentException for an image column whose payloads may be raw pixels without the width and
   *     height that give their shape
   */
  private static Set<Integer> readImageParts(StructType schema, BetonWriteConf conf,
      Map<Integer, ColumnPlan.ImageParts> parts) {
    StructField[] fields = schema.fields();
    Set<Integer> all = new HashSet<>();
    for (int i = 0; i < fields.length; i++) {
      StructField image = fields[i];
      if (!(image.dataType() instanceof BinaryType) || !conf.isImageColumn(image.name())
          || !ReadImageColumns.isImageValue(image)) {
        continue;
      }
      all.addAll(ReadImageColumns.partsOf(schema, image));
      ColumnPlan.ImageParts found = ReadImageColumns.parts(schema, i);
      if (found != null) {
        parts.put(i, found);
      } else if (!ReadImageColumns.allJpeg(image)) {
        String field = ReadImageColumns.field(image);
        throw new IllegalArgumentException("Image column '" + image.name() + "' was read from " + ReadImageColumns
            .dataset(image) + " (field '" + field + "'), whose images may be stored as raw pixels, but the columns the"
            + " read gave beside it, " + field + "_width, " + field + "_height and " + field + "_mode, which say"
            + " their shape, are not all in the DataFrame (or not only once): select them with it");
      }
    }
    // a read's size and mode columns beside an image column of this write that is no longer the read's (a UDF
    // re-encoded it): named as reads of the new dataset will name its own, and describing the old image, so left out
    for (int j = 0; j < fields.length; j++) {
      String part = ReadImageColumns.part(fields[j]);
      String name = fields[j].name();
      if (part != null && name.toLowerCase(Locale.ROOT).endsWith("_" + part)
          && conf.isImageColumn(name.substring(0, name.length() - part.length() - 1))) {
        all.add(j);
      }
    }
    return all;
  }

  /**
   * The image columns whose description a beton read gave ({@code <image>_width}, {@code _height}, {@code _mode},
   * known by their annotations) is in the DataFrame while the image column itself is not written as an image (a
   * computed value replaced it, and imageColumns does not name it): those columns are then stored as fields of their
   * own that describe an image the dataset no longer holds. By image column, its description columns in order.
   */
  static Map<String, List<String>> describedImagesNotWrittenAsImages(StructType schema, BetonWriteConf conf) {
    Map<String, List<String>> out = new java.util.TreeMap<>();
    for (StructField f : schema.fields()) {
      String part = ReadImageColumns.part(f);
      String name = f.name();
      if (part == null || !name.toLowerCase(Locale.ROOT).endsWith("_" + part)) {
        continue;
      }
      String image = name.substring(0, name.length() - part.length() - 1);
      if (ordinal(schema, image) >= 0 && !conf.isImageColumn(image)) {
        out.computeIfAbsent(image, k -> new ArrayList<>()).add(name);
      }
    }
    return out;
  }

  /**
   * Refuses field names that a {@code format("beton")} read could not tell apart, as Spark resolves names without
   * case by default: two differing only in case, or a name equal to an extra column that reads give an image field
   * ({@code <image>_width}, {@code _height}, {@code _mode}).
   */
  private static void refuseNamesReadsConfuse(List<ColumnPlan> plans) {
    Map<String, String> taken = new HashMap<>();
    for (ColumnPlan p : plans) {
      String before = taken.putIfAbsent(p.column().toLowerCase(Locale.ROOT), p.column());
      if (before != null) {
        throw new IllegalArgumentException("Columns '" + before + "' and '" + p.column() + "' differ only in case;"
            + " Spark reads could not tell them apart (spark.sql.caseSensitive is false by default): rename one");
      }
    }
    for (ColumnPlan p : plans) {
      if (p.field().codec() instanceof RgbImageField) {
        for (String suffix : new String[] {"_width", "_height", "_mode"}) {
          String clash = taken.get((p.column() + suffix).toLowerCase(Locale.ROOT));
          if (clash != null) {
            String c = p.column();
            throw new IllegalArgumentException("Column '" + clash + "' has the name of the column that reads of image"
                + " column '" + c + "' add for its " + suffix.substring(1) + " (" + c + "_width, _height and _mode):"
                + " drop or rename it (a beton read adds these columns, and writes of what it read leave them out by"
                + " themselves: they are known by their metadata, which this column does not carry)");
          }
        }
      }
    }
  }

  /**
   * Ordinal of the {@code sourceIdColumn} (identifies rows in messages and quarantine records, never stored),
   * or -1 when none is set.
   */
  static int sourceIdOrdinal(StructType schema, BetonWriteConf conf) {
    if (conf.sourceIdColumn == null) {
      return -1;
    }
    int i = ordinal(schema, conf.sourceIdColumn);
    if (i < 0) {
      throw missingColumn(BetonWriteOptions.SOURCE_ID_COLUMN, conf.sourceIdColumn, schema);
    }
    return i;
  }

  /** The ordinal of the column named {@code name} in any case, or -1. */
  private static int ordinal(StructType schema, String name) {
    StructField[] fields = schema.fields();
    for (int i = 0; i < fields.length; i++) {
      if (fields[i].name().equalsIgnoreCase(name)) {
        return i;
      }
    }
    return -1;
  }

  private static IllegalArgumentException missingColumn(String option, String name, StructType schema) {
    String nearest = OptionNames.nearest(name, List.of(schema.fieldNames()))
        .map(c -> "; did you mean '" + c + "'?").orElse(".");
    return new IllegalArgumentException("Option " + option + " names column '" + name + "', which the DataFrame does"
        + " not have" + nearest + " Its columns: " + columns(schema));
  }

  /**
   * Image options change nothing without an image column, and a misspelled or forgotten {@code imageColumns}
   * would otherwise store the images as Bytes without a word: refuse the write, naming the options given and
   * how to mark a column.
   */
  /** {@link BetonWriteConf#optionsOfOtherModes}, refused naming the mode each needs. */
  private static void refuseOptionsOfOtherModes(BetonWriteConf conf) {
    if (conf.optionsOfOtherModes.isEmpty()) {
      return;
    }
    String option = conf.optionsOfOtherModes.get(0);
    String needs = option.equals(BetonWriteOptions.SMART_THRESHOLD) ? "smart" : "proportion";
    throw new IllegalArgumentException("Option " + option + " applies to writeMode " + needs + " only, and this"
        + " write's writeMode is " + conf.writeMode.name().toLowerCase(java.util.Locale.ROOT) + ", so it would do"
        + " nothing: add .option(\"writeMode\", \"" + needs + "\"), or leave " + option + " out");
  }

  private static void requireImageColumnFor(List<String> imageOptions, List<ColumnPlan> plans, StructType schema) {
    if (imageOptions.isEmpty() || plans.stream().anyMatch(p -> p.field().typeId() == FieldTypes.RGB_IMAGE)) {
      return;
    }
    throw new IllegalArgumentException((imageOptions.size() == 1 ? "Option " : "Options ")
        + String.join(", ", imageOptions) + (imageOptions.size() == 1 ? " applies" : " apply")
        + " to image columns, but no column is one, so " + (imageOptions.size() == 1 ? "it would" : "they would")
        + " do nothing. Mark the columns of encoded images"
        + " (binary) or of image file paths (string) with option " + BetonWriteOptions.IMAGE_COLUMNS
        + ", e.g. .option(\"imageColumns\", \"image\"); a Spark image struct (spark.read.format(\"image\")) is one"
        + " without being listed. Columns: " + columns(schema));
  }

  /** {@code name type, ...}, for messages. */
  private static String columns(StructType schema) {
    StringBuilder b = new StringBuilder();
    for (StructField f : schema.fields()) {
      b.append(b.length() == 0 ? "" : ", ").append(f.name()).append(' ').append(f.dataType().simpleString());
    }
    return b.toString();
  }

  /** @param parts the size and mode columns of a beton read's image column, or null */
  private static ColumnPlan planColumn(StructField f, int ordinal, BetonWriteConf conf, ColumnPlan.ImageParts parts) {
    String name = f.name();
    DataType t = f.dataType();
    if (conf.isImageColumn(name) && !(t instanceof BinaryType) && !(t instanceof StringType) && !isImageStruct(t)) {
      throw new IllegalArgumentException("Cannot write image column '" + name + "': expected binary (encoded images),"
          + " string (paths of image files) or an image struct, got " + t.simpleString());
    }
    ColumnKind kind;
    BetonField field;
    if (t instanceof LongType) {
      kind = ColumnKind.LONG;
    } else if (t instanceof IntegerType) {
      kind = ColumnKind.INT;
    } else if (t instanceof ShortType) {
      kind = ColumnKind.SHORT;
    } else if (t instanceof ByteType) {
      kind = ColumnKind.BYTE;
    } else if (t instanceof BooleanType) {
      kind = ColumnKind.BOOLEAN;
    } else if (t instanceof DateType) {
      kind = ColumnKind.DATE;
    } else if (t instanceof TimestampType) {
      kind = ColumnKind.TIMESTAMP;
    } else if (t instanceof TimestampNTZType) {
      kind = ColumnKind.TIMESTAMP_NTZ;
    } else if (t instanceof FloatType) {
      kind = ColumnKind.FLOAT;
    } else if (t instanceof DoubleType) {
      kind = ColumnKind.DOUBLE;
    } else if (t instanceof DecimalType) {
      kind = ColumnKind.DECIMAL;
    } else if (t instanceof BinaryType) {
      kind = !conf.isImageColumn(name) ? ColumnKind.BINARY
          : parts != null ? ColumnKind.READ_IMAGE : ColumnKind.ENCODED_IMAGE;
    } else if (isImageStruct(t)) {
      kind = ColumnKind.IMAGE_STRUCT;
    } else if (t instanceof ArrayType a && numpyType(a.elementType()) != null) {
      StoredArrays stored = StoredArrays.of(f);
      long[] shape = conf.arrayShape(name) != null ? conf.arrayShape(name) : stored.shape();
      if (shape == null) {
        throw new IllegalArgumentException("Column '" + name + "' is an array of " + a.elementType().simpleString()
            + ": give its shape with option arrayShapes, e.g. '" + name + ":3x4', when every row has that many"
            + " elements; arrays of varying length have no shape: store them as JSON text (to_json(" + name + "))");
      }
      NdArrayField codec = stored.torch() ? NdArrayField.torchTensor(stored.dtype(), shape)
          : NdArrayField.ndarray(stored.dtype(), shape);
      return new ColumnPlan(name, ordinal, t, ColumnKind.NUMERIC_ARRAY, new BetonField(name, codec));
    } else if (t instanceof StringType && conf.isImageColumn(name)) {
      kind = ColumnKind.IMAGE_PATH;
    } else if (t instanceof StringType && readFromJsonField(f)) {
      kind = ColumnKind.READ_JSON;
    } else if (t instanceof StringType) {
      // a column a beton read gave from a Bytes field is stored as it was, as the read's other columns are
      boolean bytes = conf.stringEncodingGiven ? conf.stringEncoding == StringEncoding.BYTES : readFromField(f,
          FieldTypes.BYTES);
      kind = bytes ? ColumnKind.STRING_BYTES : ColumnKind.STRING_JSON;
    } else if (t instanceof StructType || t instanceof MapType || t instanceof ArrayType) {
      kind = ColumnKind.JSON;
    } else {
      throw new IllegalArgumentException("Cannot write column '" + name + "' of type " + t.simpleString()
          + " as .beton: cast it to long, double, string or binary first");
    }
    field = switch (kind) {
      case LONG, INT, SHORT, BYTE, BOOLEAN, DATE, TIMESTAMP, TIMESTAMP_NTZ -> new BetonField(name, IntField.INSTANCE);
      case FLOAT, DOUBLE, DECIMAL -> new BetonField(name, FloatField.INSTANCE);
      case BINARY, STRING_BYTES -> new BetonField(name, BytesField.INSTANCE);
      case ENCODED_IMAGE, READ_IMAGE, IMAGE_PATH, IMAGE_STRUCT -> new BetonField(name, RgbImageField.INSTANCE);
      default -> new BetonField(name, JsonField.INSTANCE);
    };
    return new ColumnPlan(name, ordinal, t, kind, field, kind == ColumnKind.READ_IMAGE ? parts : null);
  }

  /**
   * Whether string column {@code f} is a JSON field as a beton read gave it (its metadata says so): stored as a JSON
   * field again, its objects and lists as they were ({@link ColumnKind#READ_JSON}).
   */
  static boolean readFromJsonField(StructField f) {
    return readFromField(f, FieldTypes.JSON);
  }

  /** Whether {@code f} is a column a beton read gave from a field of type {@code typeId}. */
  static boolean readFromField(StructField f, int typeId) {
    Metadata m = f.metadata();
    return m.contains(ColumnAnnotations.TYPE) && FieldTypes.name(typeId).equals(m.getString(ColumnAnnotations.TYPE));
  }

  /** Spark's {@code image} data source struct: origin, height, width, nChannels, mode, data. */
  static boolean isImageStruct(DataType t) {
    if (!(t instanceof StructType s) || s.fields().length != IMAGE_STRUCT_FIELDS.size()) {
      return false;
    }
    for (StructField f : s.fields()) {
      if (!IMAGE_STRUCT_FIELDS.contains(f.name())) {
        return false;
      }
    }
    return true;
  }

  /** numpy type string for an array element type, or null if it is not a number or boolean. */
  static String numpyType(DataType t) {
    if (t instanceof ByteType) {
      return "|i1";
    } else if (t instanceof ShortType) {
      return "<i2";
    } else if (t instanceof IntegerType) {
      return "<i4";
    } else if (t instanceof LongType) {
      return "<i8";
    } else if (t instanceof FloatType) {
      return "<f4";
    } else if (t instanceof DoubleType) {
      return "<f8";
    } else if (t instanceof BooleanType) {
      return "|b1";
    }
    return null;
  }
}
