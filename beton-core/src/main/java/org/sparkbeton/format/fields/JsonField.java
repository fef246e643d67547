package org.sparkbeton.format.fields;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.sparkbeton.format.FieldTypes;

/**
 * Type 5: JSON text stored like {@link BytesField}, UTF-8 with a trailing NUL included in the size
 * (FFCV stores {@code json.dumps(v) + '\0'}). Values are the JSON text as a {@link String}; the text
 * is stored as given (not re-serialised). A NUL inside the text is refused: FFCV's reader would cut
 * the value there. Decoding returns the text up to the first NUL, as FFCV's {@code unpack} does.
 */
public final class JsonField extends BytesField {
  public static final JsonField INSTANCE = new JsonField();

  private JsonField() {}

  @Override public int typeId() { return FieldTypes.JSON; }

  @Override
  protected ByteBuffer payloadOf(Object value) {
    if (!(value instanceof String text)) {
      throw new IllegalArgumentException("JSON field expects the JSON text as a String, got " + Values.describe(value));
    }
    if (text.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("JSON text contains a NUL character at index " + text.indexOf('\0')
          + "; FFCV would cut the value there");
    }
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
    byte[] withNul = new byte[utf8.length + 1];
    System.arraycopy(utf8, 0, withNul, 0, utf8.length);
    return ByteBuffer.wrap(withNul);
  }

  @Override
  public String decode(ByteBuffer record, int offset, PayloadReader payloads) {
    byte[] stored = (byte[]) super.decode(record, offset, payloads);
    int end = 0;
    while (end < stored.length && stored[end] != 0) {
      end++;
    }
    return new String(stored, 0, end, StandardCharsets.UTF_8);
  }
}
