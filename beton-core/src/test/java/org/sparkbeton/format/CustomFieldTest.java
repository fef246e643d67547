package org.sparkbeton.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.verify.BetonVerifier;
import org.sparkbeton.format.write.BetonWriter;

/**
 * A user field written as type 255 and read back through the name registry, like FFCV's
 * {@code custom_fields}: here a fixed-width ASCII string stored inline in the metadata record plus a
 * length-prefixed payload, with its width kept in the argument blob.
 */
class CustomFieldTest {
  @TempDir Path tmp;

  /** Metadata: {@code u8 length, char[width] text, u64 ptr} packed; payload: the text reversed. */
  static final class ShortTextField implements FieldCodec {
    final int width;

    ShortTextField(int width) {
      this.width = width;
    }

    static ShortTextField fromArguments(byte[] args) {
      int width = args[0] & 0xff;
      if (width == 0) {
        throw new IllegalArgumentException("width 0");
      }
      return new ShortTextField(width);
    }

    @Override public int typeId() { return FieldTypes.CUSTOM; }
    @Override public int metadataSize() { return 1 + width + 8; }
    @Override public int metadataAlignment() { return 1; }
    @Override public byte[] arguments() { return new byte[] {(byte) width}; }
    @Override public int[] pointerOffsets() { return new int[] {1 + width}; }

    @Override
    public void encode(Object value, ByteBuffer record, int offset, EncodeContext ctx) {
      byte[] text = ((String) value).getBytes(StandardCharsets.US_ASCII);
      if (text.length > width) {
        throw new IllegalArgumentException("text longer than " + width);
      }
      record.put(offset, (byte) text.length);
      record.put(offset + 1, text);
      byte[] reversed = new StringBuilder((String) value).reverse().toString().getBytes(StandardCharsets.US_ASCII);
      record.putLong(offset + 1 + width, ctx.allocate(ByteBuffer.wrap(reversed)));
    }

    @Override
    public Object decode(ByteBuffer record, int offset, PayloadReader payloads) {
      int len = record.get(offset) & 0xff;
      byte[] text = new byte[len];
      record.get(offset + 1, text);
      ByteBuffer rev = payloads.read(record.getLong(offset + 1 + width), payloads.allocationSize(record.getLong(offset + 1 + width)));
      byte[] r = new byte[rev.remaining()];
      rev.get(r);
      return new String(text, StandardCharsets.US_ASCII) + "|" + new String(r, StandardCharsets.US_ASCII);
    }
  }

  @Test
  void customFieldRoundTripsThroughTheNameRegistry() throws Exception {
    Path file = tmp.resolve("custom.beton");
    List<BetonField> fields = List.of(new BetonField("label", IntField.INSTANCE),
        new BetonField("caption", new ShortTextField(12)));
    try (BetonWriter w = BetonWriter.builder(fields).open(file)) {
      w.append(1L, "cat");
      w.append(2L, "dog on a mat");
      w.finish();
    }
    assertThatThrownBy(() -> BetonReader.open(file)).isInstanceOf(BetonFormatException.class)
        .hasMessageContaining("field 'caption' is a custom field (type id 255)");
    ReadOptions options = ReadOptions.defaults().customField("caption", ShortTextField::fromArguments);
    try (BetonReader r = BetonReader.open(file, options)) {
      // label (8) + packed caption (21) = 29, rounded up to the Int column's alignment of 8
      assertThat(r.layout().recordSize()).isEqualTo(32);
      assertThat(r.value(0, 1)).isEqualTo("cat|tac");
      assertThat(r.value(1, 1)).isEqualTo("dog on a mat|tam a no god");
      assertThat(r.intValue(1, 0)).isEqualTo(2);
      assertThat(BetonVerifier.verify(r).problems()).isEmpty();
    }
  }
}
