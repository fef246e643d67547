package org.sparkbeton.format.fields;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Converts Java primitive arrays to NDArray payload bytes when their type matches the dtype. */
final class PrimitiveArrays {
  private PrimitiveArrays() {}

  static ByteBuffer toBytes(Object value, NumpyDtype dtype) {
    String expected = dtype.kind() + "" + dtype.itemSize();
    ByteBuffer out;
    if (value instanceof float[] a && expected.equals("f4")) {
      out = allocate(a.length * 4L, dtype);
      out.asFloatBuffer().put(a);
    } else if (value instanceof double[] a && expected.equals("f8")) {
      out = allocate(a.length * 8L, dtype);
      out.asDoubleBuffer().put(a);
    } else if (value instanceof int[] a && (expected.equals("i4") || expected.equals("u4"))) {
      out = allocate(a.length * 4L, dtype);
      out.asIntBuffer().put(a);
    } else if (value instanceof long[] a && (expected.equals("i8") || expected.equals("u8"))) {
      out = allocate(a.length * 8L, dtype);
      out.asLongBuffer().put(a);
    } else if (value instanceof short[] a && (expected.equals("i2") || expected.equals("u2") || expected.equals("f2"))) {
      out = allocate(a.length * 2L, dtype);
      out.asShortBuffer().put(a);
    } else if (value instanceof boolean[] a && expected.equals("b1")) {
      out = allocate(a.length, dtype);
      for (boolean v : a) {
        out.put((byte) (v ? 1 : 0));
      }
      out.rewind();
    } else {
      throw new IllegalArgumentException("NDArray field of dtype " + dtype + " cannot take "
          + Values.describe(value) + "; pass byte[] / ByteBuffer of the raw bytes or a matching primitive array");
    }
    return out;
  }

  private static ByteBuffer allocate(long size, NumpyDtype dtype) {
    if (size > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("array of " + size + " bytes is too large");
    }
    ByteOrder order = dtype.order();
    return ByteBuffer.allocate((int) size).order(order);
  }
}
