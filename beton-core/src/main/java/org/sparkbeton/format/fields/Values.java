package org.sparkbeton.format.fields;

import java.nio.ByteBuffer;

/** Small helpers shared by the codecs for turning user values into payload buffers. */
final class Values {
  private Values() {}

  static String describe(Object value) {
    if (value == null) {
      return "null";
    }
    if (value.getClass().isArray()) {
      return value.getClass().getComponentType().getSimpleName() + "[" + java.lang.reflect.Array.getLength(value) + "]";
    }
    return value.getClass().getSimpleName() + " " + abbreviate(String.valueOf(value));
  }

  private static String abbreviate(String s) {
    return s.length() <= 40 ? s : s.substring(0, 37) + "...";
  }

  /** A read-only view of {@code byte[]} or {@link ByteBuffer} values, or null for anything else. */
  static ByteBuffer bytesOf(Object value) {
    if (value instanceof byte[] a) {
      return ByteBuffer.wrap(a);
    }
    if (value instanceof ByteBuffer b) {
      return b.duplicate();
    }
    return null;
  }
}
