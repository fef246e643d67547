package org.sparkbeton.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sparkbeton.format.fields.BytesField;
import org.sparkbeton.format.fields.FloatField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.JsonField;
import org.sparkbeton.format.fields.NdArray;
import org.sparkbeton.format.fields.NdArrayField;
import org.sparkbeton.format.fields.NumpyDtype;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.format.verify.BetonVerifier;
import org.sparkbeton.format.write.BetonWriter;

class AllFieldTypesTest {
  @TempDir Path tmp;

  @Test
  void everyBuiltInTypeRoundTripsFromJavaValues() throws Exception {
    List<BetonField> fields = List.of(
        new BetonField("f", FloatField.INSTANCE),
        new BetonField("i", IntField.INSTANCE),
        new BetonField("img", RgbImageField.INSTANCE),
        new BetonField("b", BytesField.INSTANCE),
        new BetonField("j", JsonField.INSTANCE),
        new BetonField("big", NdArrayField.ndarray(">f4", 2)),
        new BetonField("mask", NdArrayField.ndarray("bool", 3)),
        new BetonField("t", NdArrayField.torchTensor(NumpyDtype.of("int16"), 2, 2)));
    Path file = tmp.resolve("all.beton");
    byte[] jpeg = {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xC0, 0, 11, 8, 0, 2, 0, 3, 3, 0, 0, 0};
    ByteBuffer bigEndian = ByteBuffer.allocate(8).order(ByteOrder.BIG_ENDIAN).putFloat(1.5f).putFloat(-2f).flip();
    try (BetonWriter w = BetonWriter.builder(fields).open(file)) {
      w.append(-0.25, Long.MIN_VALUE, RgbImage.raw(2, 1, new byte[] {1, 2, 3, 4, 5, 6}), new byte[] {9},
          "{\"é\": [1, 2]}", bigEndian, new boolean[] {true, false, true}, new short[] {1, -2, 3, -4});
      w.append(1e300, true, RgbImage.jpeg(3, 2, jpeg), new byte[0], "null", new byte[8], new byte[3], new byte[8]);
      w.finish();
    }
    try (BetonReader r = BetonReader.open(file)) {
      assertThat(r.floatValue(0, 0)).isEqualTo(-0.25);
      assertThat(r.intValue(0, 1)).isEqualTo(Long.MIN_VALUE);
      assertThat(((RgbImage) r.value(0, 2)).payloadBytes()).containsExactly(1, 2, 3, 4, 5, 6);
      assertThat((byte[]) r.value(0, 3)).containsExactly(9);
      assertThat(r.value(0, 4)).isEqualTo("{\"é\": [1, 2]}");
      NdArray big = (NdArray) r.value(0, 5);
      assertThat(big.data().duplicate().order(big.dtype().order()).getFloat(4)).isEqualTo(-2f);
      assertThat(((NdArray) r.value(0, 6)).data().get(2)).isEqualTo((byte) 1);
      NdArray t = (NdArray) r.value(0, 7);
      assertThat(r.fields().get(7).typeId()).isEqualTo(FieldTypes.TORCH_TENSOR);
      assertThat(t.shape()).containsExactly(2, 2);
      assertThat(t.data().duplicate().order(ByteOrder.LITTLE_ENDIAN).getShort(6)).isEqualTo((short) -4);
      assertThat(r.floatValue(1, 0)).isEqualTo(1e300);
      assertThat(r.intValue(1, 1)).isEqualTo(1);
      RgbImage img = (RgbImage) r.value(1, 2);
      assertThat(img.width()).isEqualTo(3);
      assertThat(img.payloadBytes()).isEqualTo(jpeg);
      assertThat((byte[]) r.value(1, 3)).isEmpty();
      assertThat(BetonVerifier.verify(r).problems()).isEmpty();
    }
  }

  /** The descr texts of docs/format.md#arguments, as numpy writes them. */
  @ParameterizedTest
  @CsvSource(delimiter = ';', value = {
      "float32;[[\"\", \"<f4\"]]", "uint8;[[\"\", \"|u1\"]]", "bool;[[\"\", \"|b1\"]]", "float16;[[\"\", \"<f2\"]]",
      "int64;[[\"\", \"<i8\"]]", ">f4;[[\"\", \">f4\"]]", "complex64;[[\"\", \"<c8\"]]", "<M8[ns];[[\"\", \"<M8[ns]\"]]"})
  void descrJsonMatchesNumpy(String dtype, String descr) {
    NumpyDtype d = NumpyDtype.of(dtype);
    assertThat(d.descrJson()).isEqualTo(descr);
    assertThat(NumpyDtype.fromDescrJson(descr)).isEqualTo(d);
  }

  @Test
  void wrongArrayValuesAreRefusedWithTheExpectedSize() {
    NdArrayField f = NdArrayField.ndarray("<f4", 3, 4);
    assertThat(f.describe()).isEqualTo("<f4 (3, 4)");
    assertThatThrownBy(() -> f.encode(new float[11], ByteBuffer.allocate(8), 0, null))
        .hasMessage("Array for <f4 (3, 4) must be 48 bytes, got 44");
    assertThatThrownBy(() -> f.encode(new double[12], ByteBuffer.allocate(8), 0, null))
        .hasMessageStartingWith("NDArray field of dtype <f4 cannot take double[12];");
    assertThatThrownBy(() -> NdArrayField.ndarray("<f4", 3, 0)).hasMessageContaining("dimensions must be positive");
    assertThatThrownBy(() -> NumpyDtype.of("float33")).hasMessageContaining("Not a numpy type string or name");
  }
}
