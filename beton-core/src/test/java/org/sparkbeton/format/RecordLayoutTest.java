package org.sparkbeton.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sparkbeton.format.fields.BytesField;
import org.sparkbeton.format.fields.FloatField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.NdArrayField;
import org.sparkbeton.format.fields.RgbImageField;

/** The examples of docs/format.md#metadata-table (numpy align=True, packed image/bytes structs). */
class RecordLayoutTest {
  private static final FieldCodec IMAGE = RgbImageField.INSTANCE;
  private static final FieldCodec INT = IntField.INSTANCE;
  private static final FieldCodec FLOAT = FloatField.INSTANCE;
  private static final FieldCodec BYTES = BytesField.INSTANCE;
  private static final FieldCodec U8 = NdArrayField.ndarray("<u8", 1);

  private static void assertLayout(List<FieldCodec> codecs, int recordSize, int... offsets) {
    RecordLayout layout = RecordLayout.of(codecs);
    assertThat(layout.recordSize()).isEqualTo(recordSize);
    for (int i = 0; i < offsets.length; i++) {
      assertThat(layout.offset(i)).as("offset of field %d", i).isEqualTo(offsets[i]);
    }
  }

  @Test
  void imageThenInt() {
    assertLayout(List.of(IMAGE, INT), 24, 0, 16);
  }

  @Test
  void intThenImageHasTailPadding() {
    assertLayout(List.of(INT, IMAGE), 24, 0, 8);
  }

  @Test
  void imageOnlyIsPacked() {
    assertLayout(List.of(IMAGE), 13, 0);
  }

  @Test
  void floatImageInt() {
    assertLayout(List.of(FLOAT, IMAGE, INT), 32, 0, 8, 24);
  }

  @Test
  void bytesThenInt() {
    assertLayout(List.of(BYTES, INT), 24, 0, 16);
  }

  @Test
  void imageBytesPointer() {
    assertLayout(List.of(IMAGE, BYTES, U8), 40, 0, 13, 32);
  }

  @Test
  void descriptorIs1041Bytes() {
    assertThat(BetonFormat.DESCRIPTOR_SIZE).isEqualTo(1041);
    assertThat(RgbImageField.INSTANCE.metadataSize()).isEqualTo(13);
    assertThat(BytesField.INSTANCE.metadataSize()).isEqualTo(16);
  }
}
