package org.sparkbeton.spark.read;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.dataset.ColumnAnnotations;
import org.sparkbeton.format.dataset.ManifestField;
import org.sparkbeton.format.dataset.RecordedColumnTypes;
import org.sparkbeton.format.fields.NumpyDtype;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Maps a dataset's fields to Spark columns (see the README's schema table): Int to LongType,
 * Float to DoubleType, Bytes to BinaryType, JSON to StringType, or to the type the dataset's Spark writer recorded
 * for the column in its recipe ({@link RecordedColumnTypes}: an int column reads back as int, a struct as the
 * struct), NDArray/TorchTensor to a flat
 * (C-order) array of the matching element type with dtype and shape in the column metadata,
 * RGBImage by {@link BetonReadOptions#IMAGE_MODE}, custom fields to their raw metadata bytes.
 * Every column records where it comes from, so a pruned schema maps back to fields, and its metadata says so
 * ({@link ColumnAnnotations}): a {@code format("beton")} write of the rows, filtered or joined, stores each image
 * column as an image again, its width, height and mode columns as part of it, as the dataset's recipe stored them.
 */
public final class BetonSchema {
  private static final Logger LOG = LoggerFactory.getLogger(BetonSchema.class);
  /** Which part of a field a column holds. */
  public enum Part {
    /** The field's value (for images: payload, decoded pixels or the image struct). */
    VALUE,
    /** An image's width, from metadata. */
    WIDTH,
    /** An image's height, from metadata. */
    HEIGHT,
    /** An image's stored mode, "jpg" or "raw", from metadata. */
    MODE
  }

  /** One Spark column and its source. */
  public record Column(StructField structField, ManifestField field, Part part) {
    public String name() {
      return structField.name();
    }

    /** True when the column is read from the metadata record alone, never from a data page. */
    public boolean metadataOnly() {
      int t = field.typeId();
      return t == FieldTypes.INT || t == FieldTypes.FLOAT || t == FieldTypes.CUSTOM || part != Part.VALUE;
    }
  }

  /** Spark's image struct ({@code ImageSchema.columnSchema} of spark-mllib, which we do not depend on). */
  public static final StructType IMAGE_STRUCT = new StructType()
      .add("origin", DataTypes.StringType, true)
      .add("height", DataTypes.IntegerType, false)
      .add("width", DataTypes.IntegerType, false)
      .add("nChannels", DataTypes.IntegerType, false)
      .add("mode", DataTypes.IntegerType, false)
      .add("data", DataTypes.BinaryType, false);
  /** OpenCV's CV_8UC3, the {@code mode} of 3-channel images in Spark's image struct. */
  public static final int CV_8UC3 = 16;

  private final List<Column> columns;
  private final Map<String, Column> byName;
  private final StructType schema;

  private BetonSchema(List<Column> columns) {
    this.columns = List.copyOf(columns);
    this.byName = new LinkedHashMap<>();
    List<StructField> fs = new ArrayList<>();
    for (Column c : columns) {
      if (byName.put(c.name(), c) != null) {
        throw new IllegalArgumentException("Column name '" + c.name() + "' is produced twice: an image field's extra"
            + " column collides with another field; read with " + BetonReadOptions.IMAGE_MODE + "=image or rename the field");
      }
      fs.add(c.structField());
    }
    this.schema = new StructType(fs.toArray(new StructField[0]));
  }

  /** The schema with image columns annotated by no dataset or recipe: for the executors, which need its types only. */
  public static BetonSchema of(List<ManifestField> fields, String imageMode) {
    return of(fields, imageMode, "", Map.of());
  }

  /**
   * @param dataset the dataset, file or files read, which annotates the image columns
   * @param recipe the dataset manifest's recipe, whose {@link ColumnAnnotations#IMAGE_RECIPE} entries annotate the
   *     image columns; empty for files read without a manifest
   */
  public static BetonSchema of(List<ManifestField> fields, String imageMode, String dataset,
      Map<String, String> recipe) {
    List<Column> out = new ArrayList<>();
    Map<String, String> recorded = RecordedColumnTypes.of(recipe);
    for (ManifestField f : fields) {
      Metadata meta = metadata(f);
      DataType written = writtenType(f, recorded.get(f.name()), dataset);
      switch (f.typeId()) {
        case FieldTypes.INT -> out.add(col(f, f.name(), or(written, DataTypes.LongType), meta, Part.VALUE));
        case FieldTypes.FLOAT -> out.add(col(f, f.name(), or(written, DataTypes.DoubleType), meta, Part.VALUE));
        case FieldTypes.BYTES -> out.add(col(f, f.name(), or(written, DataTypes.BinaryType), meta, Part.VALUE));
        case FieldTypes.CUSTOM -> out.add(col(f, f.name(), DataTypes.BinaryType, meta, Part.VALUE));
        case FieldTypes.JSON -> out.add(col(f, f.name(), or(written, DataTypes.StringType), meta, Part.VALUE));
        case FieldTypes.NDARRAY, FieldTypes.TORCH_TENSOR ->
            out.add(col(f, f.name(), arrayType(NumpyDtype.of(f.dtype())), meta, Part.VALUE));
        case FieldTypes.RGB_IMAGE -> {
          meta = new MetadataBuilder().withMetadata(meta).putString(ColumnAnnotations.DATASET, dataset).build();
          Metadata image = imageValue(meta, imageMode, recipe);
          if (imageMode.equals(BetonReadOptions.IMAGE_MODE_IMAGE)) {
            out.add(col(f, f.name(), IMAGE_STRUCT, image, Part.VALUE));
          } else {
            out.add(col(f, f.name(), DataTypes.BinaryType, image, Part.VALUE));
            out.add(col(f, f.name() + "_width", DataTypes.IntegerType, part(meta, ColumnAnnotations.PART_WIDTH),
                Part.WIDTH));
            out.add(col(f, f.name() + "_height", DataTypes.IntegerType, part(meta, ColumnAnnotations.PART_HEIGHT),
                Part.HEIGHT));
            out.add(col(f, f.name() + "_mode", DataTypes.StringType, part(meta, ColumnAnnotations.PART_MODE),
                Part.MODE));
          }
        }
        default -> throw new IllegalArgumentException("Field '" + f.name() + "' has unknown type id " + f.typeId());
      }
    }
    return new BetonSchema(out);
  }

  /**
   * The Spark type the dataset's writer recorded for field {@code f} ({@link RecordedColumnTypes}), its values in
   * nested types nullable (a JSON null, as a NaN is written, reads as one); null where none is recorded, or where the
   * record is one this reader cannot use (a later version's), which it then ignores, saying so.
   */
  private static DataType writtenType(ManifestField f, String recorded, String dataset) {
    if (recorded == null) {
      return null;
    }
    if (RecordedColumnTypes.fits(f.typeId(), recorded)) {
      try {
        return nullableInside(DataType.fromDDL(recorded));
      } catch (Exception e) {
        // a type name this Spark does not parse (a ParseException, which Java takes for a checked one): below
      }
    }
    LOG.warn("beton: {} records Spark type {} for {} field '{}', which this reader cannot give it: reading it as {}",
        dataset, recorded, FieldTypes.name(f.typeId()), f.name(), FieldTypes.name(f.typeId()));
    return null;
  }

  private static DataType or(DataType written, DataType stored) {
    return written != null ? written : stored;
  }

  /** {@code t} with every struct field, list element and map value inside it nullable. */
  static DataType nullableInside(DataType t) {
    if (t instanceof StructType s) {
      StructField[] fs = s.fields().clone();
      for (int i = 0; i < fs.length; i++) {
        fs[i] = new StructField(fs[i].name(), nullableInside(fs[i].dataType()), true, fs[i].metadata());
      }
      return new StructType(fs);
    }
    if (t instanceof ArrayType a) {
      return new ArrayType(nullableInside(a.elementType()), true);
    }
    if (t instanceof MapType m) {
      return new MapType(m.keyType(), nullableInside(m.valueType()), true);
    }
    return t;
  }

  private static Column col(ManifestField f, String name, DataType type, Metadata meta, Part part) {
    return new Column(new StructField(name, type, false, meta), f, part);
  }

  private static Metadata metadata(ManifestField f) {
    MetadataBuilder b = new MetadataBuilder()
        .putString(ColumnAnnotations.FIELD, f.name())
        .putLong("beton.type_id", f.typeId())
        .putString(ColumnAnnotations.TYPE, FieldTypes.name(f.typeId()));
    if (f.dtype() != null) {
      b.putString(ColumnAnnotations.DTYPE, f.dtype()).putLongArray(ColumnAnnotations.SHAPE, f.shape());
    }
    return b.build();
  }

  /** An image's value column: what its bytes are, and how the dataset stored its images. */
  private static Metadata imageValue(Metadata field, String imageMode, Map<String, String> recipe) {
    MetadataBuilder b = new MetadataBuilder().withMetadata(field);
    if (!imageMode.equals(BetonReadOptions.IMAGE_MODE_IMAGE)) {
      b.putString(ColumnAnnotations.IMAGE_PAYLOAD, imageMode.equals(BetonReadOptions.IMAGE_MODE_RAW)
          ? ColumnAnnotations.PAYLOAD_RGB : ColumnAnnotations.PAYLOAD_STORED);
    }
    for (String key : ColumnAnnotations.IMAGE_RECIPE) {
      String value = recipe.get(key);
      if (value != null) {
        b.putString(ColumnAnnotations.RECIPE_PREFIX + key, value);
      }
    }
    return b.build();
  }

  private static Metadata part(Metadata field, String part) {
    return new MetadataBuilder().withMetadata(field).putString(ColumnAnnotations.IMAGE_PART, part).build();
  }

  /**
   * The Spark element type for a numpy dtype: bool, signed and float types map directly (float16
   * widens to float); unsigned types widen to the next signed type, except {@code u8}, kept as
   * LongType with the same 64 bits. Other kinds (complex, datetime, strings, void) have no Spark
   * counterpart: the column is then the stored bytes (BinaryType).
   */
  static DataType arrayType(NumpyDtype dtype) {
    DataType element = elementType(dtype);
    return element == null ? DataTypes.BinaryType : new ArrayType(element, false);
  }

  static DataType elementType(NumpyDtype dtype) {
    int size = dtype.itemSize();
    return switch (dtype.kind()) {
      case 'b' -> size == 1 ? DataTypes.BooleanType : null;
      case 'i' -> switch (size) {
        case 1 -> DataTypes.ByteType;
        case 2 -> DataTypes.ShortType;
        case 4 -> DataTypes.IntegerType;
        case 8 -> DataTypes.LongType;
        default -> null;
      };
      case 'u' -> switch (size) {
        case 1 -> DataTypes.ShortType;
        case 2 -> DataTypes.IntegerType;
        case 4, 8 -> DataTypes.LongType;
        default -> null;
      };
      case 'f' -> switch (size) {
        case 2, 4 -> DataTypes.FloatType;
        case 8 -> DataTypes.DoubleType;
        default -> null;
      };
      default -> null;
    };
  }

  public StructType sparkSchema() {
    return schema;
  }

  public List<Column> columns() {
    return columns;
  }

  /** The column named {@code name}, or null. */
  public Column column(String name) {
    return byName.get(name);
  }
}
