package org.sparkbeton.format.fields;

import java.nio.ByteBuffer;
import org.sparkbeton.format.FieldCodec;
import org.sparkbeton.format.FieldTypes;

/**
 * Type 1: an {@code <i8} stored inline in the record; no payload. Values are integral {@link Number}s
 * or {@link Boolean}s (stored as 0/1); a fractional number is refused rather than silently truncated.
 */
public final class IntField implements FieldCodec {
  public static final IntField INSTANCE = new IntField();
  private static final int[] NO_POINTERS = {};

  private IntField() {}

  @Override public int typeId() { return FieldTypes.INT; }
  @Override public int metadataSize() { return 8; }
  @Override public int metadataAlignment() { return 8; }
  @Override public byte[] arguments() { return new byte[0]; }
  @Override public int[] pointerOffsets() { return NO_POINTERS; }

  @Override
  public void encode(Object value, ByteBuffer record, int offset, EncodeContext ctx) {
    long v;
    if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
      v = ((Number) value).longValue();
    } else if (value instanceof Boolean b) {
      v = b ? 1 : 0;
    } else if (value instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())
        && Math.abs(n.doubleValue()) < 0x1p63) {
      v = n.longValue();
    } else {
      throw new IllegalArgumentException("Int field expects an integral Number or Boolean, got " + Values.describe(value));
    }
    record.putLong(offset, v);
  }

  @Override
  public Long decode(ByteBuffer record, int offset, PayloadReader payloads) {
    return record.getLong(offset);
  }
}
