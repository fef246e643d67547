package org.sparkbeton.spark.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.sparkbeton.format.fields.ImageMode;
import org.sparkbeton.format.fields.RgbImage;

class RowBinaryViewTest {
  private static final StructType SCHEMA = new StructType().add("label", DataTypes.IntegerType)
      .add("image", DataTypes.BinaryType);

  private static UnsafeRow unsafeRow(byte[] image) {
    return UnsafeProjection.create(SCHEMA).apply(new GenericInternalRow(new Object[] {7, image})).copy();
  }

  @Test
  void unsafeRowBinaryIsAViewOfTheRowsMemoryNotACopy() {
    byte[] image = ImageEncoderTest.jpeg(64, 48);
    UnsafeRow row = unsafeRow(image);
    ByteBuffer view = RowEncoder.binaryView(row, 1);
    assertThat(view.hasArray()).isTrue();
    assertThat(view.array()).isSameAs(row.getBaseObject());
    assertThat(view.position()).isZero();
    byte[] seen = new byte[view.remaining()];
    view.get(0, seen);
    assertThat(seen).isEqualTo(image);
    // a write through the row's memory shows in the view: nothing was copied
    ((byte[]) row.getBaseObject())[view.arrayOffset() + 5] ^= 0x55;
    assertThat(view.get(5)).isEqualTo((byte) (image[5] ^ 0x55));
  }

  @Test
  void otherRowsFallBackToACopy() {
    byte[] image = {1, 2, 3, 4};
    InternalRow row = new GenericInternalRow(new Object[] {7, image});
    ByteBuffer view = RowEncoder.binaryView(row, 1);
    byte[] seen = new byte[view.remaining()];
    view.get(0, seen);
    assertThat(seen).isEqualTo(image);
  }

  @Test
  void passedThroughJpegFromARowViewKeepsExactlyItsBytes() {
    byte[] image = ImageEncoderTest.jpeg(120, 90);
    // the view starts after the row's null bits and fixed-width slots: the payload must start at the JPEG's SOI
    UnsafeRow row = unsafeRow(image);
    try (ImageEncoder enc = new ImageEncoder(BetonWriteConf.parse(Map.of("writeMode", "jpg",
        "maxResolution", "500")), 0);
         ImageEncoder shrinking = new ImageEncoder(BetonWriteConf.parse(Map.of("writeMode", "jpg",
             "maxResolution", "60")), 0)) {
      RgbImage img = enc.fromEncoded(RowEncoder.binaryView(row, 1), 0);
      assertThat(img.mode()).isEqualTo(ImageMode.JPG);
      assertThat(img.payloadBytes()).isEqualTo(image);
      assertThat(enc.counters().imageBytesIn()).isEqualTo(image.length);
      RgbImage shrunk = shrinking.fromEncoded(RowEncoder.binaryView(row, 1), 1);
      assertThat(shrunk.width()).isEqualTo(60);
      assertThat(shrunk.height()).isEqualTo(45);
      assertThat(shrinking.counters().reencoded()).isEqualTo(1);
    }
  }
}
