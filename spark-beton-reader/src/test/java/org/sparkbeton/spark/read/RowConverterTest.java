package org.sparkbeton.spark.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.ReadOptions;
import org.sparkbeton.format.dataset.ManifestField;
import org.sparkbeton.format.fields.PixelDecoder;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.format.io.ChannelSource;
import org.sparkbeton.spark.read.testing.TestDatasets;

class RowConverterTest {
  @TempDir Path tmp;

  private static BetonSchema schemaOf(BetonReader r, String mode) {
    List<ManifestField> fields = new ArrayList<>();
    r.fields().forEach(f -> fields.add(ManifestField.of(f)));
    return BetonSchema.of(fields, mode);
  }

  @Test
  void convertsEveryFieldTypeInBinaryMode() throws Exception {
    Path file = TestDatasets.writeFile(tmp.resolve("a.beton"), TestDatasets.EVERY_FIELD, TestDatasets.everyFieldSamples(0, 12));
    try (BetonReader r = BetonReader.open(new ChannelSource(file), ReadOptions.defaults())) {
      BetonSchema schema = schemaOf(r, "binary");
      RowConverter c = new RowConverter(r, schema, schema.sparkSchema(), "binary", null);
      GenericInternalRow row = new GenericInternalRow(c.numColumns());
      for (int i = 0; i < 12; i++) {
        Object[] expected = TestDatasets.everyFieldSample(i);
        InternalRow got = c.fill(i, row);
        RgbImage img = (RgbImage) expected[0];
        assertThat(got.getBinary(0)).isEqualTo(img.payloadBytes());
        assertThat(got.getInt(1)).isEqualTo(img.width());
        assertThat(got.getInt(2)).isEqualTo(img.height());
        assertThat(got.getUTF8String(3).toString()).isEqualTo("raw");
        assertThat(got.getLong(4)).isEqualTo(expected[1]);
        assertThat(got.getDouble(5)).isEqualTo(expected[2]);
        assertThat(got.getBinary(6)).isEqualTo((byte[]) expected[3]);
        assertThat(got.getUTF8String(7).toString()).isEqualTo(expected[4]);
        assertThat(got.getArray(8).toFloatArray()).containsExactly((float[]) expected[5]);
        assertThat(got.getArray(9).toShortArray()).containsExactly((short[]) expected[6]);
      }
    }
  }

  @Test
  void scalarColumnsReadOnlyTheMetadataRecords() throws Exception {
    Path file = TestDatasets.writeFile(tmp.resolve("a.beton"), TestDatasets.EVERY_FIELD, TestDatasets.everyFieldSamples(0, 50));
    ChannelSource source = new ChannelSource(file);
    try (BetonReader r = BetonReader.open(source, ReadOptions.defaults())) {
      BetonSchema schema = schemaOf(r, "binary");
      StructType required = new StructType().add(schema.column("label").structField())
          .add(schema.column("weight").structField()).add(schema.column("image_width").structField());
      RowConverter c = new RowConverter(r, schema, required, "binary", null);
      long afterOpen = source.bytesRead();
      GenericInternalRow row = new GenericInternalRow(3);
      for (int i = 0; i < 50; i++) {
        assertThat(c.fill(i, row).getLong(0)).isEqualTo(i % 10);
      }
      long metadataBytes = r.metadataEnd() - r.metadataStart();
      assertThat(source.bytesRead() - afterOpen).isEqualTo(metadataBytes);
    }
  }

  @Test
  void aSampleRangeFetchesOnlyItsOwnRecords() throws Exception {
    Path file = TestDatasets.writeFile(tmp.resolve("a.beton"), TestDatasets.EVERY_FIELD, TestDatasets.everyFieldSamples(0, 50));
    ChannelSource source = new ChannelSource(file);
    try (BetonReader r = BetonReader.open(source, ReadOptions.defaults())) {
      BetonSchema schema = schemaOf(r, "binary");
      StructType required = new StructType().add(schema.column("label").structField());
      RowConverter c = new RowConverter(r, schema, required, "binary", null, 30);
      long afterOpen = source.bytesRead();
      GenericInternalRow row = new GenericInternalRow(1);
      for (int i = 20; i < 30; i++) {
        assertThat(c.fill(i, row).getLong(0)).isEqualTo(i % 10);
      }
      assertThat(source.bytesRead() - afterOpen).isEqualTo(10L * r.layout().recordSize());
      assertThatThrownBy(() -> c.fill(30, row)).isInstanceOf(IndexOutOfBoundsException.class)
          .hasMessageContaining("Sample 30 is outside 0..29");
    }
  }

  @Test
  void malformedMetadataFailsWithFileRegionAndOffset() throws Exception {
    List<BetonField> fields = List.of(new BetonField("img", RgbImageField.INSTANCE), new BetonField("y", IntField.INSTANCE));
    Path file = TestDatasets.writeFile(tmp.resolve("m.beton"), fields,
        List.<Object[]>of(new Object[] {RgbImage.raw(1, 1, new byte[3]), 1L}, new Object[] {RgbImage.raw(1, 1, new byte[3]), 2L}));
    long modeAt;
    try (BetonReader r = BetonReader.open(file)) {
      modeAt = r.metadataStart() + r.layout().recordSize() + r.layout().offset(0);
    }
    try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE)) {
      ch.write(java.nio.ByteBuffer.wrap(new byte[] {7}), modeAt);
    }
    try (BetonReader r = BetonReader.open(new ChannelSource(file), ReadOptions.defaults())) {
      BetonSchema schema = schemaOf(r, "binary");
      RowConverter c = new RowConverter(r, schema, schema.sparkSchema(), "binary", null);
      c.fill(0, new GenericInternalRow(c.numColumns()));
      assertThatThrownBy(() -> c.fill(1, new GenericInternalRow(c.numColumns())))
          .isInstanceOf(org.sparkbeton.format.BetonFormatException.class)
          .hasMessageContaining("m.beton: metadata of sample 1 field 'img' at offset " + modeAt)
          .hasMessageContaining("image mode byte is 7");
    }
  }

  @Test
  void rawAndImageModesDecodeRawImagesWithoutADecoder() throws Exception {
    Path file = TestDatasets.writeFile(tmp.resolve("a.beton"), TestDatasets.EVERY_FIELD, TestDatasets.everyFieldSamples(0, 3));
    try (BetonReader r = BetonReader.open(new ChannelSource(file), ReadOptions.defaults())) {
      BetonSchema raw = schemaOf(r, "raw");
      RowConverter c = new RowConverter(r, raw, raw.sparkSchema(), "raw", null);
      RgbImage img = (RgbImage) TestDatasets.everyFieldSample(2)[0];
      assertThat(c.fill(2, new GenericInternalRow(c.numColumns())).getBinary(0)).isEqualTo(img.payloadBytes());

      BetonSchema image = schemaOf(r, "image");
      RowConverter ci = new RowConverter(r, image, image.sparkSchema(), "image", null);
      InternalRow struct = ci.fill(2, new GenericInternalRow(ci.numColumns())).getStruct(0, 6);
      assertThat(struct.getUTF8String(0).toString()).isEqualTo(file.toString());
      assertThat(struct.getInt(1)).isEqualTo(img.height());
      assertThat(struct.getInt(2)).isEqualTo(img.width());
      assertThat(struct.getInt(3)).isEqualTo(3);
      assertThat(struct.getInt(4)).isEqualTo(16);
      byte[] rgb = img.payloadBytes();
      byte[] bgr = struct.getBinary(5);
      for (int p = 0; p < rgb.length; p += 3) {
        assertThat(new byte[] {bgr[p], bgr[p + 1], bgr[p + 2]}).containsExactly(rgb[p + 2], rgb[p + 1], rgb[p]);
      }
    }
  }

  @Test
  void jpegNeedsADecoderAndSaysWhichModule() throws Exception {
    List<BetonField> fields = List.of(new BetonField("img", RgbImageField.INSTANCE), new BetonField("y", IntField.INSTANCE));
    byte[] fakeJpeg = {(byte) 0xff, (byte) 0xd8, 1, 2, 3};
    Path file = TestDatasets.writeFile(tmp.resolve("j.beton"), fields,
        List.<Object[]>of(new Object[] {RgbImage.jpeg(2, 1, fakeJpeg), 1L}));
    try (BetonReader r = BetonReader.open(new ChannelSource(file), ReadOptions.defaults())) {
      BetonSchema raw = schemaOf(r, "raw");
      RowConverter none = new RowConverter(r, raw, raw.sparkSchema(), "raw", null);
      assertThatThrownBy(() -> none.fill(0, new GenericInternalRow(none.numColumns())))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("Column 'img' holds a JPEG")
          .hasMessageContaining("imageMode=raw")
          .hasMessageContaining("beton-codec");

      AtomicInteger calls = new AtomicInteger();
      PixelDecoder fake = image -> {
        calls.incrementAndGet();
        return new byte[] {9, 8, 7, 6, 5, 4};
      };
      RowConverter withDecoder = new RowConverter(r, raw, raw.sparkSchema(), "raw", fake);
      assertThat(withDecoder.fill(0, new GenericInternalRow(withDecoder.numColumns())).getBinary(0))
          .containsExactly(9, 8, 7, 6, 5, 4);
      assertThat(calls).hasValue(1);

      BetonSchema binary = schemaOf(r, "binary");
      RowConverter asStored = new RowConverter(r, binary, binary.sparkSchema(), "binary", null);
      InternalRow row = asStored.fill(0, new GenericInternalRow(asStored.numColumns()));
      assertThat(row.getBinary(0)).isEqualTo(fakeJpeg);
      assertThat(row.getUTF8String(3).toString()).isEqualTo("jpg");

      PixelDecoder wrongSize = image -> new byte[5];
      RowConverter bad = new RowConverter(r, raw, raw.sparkSchema(), "raw", wrongSize);
      assertThatThrownBy(() -> bad.fill(0, new GenericInternalRow(bad.numColumns())))
          .hasMessageContaining("returned 5 bytes for a 2x1 image, expected 6");
    }
  }
}
