package org.sparkbeton.spark.write;

import java.nio.ByteBuffer;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StructField;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.dataset.ColumnAnnotations;
import org.sparkbeton.format.fields.Float16;
import org.sparkbeton.format.fields.NumpyDtype;

/**
 * Numeric array columns and the NDArray (or TorchTensor) fields they are stored as. A column a beton read gave
 * carries its field's dtype and shape in its metadata: it is stored as that field again (its shape needs no
 * {@code arrayShapes}), in that dtype where the column still has the element type the read gives for it, so the
 * widened types come back narrow ({@code u1} read as short, {@code f2} as float, big-endian as the JVM's order).
 * Any other array is stored in the dtype of its element type.
 *
 * @param dtype the field's dtype
 * @param shape the shape a read gave, or null
 * @param torch whether the field was a TorchTensor
 */
record StoredArrays(NumpyDtype dtype, long[] shape, boolean torch) {
  /** How column {@code f}, an array of numbers or booleans, is stored; shape null unless a beton read gave it. */
  static StoredArrays of(StructField f) {
    DataType element = ((ArrayType) f.dataType()).elementType();
    NumpyDtype own = NumpyDtype.of(BetonSchemaMapping.numpyType(element));
    Metadata m = f.metadata();
    if (!m.contains(ColumnAnnotations.TYPE) || !m.contains(ColumnAnnotations.DTYPE)
        || !m.contains(ColumnAnnotations.SHAPE)) {
      return new StoredArrays(own, null, false);
    }
    String type = m.getString(ColumnAnnotations.TYPE);
    boolean torch = type.equals(FieldTypes.name(FieldTypes.TORCH_TENSOR));
    if (!torch && !type.equals(FieldTypes.name(FieldTypes.NDARRAY))) {
      return new StoredArrays(own, null, false);
    }
    NumpyDtype read = NumpyDtype.of(m.getString(ColumnAnnotations.DTYPE));
    return new StoredArrays(readAs(read, element) ? read : own, m.getLongArray(ColumnAnnotations.SHAPE), torch);
  }

  /** Whether a beton read gives arrays of {@code dtype} as elements of {@code element} (the reader's schema table). */
  private static boolean readAs(NumpyDtype dtype, DataType element) {
    int size = dtype.itemSize();
    return switch (dtype.kind()) {
      case 'b' -> size == 1 && element instanceof BooleanType;
      case 'i' -> size == 1 && element instanceof ByteType || size == 2 && element instanceof ShortType
          || size == 4 && element instanceof IntegerType || size == 8 && element instanceof LongType;
      case 'u' -> size == 1 && element instanceof ShortType || size == 2 && element instanceof IntegerType
          || (size == 4 || size == 8) && element instanceof LongType;
      case 'f' -> (size == 2 || size == 4) && element instanceof FloatType || size == 8 && element instanceof DoubleType;
      default -> false;
    };
  }

  /**
   * The values of {@code a} (its elements the type a read gives for {@code dtype}, none null) as the field takes them: a
   * primitive array of its width, or its bytes. Throws IllegalArgumentException for a value the dtype cannot hold
   * (a negative number or one too large for an unsigned type).
   */
  static Object values(ArrayData a, NumpyDtype dtype) {
    String t = dtype.kind() + "" + dtype.itemSize();
    switch (t) {
      case "u1": {
        short[] v = a.toShortArray();
        ByteBuffer out = ByteBuffer.allocate(v.length);
        for (int i = 0; i < v.length; i++) {
          out.put((byte) unsigned(v[i], 0xff, i, dtype));
        }
        return out.flip();
      }
      case "u2": {
        int[] v = a.toIntArray();
        short[] out = new short[v.length];
        for (int i = 0; i < v.length; i++) {
          out[i] = (short) unsigned(v[i], 0xffff, i, dtype);
        }
        return out;
      }
      case "u4": {
        long[] v = a.toLongArray();
        int[] out = new int[v.length];
        for (int i = 0; i < v.length; i++) {
          out[i] = (int) unsigned(v[i], 0xffff_ffffL, i, dtype);
        }
        return out;
      }
      case "f2": {
        float[] v = a.toFloatArray();
        short[] out = new short[v.length];
        for (int i = 0; i < v.length; i++) {
          out[i] = Float16.fromFloat(v[i]);
        }
        return out;
      }
      case "i1":
        return ByteBuffer.wrap(a.toByteArray());
      case "i2":
        return a.toShortArray();
      case "i4":
        return a.toIntArray();
      case "i8":
      case "u8":
        return a.toLongArray();
      case "f4":
        return a.toFloatArray();
      case "f8":
        return a.toDoubleArray();
      default:
        return a.toBooleanArray();
    }
  }

  private static long unsigned(long v, long max, int index, NumpyDtype dtype) {
    if (v < 0 || v > max) {
      throw new IllegalArgumentException("element " + index + " is " + v + ", outside the range of its field's dtype "
          + dtype.typestr() + " (0.." + max + ")");
    }
    return v;
  }
}
