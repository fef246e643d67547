package org.sparkbeton.spark.read;

import java.nio.ByteBuffer;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeArrayData;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.sparkbeton.format.BetonFormatException;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.dataset.JsonText;
import org.sparkbeton.format.fields.PixelDecoder;
import org.sparkbeton.format.fields.ImageMode;
import org.sparkbeton.format.fields.NdArray;
import org.sparkbeton.format.fields.NumpyDtype;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;

/**
 * Turns samples of one open file into Spark rows of the required (pruned) schema. Int, Float, custom
 * fields and image width/height/mode are read straight from the metadata record; only columns that
 * need a payload call the field's codec, so a scalar-only schema never reads a data page.
 */
final class RowConverter {
  /** Reads one column of one sample; {@code rec} is the record's offset inside {@code chunk}. */
  private interface ColumnReader {
    Object read(ByteBuffer chunk, int rec, long sample);
  }

  private final BetonReader reader;
  private final RecordWindow records;
  private final ColumnReader[] columns;
  private final boolean needsRecord;

  private final boolean decodePixels;

  /**
   * @param imageMode the {@link BetonReadOptions#IMAGE_MODE} the schema was built with
   * @param jpeg the JPEG decoder for the {@code raw} and {@code image} modes, or null when none is available
   */
  RowConverter(BetonReader reader, BetonSchema schema, StructType required, String imageMode, PixelDecoder jpeg) {
    this(reader, schema, required, imageMode, jpeg, reader.numSamples());
  }

  /** A converter for samples below {@code limit}: metadata records past it are never fetched. */
  RowConverter(BetonReader reader, BetonSchema schema, StructType required, String imageMode, PixelDecoder jpeg,
      long limit) {
    this.reader = reader;
    this.records = new RecordWindow(reader, limit);
    this.decodePixels = imageMode.equals(BetonReadOptions.IMAGE_MODE_RAW);
    StructField[] fs = required.fields();
    this.columns = new ColumnReader[fs.length];
    for (int i = 0; i < fs.length; i++) {
      BetonSchema.Column c = schema.column(fs[i].name());
      if (c == null) {
        throw new IllegalArgumentException("Column '" + fs[i].name() + "' is not in the schema " + schema.sparkSchema().simpleString());
      }
      columns[i] = columnReader(c, fs[i].dataType(), jpeg);
    }
    this.needsRecord = fs.length > 0;
  }

  int numColumns() {
    return columns.length;
  }

  /** Fills {@code row} (of {@link #numColumns()} slots) with {@code sample}'s values. */
  InternalRow fill(long sample, GenericInternalRow row) {
    if (needsRecord) {
      ByteBuffer chunk = records.bufferFor(sample);
      int rec = records.offset(sample);
      for (int i = 0; i < columns.length; i++) {
        row.update(i, columns[i].read(chunk, rec, sample));
      }
    }
    return row;
  }

  private ColumnReader columnReader(BetonSchema.Column c, DataType type, PixelDecoder jpeg) {
    int field = reader.fieldIndex(c.field().name());
    int at = reader.layout().offset(field);
    String name = c.name();
    switch (c.field().typeId()) {
      case FieldTypes.INT:
        return integerReader(type, at, field);
      case FieldTypes.FLOAT:
        if (type == DataTypes.FloatType) {
          return (chunk, rec, s) -> {
            double d = chunk.getDouble(rec + at);
            if (!NarrowColumn.floatFits(d)) {
              throw notOfType(s, field, Double.toString(d), type);
            }
            return (float) d;
          };
        }
        if (type instanceof DecimalType decimal) {
          return (chunk, rec, s) -> {
            double d = chunk.getDouble(rec + at);
            Decimal value = NarrowColumn.decimal(d, decimal);
            if (value == null) {
              throw notOfType(s, field, Double.toString(d), type);
            }
            return value;
          };
        }
        return (chunk, rec, s) -> chunk.getDouble(rec + at);
      case FieldTypes.CUSTOM: {
        int size = reader.fields().get(field).codec().metadataSize();
        return (chunk, rec, s) -> {
          byte[] out = new byte[size];
          chunk.get(rec + at, out);
          return out;
        };
      }
      case FieldTypes.BYTES:
        if (type == DataTypes.StringType) {
          return (chunk, rec, s) -> UTF8String.fromBytes((byte[]) decode(chunk, rec, s, field));
        }
        return (chunk, rec, s) -> decode(chunk, rec, s, field);
      case FieldTypes.JSON:
        if (type != DataTypes.StringType) {
          return (chunk, rec, s) -> {
            String text = (String) decode(chunk, rec, s, field);
            try {
              return JsonColumnValues.parse(text, type);
            } catch (IllegalArgumentException e) {
              String shown = text.length() <= 200 ? text : text.substring(0, 200) + "...";
              throw notOfType(s, field, "JSON " + shown + " (" + e.getMessage() + ")", type);
            }
          };
        }
        return (chunk, rec, s) -> UTF8String.fromString(jsonValue((String) decode(chunk, rec, s, field)));
      case FieldTypes.NDARRAY:
      case FieldTypes.TORCH_TENSOR:
        return (chunk, rec, s) -> arrayValue((NdArray) decode(chunk, rec, s, field), type);
      case FieldTypes.RGB_IMAGE:
        return imageReader(c, field, at, name, jpeg);
      default:
        throw new IllegalArgumentException("Column '" + name + "': unsupported type id " + c.field().typeId());
    }
  }

  /**
   * An Int field's values as the column's type: the int64 stored, or the narrower integer or boolean the writer
   * recorded, checked, as a value outside it means the dataset holds rows its schema does not describe.
   */
  private ColumnReader integerReader(DataType type, int at, int field) {
    NarrowColumn narrow = NarrowColumn.ofInteger(type);
    if (narrow == null) {
      return (chunk, rec, s) -> chunk.getLong(rec + at);
    }
    return (chunk, rec, s) -> {
      long v = chunk.getLong(rec + at);
      if (!narrow.fits(v)) {
        throw notOfType(s, field, Long.toString(v), type);
      }
      return narrow.value(v);
    };
  }

  /**
   * A value that the column type the dataset's manifest records cannot hold: the shard was not written with the
   * columns the manifest describes (edited, or copied in from another dataset).
   */
  private BetonFormatException notOfType(long sample, int field, String found, DataType type) {
    return new BetonFormatException(reader.file(), "sample " + sample + " field '" + reader.fields().get(field).name()
        + "'", reader.metadataStart() + sample * reader.layout().recordSize() + reader.layout().offset(field),
        "holds " + found + ", which is not a " + type.simpleString() + ", the column type the dataset's manifest records"
        + " for the field (spark_type." + reader.fields().get(field).name() + " in its recipe)", null);
  }

  /**
   * A JSON field's value as a Spark string, as Spark's {@code get_json_object} gives one: a JSON string (what the
   * writer stores a string column as, what FFCV's {@code unpack} returns as a {@code str}) as the string it holds,
   * any other value (an object, a list, a number) as its JSON text.
   */
  static String jsonValue(String text) {
    String string = JsonText.string(text);
    return string != null ? string : text;
  }

  private ColumnReader imageReader(BetonSchema.Column c, int field, int at, String name, PixelDecoder jpeg) {
    switch (c.part()) {
      case WIDTH:
        return (chunk, rec, s) -> Short.toUnsignedInt(chunk.getShort(rec + at + RgbImageField.WIDTH));
      case HEIGHT:
        return (chunk, rec, s) -> Short.toUnsignedInt(chunk.getShort(rec + at + RgbImageField.HEIGHT));
      case MODE: {
        UTF8String jpg = UTF8String.fromString(ImageMode.JPG.label());
        UTF8String raw = UTF8String.fromString(ImageMode.RAW.label());
        return (chunk, rec, s) -> {
          int code = Byte.toUnsignedInt(chunk.get(rec + at + RgbImageField.MODE));
          ImageMode mode = ImageMode.ofCode(code);
          if (mode == null) {
            // let the codec raise the format error with file, region and offset
            decode(chunk, rec, s, field);
          }
          return mode == ImageMode.JPG ? jpg : raw;
        };
      }
      default:
        break;
    }
    if (c.structField().dataType() instanceof StructType) {
      UTF8String origin = UTF8String.fromString(reader.file());
      return (chunk, rec, s) -> {
        RgbImage image = (RgbImage) decode(chunk, rec, s, field);
        byte[] bgr = rgb(image, name, BetonReadOptions.IMAGE_MODE_IMAGE, jpeg);
        for (int i = 0; i + 2 < bgr.length; i += 3) {
          byte r = bgr[i];
          bgr[i] = bgr[i + 2];
          bgr[i + 2] = r;
        }
        return new GenericInternalRow(new Object[] {origin, image.height(), image.width(), 3, BetonSchema.CV_8UC3, bgr});
      };
    }
    return decodePixels
        ? (chunk, rec, s) -> rgb((RgbImage) decode(chunk, rec, s, field), name, BetonReadOptions.IMAGE_MODE_RAW, jpeg)
        : (chunk, rec, s) -> ((RgbImage) decode(chunk, rec, s, field)).payloadBytes();
  }

  /**
   * Decodes one value with the field's codec from the record in {@code chunk}, reading payloads through
   * the core reader's bounds-checked payload access; a malformed value becomes a
   * {@link BetonFormatException} naming file, region and offset, as {@link BetonReader#value} does.
   */
  private Object decode(ByteBuffer chunk, int rec, long sample, int field) {
    int at = reader.layout().offset(field);
    try {
      return reader.fields().get(field).codec().decode(chunk, rec + at, reader.payloadReader(sample, field));
    } catch (IllegalArgumentException e) {
      throw new BetonFormatException(reader.file(), "metadata of sample " + sample + " field '"
          + reader.fields().get(field).name() + "'",
          reader.metadataStart() + sample * reader.layout().recordSize() + at, e.getMessage(), e);
    }
  }

  /** Decoded H x W x 3 RGB bytes of a stored image. */
  static byte[] rgb(RgbImage image, String column, String option, PixelDecoder jpeg) {
    if (image.mode() == ImageMode.RAW) {
      return image.payloadBytes();
    }
    if (jpeg == null) {
      throw new IllegalStateException("Column '" + column + "' holds a JPEG image and option "
          + BetonReadOptions.IMAGE_MODE + "=" + option + " decodes it to pixels, but no JPEG decoder is on the classpath:"
          + " add module beton-codec (org.sparkbeton:beton-codec), which registers an "
          + PixelDecoder.class.getName() + " service, or read with " + BetonReadOptions.IMAGE_MODE + "=binary");
    }
    byte[] rgb = jpeg.decodeRgb(image);
    long expected = RgbImage.rawSize(image.width(), image.height());
    if (rgb == null || rgb.length != expected) {
      throw new IllegalStateException("Column '" + column + "': JPEG decoder " + jpeg.getClass().getName() + " returned "
          + (rgb == null ? "null" : rgb.length + " bytes") + " for a " + image.width() + "x" + image.height()
          + " image, expected " + expected);
    }
    return rgb;
  }

  /** A flat Spark array (or the stored bytes) of an NDArray value, element type per {@link BetonSchema#arrayType}. */
  static Object arrayValue(NdArray a, DataType type) {
    ByteBuffer d = a.data().duplicate().order(a.dtype().order());
    if (type == DataTypes.BinaryType) {
      byte[] out = new byte[d.remaining()];
      d.get(out);
      return out;
    }
    NumpyDtype t = a.dtype();
    int n = Math.toIntExact(a.elementCount());
    int base = d.position();
    switch (t.kind() + "" + t.itemSize()) {
      case "b1": {
        boolean[] v = new boolean[n];
        for (int i = 0; i < n; i++) {
          v[i] = d.get(base + i) != 0;
        }
        return UnsafeArrayData.fromPrimitiveArray(v);
      }
      case "i1": {
        byte[] v = new byte[n];
        d.get(v);
        return UnsafeArrayData.fromPrimitiveArray(v);
      }
      case "u1": {
        short[] v = new short[n];
        for (int i = 0; i < n; i++) {
          v[i] = (short) Byte.toUnsignedInt(d.get(base + i));
        }
        return UnsafeArrayData.fromPrimitiveArray(v);
      }
      case "i2": {
        short[] v = new short[n];
        d.asShortBuffer().get(v);
        return UnsafeArrayData.fromPrimitiveArray(v);
      }
      case "u2": {
        int[] v = new int[n];
        for (int i = 0; i < n; i++) {
          v[i] = Short.toUnsignedInt(d.getShort(base + 2 * i));
        }
        return UnsafeArrayData.fromPrimitiveArray(v);
      }
      case "i4": {
        int[] v = new int[n];
        d.asIntBuffer().get(v);
        return UnsafeArrayData.fromPrimitiveArray(v);
      }
      case "u4": {
        long[] v = new long[n];
        for (int i = 0; i < n; i++) {
          v[i] = Integer.toUnsignedLong(d.getInt(base + 4 * i));
        }
        return UnsafeArrayData.fromPrimitiveArray(v);
      }
      case "i8":
      case "u8": {
        long[] v = new long[n];
        d.asLongBuffer().get(v);
        return UnsafeArrayData.fromPrimitiveArray(v);
      }
      case "f2": {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
          v[i] = org.sparkbeton.format.fields.Float16.toFloat(d.getShort(base + 2 * i));
        }
        return UnsafeArrayData.fromPrimitiveArray(v);
      }
      case "f4": {
        float[] v = new float[n];
        d.asFloatBuffer().get(v);
        return UnsafeArrayData.fromPrimitiveArray(v);
      }
      case "f8": {
        double[] v = new double[n];
        d.asDoubleBuffer().get(v);
        return UnsafeArrayData.fromPrimitiveArray(v);
      }
      default:
        throw new IllegalArgumentException("No Spark array type for dtype " + t);
    }
  }

  /** IEEE-754 binary16 to float (Java 17 has no {@code Float.float16ToFloat}). */
}
