package org.sparkbeton.spark.write;

import java.nio.ByteBuffer;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;
import org.sparkbeton.codec.ImageDecodeException;
import org.sparkbeton.codec.jpeg.JpegException;
import org.sparkbeton.format.dataset.JsonText;
import org.sparkbeton.format.dataset.StoredDecimals;
import org.sparkbeton.format.fields.ImageMode;
import org.sparkbeton.format.fields.NdArrayField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.write.SampleTooLargeException;

/**
 * Turns one {@link InternalRow} into the values the format core writes, column by column, on an
 * executor. A row whose value is null or whose image cannot be stored is refused with a message
 * naming the column and the row's source, or skipped (null result, counted) when the policy says so;
 * with {@code badImagePolicy=quarantine} the skipped row's source and reason go to a {@link QuarantineLog}. Every
 * failure confined to one image is such bad input: the codecs' errors, an image over {@code maxImagePixels}, any
 * other exception of the image's decode, resize or encode, and a sample too large for a page.
 */
final class RowEncoder implements AutoCloseable {
  private final List<ColumnPlan> plans;
  private final BetonWriteConf conf;
  /**
   * Per column (null where it holds no image): each image column has its own encoder, and each column of paths its
   * own file reader, as a stored image can be a view of their buffers until the row is written.
   */
  private final ImageEncoder[] encoders;
  private final ImageFileReader[] readers;
  private final Object[] values;
  private final int partition;
  private final int sourceOrdinal;
  private final org.apache.spark.sql.types.DataType sourceType;
  private final QuarantineLog quarantine;
  private ImageFiles pathFiles; // the files of the first image column of paths, for the row being encoded
  private final ImageFileReader firstPathReader; // its own reader, where its files are not read ahead
  private final int pathOrdinal; // the first image column of paths: a row's source when no sourceIdColumn is set
  private final TaskCounters counters;

  /**
   * @param quarantine where quarantined rows go; needed only with {@code badImagePolicy=quarantine}
   * @param hadoopConf how image columns of paths are read; needed only when there are such columns
   */
  RowEncoder(StructType schema, BetonWriteConf conf, int partition, QuarantineLog quarantine,
      org.apache.hadoop.conf.Configuration hadoopConf) {
    this.counters = new TaskCounters();
    this.plans = BetonSchemaMapping.plan(schema, conf);
    this.partition = partition;
    this.sourceOrdinal = BetonSchemaMapping.sourceIdOrdinal(schema, conf);
    this.sourceType = sourceOrdinal < 0 ? null : schema.fields()[sourceOrdinal].dataType();
    this.quarantine = quarantine;
    if (conf.badImages == BetonWriteConf.BadImagePolicy.QUARANTINE && quarantine == null) {
      throw new IllegalArgumentException("badImagePolicy=quarantine needs a quarantine log");
    }
    this.conf = conf;
    this.encoders = new ImageEncoder[plans.size()];
    this.readers = new ImageFileReader[plans.size()];
    this.pathOrdinal = plans.stream().filter(p -> p.kind() == ColumnKind.IMAGE_PATH).mapToInt(ColumnPlan::ordinal)
        .findFirst().orElse(-1);
    if (pathOrdinal >= 0 && hadoopConf == null) {
      throw new IllegalArgumentException("image columns of paths need a Hadoop configuration to read the files");
    }
    for (int k = 0; k < plans.size(); k++) {
      if (isImage(plans.get(k))) {
        encoders[k] = new ImageEncoder(conf, partition, counters);
      }
      if (plans.get(k).kind() == ColumnKind.IMAGE_PATH) {
        readers[k] = new ImageFileReader(hadoopConf);
      }
    }
    ImageFileReader first = null;
    for (int k = 0; k < plans.size() && first == null; k++) {
      if (plans.get(k).ordinal() == pathOrdinal) {
        first = readers[k];
      }
    }
    this.firstPathReader = first;
    this.values = new Object[plans.size()];
  }

  /** The values of {@code row} (a reused array), or null when the row is skipped. */
  Object[] encode(InternalRow row, long rowIndex) throws java.io.IOException {
    return encode(row, rowIndex, firstPathReader);
  }

  /**
   * {@link #encode(InternalRow, long)}, the file named in the first image column of paths ({@link #pathOrdinal}) read
   * from {@code firstPathFiles} (what {@link ImageReadAhead} read ahead); other image columns of paths read in place.
   */
  Object[] encode(InternalRow row, long rowIndex, ImageFiles firstPathFiles) throws java.io.IOException {
    pathFiles = firstPathFiles;
    for (int k = 0; k < plans.size(); k++) {
      ColumnPlan p = plans.get(k);
      int i = p.ordinal();
      if (row.isNullAt(i)) {
        if (conf.nullPolicy == NullPolicy.SKIP) {
          counters.countSkippedNull();
          return null;
        }
        throw new BadValueException(p.column(), rowIndex, partition, source(row),
            "null; .beton has no nulls (filter them, or set nullPolicy=skip)", null);
      }
      try {
        values[k] = value(k, p, row, rowIndex);
      } catch (ImageDecodeException | JpegException e) {
        refuse(p.column(), row, rowIndex, e.getMessage(), e);
        return null;
      } catch (RuntimeException e) {
        if (!isImage(p) && e instanceof IllegalArgumentException && !(e instanceof BadValueException)) {
          // an array not of its shape or holding a null: this row's data, the same on every attempt
          throw new BadValueException(p.column(), rowIndex, partition, source(row), e.getMessage(), e);
        }
        if (!isImage(p) || e instanceof IllegalStateException || e instanceof java.io.UncheckedIOException) {
          throw e;
        }
        // anything else thrown while one image was decoded, checked, resized or encoded (an arithmetic overflow on
        // absurd sizes, a decoder library's own exception) concerns that image alone: bad input too, named
        refuse(p.column(), row, rowIndex, "cannot store the image: " + e, e);
        return null;
      }
    }
    return values;
  }

  /**
   * Applies the bad-image policy to a sample that no page can hold ({@code tooLarge}, thrown by the shard writer for
   * the values {@link #encode} last returned), naming its largest image column. A row with no image column fails
   * with a {@link BadValueException}: its values, the same on every attempt, need a larger {@code pageSize}.
   */
  void refuseTooLarge(InternalRow row, long rowIndex, SampleTooLargeException tooLarge) {
    String column = null;
    long largest = -1;
    for (int k = 0; k < plans.size(); k++) {
      if (isImage(plans.get(k)) && values[k] instanceof RgbImage img && img.payload().remaining() > largest) {
        largest = img.payload().remaining();
        column = plans.get(k).column();
      }
    }
    if (column == null) {
      throw new BadValueException(null, rowIndex, partition, source(row), tooLarge.getMessage() + " (option pageSize)",
          tooLarge);
    }
    refuse(column, row, rowIndex, tooLarge.getMessage() + " (option pageSize)", tooLarge);
  }

  /** The bad-image policy for {@code column} of {@code row}: counted and skipped, quarantined, or a failure. */
  private void refuse(String column, InternalRow row, long rowIndex, String reason, RuntimeException cause) {
    switch (conf.badImages) {
      case SKIP -> counters.countSkippedBadImage();
      case QUARANTINE -> {
        counters.countSkippedBadImage();
        quarantine.add(source(row), partition, rowIndex, column, reason);
      }
      default -> throw new BadImageException(column, rowIndex, partition, source(row), reason, cause);
    }
  }

  private static boolean isImage(ColumnPlan p) {
    return p.kind() == ColumnKind.ENCODED_IMAGE || p.kind() == ColumnKind.READ_IMAGE
        || p.kind() == ColumnKind.IMAGE_STRUCT
        || p.kind() == ColumnKind.IMAGE_PATH;
  }

  /**
   * The row's source id: the sourceIdColumn's value as text, else the path in its first image column of paths;
   * null when there is neither or it is null.
   */
  private String source(InternalRow row) {
    if (sourceOrdinal < 0) {
      return pathOrdinal < 0 || row.isNullAt(pathOrdinal) ? null : row.getUTF8String(pathOrdinal).toString();
    }
    if (row.isNullAt(sourceOrdinal)) {
      return null;
    }
    return String.valueOf(row.get(sourceOrdinal, sourceType));
  }

  private Object value(int k, ColumnPlan p, InternalRow row, long rowIndex) throws java.io.IOException {
    int i = p.ordinal();
    return switch (p.kind()) {
      case LONG -> row.getLong(i);
      case INT -> (long) row.getInt(i);
      case SHORT -> (long) row.getShort(i);
      case BYTE -> (long) row.getByte(i);
      case BOOLEAN -> row.getBoolean(i) ? 1L : 0L;
      case DATE -> (long) row.getInt(i);
      case TIMESTAMP, TIMESTAMP_NTZ -> row.getLong(i);
      case FLOAT -> (double) row.getFloat(i);
      case DOUBLE -> row.getDouble(i);
      case DECIMAL -> {
        DecimalType type = (DecimalType) p.type();
        yield StoredDecimals.toDouble(row.getDecimal(i, type.precision(), type.scale()).toJavaBigDecimal());
      }
      case BINARY -> row.getBinary(i);
      case STRING_BYTES -> row.getUTF8String(i).getBytes(); // Spark's bytes as they are, valid UTF-8 or not
      case STRING_JSON -> jsonString(Utf8Text.of(row.getUTF8String(i)));
      case READ_JSON -> {
        // a read gives an object's or a list's JSON text, and a string's text: the one kept, the other quoted again
        String text = Utf8Text.of(row.getUTF8String(i));
        yield JsonText.isObjectOrList(text) ? text : jsonString(text);
      }
      case JSON -> JsonValues.toJson(row.get(i, p.type()), p.type());
      case ENCODED_IMAGE -> encoders[k].fromEncoded(binaryView(row, i), rowIndex);
      case READ_IMAGE -> readImage(encoders[k], p.parts(), row, i, rowIndex);
      case IMAGE_PATH -> {
        ImageFiles from = i == pathOrdinal ? pathFiles : readers[k];
        yield encoders[k].fromEncoded(from.read(row.getUTF8String(i).toString()), rowIndex);
      }
      case IMAGE_STRUCT -> imageStruct(encoders[k], p, row.getStruct(i, ((StructType) p.type()).fields().length),
          rowIndex);
      case NUMERIC_ARRAY -> array(p, row.getArray(i));
    };
  }

  /** {@code s} as a JSON string literal. */
  private static String jsonString(String s) {
    StringBuilder sb = new StringBuilder();
    JsonValues.string(sb, s);
    return sb.toString();
  }

  /**
   * The bytes of binary column {@code i} without copying them when the row is an on-heap {@link UnsafeRow}
   * (what file sources such as binaryFile produce): a binary value is stored like a string there, so
   * {@code getUTF8String} is a view of the row's memory, where {@code getBinary} copies the whole encoded
   * image into a new array. The view is valid until the iterator moves on, which is enough: the writer
   * consumes it before asking for the next row.
   */
  static ByteBuffer binaryView(InternalRow row, int i) {
    if (row instanceof UnsafeRow) {
      UTF8String view = row.getUTF8String(i);
      if (view.getBaseObject() instanceof byte[] array) {
        long offset = view.getBaseOffset() - Platform.BYTE_ARRAY_OFFSET;
        return ByteBuffer.wrap(array, Math.toIntExact(offset), view.numBytes()).slice();
      }
    }
    return ByteBuffer.wrap(row.getBinary(i));
  }

  /**
   * An image as a beton read gave it in column {@code i}: its payload as stored (a JPEG, or RGB bytes where its mode
   * column says {@code raw}), or decoded RGB bytes; RGB bytes are H x W x 3 by its width and height columns.
   */
  private RgbImage readImage(ImageEncoder images, ColumnPlan.ImageParts parts, InternalRow row, int i,
      long rowIndex) {
    if (!parts.rgb() && !ImageMode.RAW.label().equals(row.getUTF8String(parts.mode()).toString())) {
      return images.fromEncoded(binaryView(row, i), rowIndex);
    }
    int w = row.getInt(parts.width());
    int h = row.getInt(parts.height());
    byte[] rgb = row.getBinary(i);
    if (w < 1 || h < 1 || rgb.length != (long) w * h * 3) {
      throw new ImageDecodeException("raw image of " + w + "x" + h + " holds " + rgb.length + " bytes, not H*W*3");
    }
    return images.fromPixels(rgb, w, h, rowIndex);
  }

  /** Spark's image struct: BGR(A) or grey bytes, row-major. */
  private RgbImage imageStruct(ImageEncoder images, ColumnPlan p, InternalRow img, long rowIndex) {
    StructType s = (StructType) p.type();
    int h = img.getInt(s.fieldIndex("height"));
    int w = img.getInt(s.fieldIndex("width"));
    int channels = img.getInt(s.fieldIndex("nChannels"));
    byte[] data = img.getBinary(s.fieldIndex("data"));
    if (channels != 1 && channels != 3 && channels != 4) {
      throw new ImageDecodeException("image struct has " + channels + " channels; expected 1, 3 or 4");
    }
    if (w < 1 || h < 1 || data == null || data.length != (long) w * h * channels) {
      throw new ImageDecodeException("image struct of " + w + "x" + h + "x" + channels + " holds "
          + (data == null ? 0 : data.length) + " bytes");
    }
    byte[] rgb = new byte[w * h * 3];
    for (int px = 0, src = 0, dst = 0; px < w * h; px++, src += channels, dst += 3) {
      if (channels == 1) {
        rgb[dst] = rgb[dst + 1] = rgb[dst + 2] = data[src];
      } else {
        rgb[dst] = data[src + 2];
        rgb[dst + 1] = data[src + 1];
        rgb[dst + 2] = data[src];
      }
    }
    return images.fromPixels(rgb, w, h, rowIndex);
  }

  private Object array(ColumnPlan p, ArrayData a) {
    NdArrayField field = (NdArrayField) p.field().codec();
    long[] shape = field.shape();
    long elements = 1;
    for (long d : shape) {
      elements *= d;
    }
    if (a.numElements() != elements) {
      throw new IllegalArgumentException(a.numElements() + " elements, but its shape (option arrayShapes) is "
          + java.util.Arrays.stream(shape).mapToObj(Long::toString).collect(java.util.stream.Collectors.joining("x"))
          + ", " + elements + " elements");
    }
    for (int k = 0; k < a.numElements(); k++) {
      if (a.isNullAt(k)) {
        throw new IllegalArgumentException("null element at index " + k + "; .beton arrays have no nulls");
      }
    }
    return StoredArrays.values(a, field.dtype());
  }

  /** The first image column of paths (the one {@link ImageReadAhead} reads ahead), or -1 when there is none. */
  int pathOrdinal() {
    return pathOrdinal;
  }

  /** What this task has counted so far (rows skipped here, images' work in its {@link ImageEncoder}). */
  TaskCounters counters() {
    return counters;
  }

  @Override
  public void close() {
    for (ImageEncoder e : encoders) {
      if (e != null) {
        e.close();
      }
    }
  }
}
