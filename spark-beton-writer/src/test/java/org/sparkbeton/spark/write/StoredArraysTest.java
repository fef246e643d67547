package org.sparkbeton.spark.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import org.apache.spark.sql.catalyst.expressions.UnsafeArrayData;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.junit.jupiter.api.Test;
import org.sparkbeton.format.dataset.ColumnAnnotations;
import org.sparkbeton.format.fields.Float16;
import org.sparkbeton.format.fields.NumpyDtype;

class StoredArraysTest {
  private static StructField column(DataType element, String type, String dtype, long... shape) {
    Metadata m = new MetadataBuilder().putString(ColumnAnnotations.TYPE, type).putString("beton.dtype", dtype)
        .putLongArray("beton.shape", shape).build();
    return new StructField("a", DataTypes.createArrayType(element, false), false, m);
  }

  @Test
  void aReadColumnKeepsItsFieldsDtypeWhileItHasTheElementTypeTheReadGave() {
    StoredArrays u1 = StoredArrays.of(column(DataTypes.ShortType, "NDArray", "|u1", 2, 3));
    assertThat(u1.dtype().typestr()).isEqualTo("|u1");
    assertThat(u1.shape()).containsExactly(2, 3);
    assertThat(u1.torch()).isFalse();
    assertThat(StoredArrays.of(column(DataTypes.FloatType, "TorchTensor", "<f2", 4)))
        .satisfies(s -> assertThat(s.dtype().typestr()).isEqualTo("<f2")).satisfies(s -> assertThat(s.torch()).isTrue());
    assertThat(StoredArrays.of(column(DataTypes.IntegerType, "NDArray", ">i4", 2)).dtype().typestr()).isEqualTo(">i4");
    // cast since the read (an int column from u1): the column's own dtype, the read's shape
    StoredArrays cast = StoredArrays.of(column(DataTypes.IntegerType, "NDArray", "|u1", 6));
    assertThat(cast.dtype().typestr()).isEqualTo("<i4");
    assertThat(cast.shape()).containsExactly(6);
    // no annotation: the element type's dtype and no shape
    StoredArrays plain = StoredArrays.of(new StructField("a", DataTypes.createArrayType(DataTypes.DoubleType), false,
        Metadata.empty()));
    assertThat(plain.dtype().typestr()).isEqualTo("<f8");
    assertThat(plain.shape()).isNull();
  }

  @Test
  void valuesAreNarrowedToTheDtypeAndCheckedAgainstItsRange() {
    ByteBuffer u1 = (ByteBuffer) StoredArrays.values(UnsafeArrayData.fromPrimitiveArray(new short[] {0, 128, 255}),
        NumpyDtype.of("|u1"));
    assertThat(new byte[] {u1.get(0), u1.get(1), u1.get(2)}).containsExactly(0, (byte) 128, (byte) 255);
    assertThat((short[]) StoredArrays.values(UnsafeArrayData.fromPrimitiveArray(new int[] {65535, 1}),
        NumpyDtype.of("<u2"))).containsExactly((short) -1, (short) 1);
    assertThat((int[]) StoredArrays.values(UnsafeArrayData.fromPrimitiveArray(new long[] {4294967295L}),
        NumpyDtype.of("<u4"))).containsExactly(-1);
    assertThat((short[]) StoredArrays.values(UnsafeArrayData.fromPrimitiveArray(new float[] {1.5f, 65504f}),
        NumpyDtype.of("<f2"))).containsExactly(Float16.fromFloat(1.5f), (short) 0x7bff);
    assertThatThrownBy(() -> StoredArrays.values(UnsafeArrayData.fromPrimitiveArray(new short[] {3, -1}),
        NumpyDtype.of("|u1"))).hasMessage("element 1 is -1, outside the range of its field's dtype |u1 (0..255)");
    assertThatThrownBy(() -> StoredArrays.values(UnsafeArrayData.fromPrimitiveArray(new long[] {1L << 32}),
        NumpyDtype.of("<u4"))).hasMessage("element 0 is 4294967296, outside the range of its field's dtype <u4"
        + " (0..4294967295)");
  }
}
