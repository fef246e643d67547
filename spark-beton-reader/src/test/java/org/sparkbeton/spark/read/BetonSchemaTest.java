package org.sparkbeton.spark.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.junit.jupiter.api.Test;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.dataset.ManifestField;
import org.sparkbeton.format.fields.NumpyDtype;

class BetonSchemaTest {
  private static final List<ManifestField> FIELDS = List.of(
      ManifestField.of("image", FieldTypes.RGB_IMAGE),
      ManifestField.of("label", FieldTypes.INT),
      ManifestField.of("weight", FieldTypes.FLOAT),
      ManifestField.of("bytes", FieldTypes.BYTES),
      ManifestField.of("json", FieldTypes.JSON),
      new ManifestField("arr", FieldTypes.NDARRAY, "<f4", new long[] {3, 4}),
      new ManifestField("t", FieldTypes.TORCH_TENSOR, "<i2", new long[] {5}),
      ManifestField.of("custom", FieldTypes.CUSTOM));

  @Test
  void givesTheTypesTheWriterRecordedAndIgnoresOnesAFieldCannotHold() {
    java.util.Map<String, String> recipe = java.util.Map.of("spark_type.label", "SMALLINT", "spark_type.weight",
        "FLOAT", "spark_type.bytes", "STRING", "spark_type.json", "STRUCT<a: INT, b: ARRAY<STRING>>",
        "spark_type.arr", "INT", "spark_type.custom", "STRING", "spark_type.image", "BOOLEAN");
    BetonSchema s = BetonSchema.of(FIELDS, "binary", "/d", recipe);
    assertThat(s.column("label").structField().dataType()).isEqualTo(DataTypes.ShortType);
    assertThat(s.column("weight").structField().dataType()).isEqualTo(DataTypes.FloatType);
    assertThat(s.column("bytes").structField().dataType()).isEqualTo(DataTypes.StringType);
    assertThat(s.column("json").structField().dataType()).isEqualTo(new org.apache.spark.sql.types.StructType()
        .add("a", DataTypes.IntegerType, true).add("b", new ArrayType(DataTypes.StringType, true), true));
    // records a field's .beton type cannot hold are left aside: the stored types
    assertThat(s.column("arr").structField().dataType()).isEqualTo(new ArrayType(DataTypes.FloatType, false));
    assertThat(s.column("custom").structField().dataType()).isEqualTo(DataTypes.BinaryType);
    assertThat(s.column("image").structField().dataType()).isEqualTo(DataTypes.BinaryType);
    assertThat(BetonSchema.of(FIELDS, "binary", "/d", java.util.Map.of("spark_type.json", "STRUCT<a: NOSUCHTYPE>"))
        .column("json").structField().dataType()).isEqualTo(DataTypes.StringType);
  }

  @Test
  void mapsEveryTypeInBinaryMode() {
    BetonSchema s = BetonSchema.of(FIELDS, "binary");
    assertThat(s.sparkSchema().fieldNames()).containsExactly("image", "image_width", "image_height", "image_mode",
        "label", "weight", "bytes", "json", "arr", "t", "custom");
    StructField[] f = s.sparkSchema().fields();
    assertThat(f[0].dataType()).isEqualTo(DataTypes.BinaryType);
    assertThat(f[1].dataType()).isEqualTo(DataTypes.IntegerType);
    assertThat(f[3].dataType()).isEqualTo(DataTypes.StringType);
    assertThat(f[4].dataType()).isEqualTo(DataTypes.LongType);
    assertThat(f[5].dataType()).isEqualTo(DataTypes.DoubleType);
    assertThat(f[6].dataType()).isEqualTo(DataTypes.BinaryType);
    assertThat(f[7].dataType()).isEqualTo(DataTypes.StringType);
    assertThat(f[8].dataType()).isEqualTo(new ArrayType(DataTypes.FloatType, false));
    assertThat(f[8].metadata().getString("beton.dtype")).isEqualTo("<f4");
    assertThat(f[8].metadata().getLongArray("beton.shape")).containsExactly(3, 4);
    assertThat(f[9].dataType()).isEqualTo(new ArrayType(DataTypes.ShortType, false));
    assertThat(f[9].metadata().getString("beton.type")).isEqualTo("TorchTensor");
    assertThat(f[10].dataType()).isEqualTo(DataTypes.BinaryType);
    assertThat(s.column("image_width").metadataOnly()).isTrue();
    assertThat(s.column("image").metadataOnly()).isFalse();
    assertThat(s.column("label").metadataOnly()).isTrue();
    assertThat(s.column("arr").metadataOnly()).isFalse();
  }

  @Test
  void imageModeIsOneStructColumn() {
    BetonSchema s = BetonSchema.of(FIELDS.subList(0, 2), "image");
    assertThat(s.sparkSchema().fieldNames()).containsExactly("image", "label");
    assertThat(s.sparkSchema().fields()[0].dataType()).isEqualTo(BetonSchema.IMAGE_STRUCT);
  }

  @Test
  void numpyDtypesMapToWideEnoughSparkTypes() {
    assertThat(BetonSchema.elementType(NumpyDtype.of("|b1"))).isEqualTo(DataTypes.BooleanType);
    assertThat(BetonSchema.elementType(NumpyDtype.of("|u1"))).isEqualTo(DataTypes.ShortType);
    assertThat(BetonSchema.elementType(NumpyDtype.of("<u2"))).isEqualTo(DataTypes.IntegerType);
    assertThat(BetonSchema.elementType(NumpyDtype.of("<u4"))).isEqualTo(DataTypes.LongType);
    assertThat(BetonSchema.elementType(NumpyDtype.of("<f2"))).isEqualTo(DataTypes.FloatType);
    assertThat(BetonSchema.elementType(NumpyDtype.of(">f8"))).isEqualTo(DataTypes.DoubleType);
    assertThat(BetonSchema.arrayType(NumpyDtype.of("<c8"))).isEqualTo(DataTypes.BinaryType);
  }

  @Test
  void extraImageColumnsMustNotCollide() {
    assertThatThrownBy(() -> BetonSchema.of(List.of(ManifestField.of("image", FieldTypes.RGB_IMAGE),
        ManifestField.of("image_width", FieldTypes.INT)), "binary"))
        .hasMessageContaining("Column name 'image_width' is produced twice");
  }
}
