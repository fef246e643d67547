package org.sparkbeton.format.fields;

import java.nio.ByteBuffer;
import org.sparkbeton.format.FieldCodec;
import org.sparkbeton.format.FieldTypes;

/**
 * Type 3: variable-length bytes. Metadata is the packed 16-byte struct {@code {ptr u64, size u64}};
 * the payload is one allocation. Values are {@code byte[]} or {@link ByteBuffer}; decoded as
 * {@code byte[]}. Empty values are allowed: the writer gives them a pointer of their own (FFCV would
 * share it with the next allocation, docs/format.md#zero-length-values).
 */
public class BytesField implements FieldCodec {
  public static final BytesField INSTANCE = new BytesField();
  private static final int[] POINTERS = {0};

  BytesField() {}

  @Override public int typeId() { return FieldTypes.BYTES; }
  @Override public int metadataSize() { return 16; }
  @Override public int metadataAlignment() { return 1; }
  @Override public byte[] arguments() { return new byte[0]; }
  @Override public int[] pointerOffsets() { return POINTERS; }

  @Override
  public void encode(Object value, ByteBuffer record, int offset, EncodeContext ctx) {
    ByteBuffer payload = payloadOf(value);
    long size = payload.remaining();
    long ptr = ctx.allocate(payload);
    record.putLong(offset, ptr);
    record.putLong(offset + 8, size);
  }

  protected ByteBuffer payloadOf(Object value) {
    ByteBuffer payload = Values.bytesOf(value);
    if (payload == null) {
      throw new IllegalArgumentException("Bytes field expects byte[] or ByteBuffer, got " + Values.describe(value));
    }
    return payload;
  }

  @Override
  public Object decode(ByteBuffer record, int offset, PayloadReader payloads) {
    ByteBuffer stored = payloads.read(record.getLong(offset), record.getLong(offset + 8));
    byte[] out = new byte[stored.remaining()];
    stored.get(out);
    return out;
  }
}
