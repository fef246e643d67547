package org.sparkbeton.spark.read;

import java.nio.ByteBuffer;
import org.sparkbeton.format.FieldCodec;
import org.sparkbeton.format.FieldTypes;

/**
 * A custom (type 255) field whose class we do not have: its metadata column is read as raw bytes, at
 * the size and alignment the user declares with {@link BetonReadOptions#CUSTOM_FIELD_LAYOUT}. Read
 * only; payloads it may point to are not interpreted.
 */
final class RawMetadataField implements FieldCodec {
  private static final int[] NO_POINTERS = {};
  private final int size;
  private final int alignment;

  RawMetadataField(int size, int alignment) {
    this.size = size;
    this.alignment = alignment;
  }

  @Override public int typeId() { return FieldTypes.CUSTOM; }
  @Override public int metadataSize() { return size; }
  @Override public int metadataAlignment() { return alignment; }
  @Override public byte[] arguments() { return new byte[0]; }
  @Override public int[] pointerOffsets() { return NO_POINTERS; }
  @Override public String describe() { return "(raw metadata, " + size + " bytes)"; }

  @Override
  public void encode(Object value, ByteBuffer record, int offset, EncodeContext ctx) {
    throw new UnsupportedOperationException("Custom fields read as raw metadata cannot be written");
  }

  @Override
  public byte[] decode(ByteBuffer record, int offset, PayloadReader payloads) {
    byte[] out = new byte[size];
    record.get(offset, out);
    return out;
  }
}
