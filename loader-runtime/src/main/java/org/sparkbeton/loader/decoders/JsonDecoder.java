package org.sparkbeton.loader.decoders;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.loader.pipeline.FieldSource;

/**
 * A JSON field as UTF-8 bytes: uint8 [maxSize], zero-padded, length without FFCV's trailing NUL.
 * {@link #text} turns a row back into the JSON text (not on the hot path).
 */
public final class JsonDecoder extends BytesDecoder {
  @Override
  public Stage plan(FieldSource field) {
    field.requireType(name(), FieldTypes.JSON);
    return super.plan(field);
  }

  @Override
  int trailingBytes() {
    return 1;
  }

  /** The JSON text of one row: {@code length} bytes at {@code offset}. */
  public static String text(ByteBuffer rows, int offset, int length) {
    byte[] b = new byte[length];
    rows.get(offset, b);
    return new String(b, StandardCharsets.UTF_8);
  }
}
