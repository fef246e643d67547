package org.sparkbeton.format.fields;

import java.nio.ByteBuffer;
import org.sparkbeton.format.FieldCodec;
import org.sparkbeton.format.FieldTypes;

/** Type 0: an {@code <f8} stored inline in the record; no payload. Values are {@link Number}s. */
public final class FloatField implements FieldCodec {
  public static final FloatField INSTANCE = new FloatField();
  private static final int[] NO_POINTERS = {};

  private FloatField() {}

  @Override public int typeId() { return FieldTypes.FLOAT; }
  @Override public int metadataSize() { return 8; }
  @Override public int metadataAlignment() { return 8; }
  @Override public byte[] arguments() { return new byte[0]; }
  @Override public int[] pointerOffsets() { return NO_POINTERS; }

  @Override
  public void encode(Object value, ByteBuffer record, int offset, EncodeContext ctx) {
    if (!(value instanceof Number n)) {
      throw new IllegalArgumentException("Float field expects a Number, got " + Values.describe(value));
    }
    record.putDouble(offset, n.doubleValue());
  }

  @Override
  public Double decode(ByteBuffer record, int offset, PayloadReader payloads) {
    return record.getDouble(offset);
  }
}
