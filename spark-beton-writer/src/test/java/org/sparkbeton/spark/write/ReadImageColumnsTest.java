package org.sparkbeton.spark.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.dataset.ColumnAnnotations;

/**
 * Columns annotated as a beton read annotates them (the reader's {@code BetonSchema}; its own tests check it writes
 * these keys) planned for a write: image columns without {@code imageColumns}, their parts left out and found by
 * dataset and field, their recipe where the options give none.
 */
class ReadImageColumnsTest {
  private static MetadataBuilder image(String dataset, String field) {
    return new MetadataBuilder().putString(ColumnAnnotations.FIELD, field)
        .putString(ColumnAnnotations.TYPE, FieldTypes.name(FieldTypes.RGB_IMAGE))
        .putString(ColumnAnnotations.DATASET, dataset);
  }

  private static StructField value(String name, String dataset, String field, Map<String, String> recipe) {
    MetadataBuilder b = image(dataset, field).putString(ColumnAnnotations.IMAGE_PAYLOAD, ColumnAnnotations.PAYLOAD_STORED);
    recipe.forEach((k, v) -> b.putString(ColumnAnnotations.RECIPE_PREFIX + k, v));
    return new StructField(name, DataTypes.BinaryType, false, b.build());
  }

  private static StructField part(String name, String dataset, String field, String part) {
    DataType t = part.equals(ColumnAnnotations.PART_MODE) ? DataTypes.StringType : DataTypes.IntegerType;
    Metadata m = image(dataset, field).putString(ColumnAnnotations.IMAGE_PART, part).build();
    return new StructField(name, t, false, m);
  }

  private static List<StructField> parts(String prefix, String dataset, String field) {
    return List.of(part(prefix + "_width", dataset, field, ColumnAnnotations.PART_WIDTH),
        part(prefix + "_height", dataset, field, ColumnAnnotations.PART_HEIGHT),
        part(prefix + "_mode", dataset, field, ColumnAnnotations.PART_MODE));
  }

  private static StructType schema(List<StructField> fields) {
    return new StructType(fields.toArray(new StructField[0]));
  }

  private static final Map<String, String> JPG_256 = Map.of("write_mode", "jpg", "max_resolution", "256",
      "min_resolution", "none", "jpeg_quality", "90", "jpeg_subsampling", "420");
  private static final Map<String, String> RAW = Map.of("write_mode", "raw", "max_resolution", "none",
      "min_resolution", "none", "jpeg_quality", "90", "jpeg_subsampling", "420");

  @Test
  void aReadImageIsAnImageColumnWithItsDatasetsRecipeAndItsPartsLeftOut() {
    List<StructField> fields = new java.util.ArrayList<>(List.of(value("image", "/d", "image", JPG_256)));
    fields.addAll(parts("image", "/d", "image"));
    fields.add(new StructField("label", DataTypes.LongType, false, Metadata.empty()));
    StructType schema = schema(fields);

    Map<String, String> options = ReadImageColumns.options(schema, Map.of("pageSize", "4M"));
    assertThat(options).containsEntry("imageColumns", "image").containsEntry("writeMode", "jpg")
        .containsEntry("maxResolution", "256").containsEntry("jpegQuality", "90").containsEntry("pageSize", "4M")
        .doesNotContainKey("minResolution");
    List<ColumnPlan> plans = BetonSchemaMapping.plan(schema, BetonWriteConf.parse(options));
    assertThat(plans).extracting(ColumnPlan::column).containsExactly("image", "label");
    assertThat(plans.get(0).kind()).isEqualTo(ColumnKind.READ_IMAGE);
    assertThat(plans.get(0).parts()).isEqualTo(new ColumnPlan.ImageParts(1, 2, 3, false));

    // options given win, one by one; a resolution in either form replaces the recipe's
    assertThat(ReadImageColumns.options(schema, Map.of("WRITEMODE", "raw", "minResolution", "64")))
        .containsEntry("WRITEMODE", "raw").containsEntry("minResolution", "64").containsEntry("jpegQuality", "90")
        .doesNotContainKeys("writeMode", "maxResolution");
    // a column listed already is listed once; other listed columns stay
    assertThat(ReadImageColumns.options(schema, Map.of("imagecolumns", "IMAGE,other")))
        .containsEntry("imageColumns", "IMAGE,other").doesNotContainKey("imagecolumns");
  }

  @Test
  void partsAreFoundByDatasetAndFieldWhateverTheirNames() {
    // a renamed image joined with another dataset's image of the same field name
    List<StructField> fields = new java.util.ArrayList<>(List.of(value("photo", "/a", "image", RAW)));
    fields.addAll(parts("image", "/b", "image")); // the other dataset's, named as this one's would be
    fields.add(value("thumb", "/b", "image", RAW));
    fields.addAll(parts("image", "/a", "image").stream()
        .map(f -> new StructField("a_" + f.name(), f.dataType(), false, f.metadata())).toList());
    StructType schema = schema(fields);
    List<ColumnPlan> plans = BetonSchemaMapping.plan(schema,
        BetonWriteConf.parse(ReadImageColumns.options(schema, Map.of())));
    assertThat(plans).extracting(ColumnPlan::column).containsExactly("photo", "thumb");
    assertThat(plans.get(0).parts()).isEqualTo(new ColumnPlan.ImageParts(5, 6, 7, false));
    assertThat(plans.get(1).parts()).isEqualTo(new ColumnPlan.ImageParts(1, 2, 3, false));

    // a self-join doubles them: the ones named after the column decide
    List<StructField> self = new java.util.ArrayList<>(List.of(value("image", "/a", "image", RAW)));
    self.addAll(parts("image", "/a", "image"));
    self.add(value("other", "/a", "image", RAW));
    self.addAll(parts("other", "/a", "image"));
    List<ColumnPlan> selfPlans = BetonSchemaMapping.plan(schema(self),
        BetonWriteConf.parse(ReadImageColumns.options(schema(self), Map.of())));
    assertThat(selfPlans).extracting(ColumnPlan::parts).containsExactly(new ColumnPlan.ImageParts(1, 2, 3, false),
        new ColumnPlan.ImageParts(5, 6, 7, false));
  }

  @Test
  void rawPixelsWithoutTheirShapeAndDatasetsThatDifferAreRefusedBeforeAnyTask() {
    StructType rawAlone = schema(List.of(value("image", "/raw", "image", RAW)));
    assertThatThrownBy(() -> BetonSchemaMapping.plan(rawAlone,
        BetonWriteConf.parse(ReadImageColumns.options(rawAlone, Map.of()))))
        .hasMessage("Image column 'image' was read from /raw (field 'image'), whose images may be stored as raw"
            + " pixels, but the columns the read gave beside it, image_width, image_height and image_mode, which say"
            + " their shape, are not all in the DataFrame (or not only once): select them with it");
    // JPEGs alone need no sizes
    StructType jpegAlone = schema(List.of(value("image", "/jpg", "image", JPG_256)));
    assertThat(BetonSchemaMapping.plan(jpegAlone, BetonWriteConf.parse(ReadImageColumns.options(jpegAlone, Map.of()))))
        .extracting(ColumnPlan::kind).containsExactly(ColumnKind.ENCODED_IMAGE);

    StructType two = schema(List.of(value("a", "/jpg", "image", JPG_256), value("b", "/raw", "image", RAW)));
    assertThatThrownBy(() -> ReadImageColumns.options(two, Map.of()))
        .hasMessageContaining("Image columns 'a' and 'b' were read from datasets that stored their images differently");
    assertThat(ReadImageColumns.options(two, Map.of("writeMode", "jpg")))
        .isEqualTo(Map.of("writeMode", "jpg", "imageColumns", "a,b"));
  }

  @Test
  void theReadsPartsBesideAnImageAUdfReplacedAreLeftOut() {
    // image = a UDF's output (no annotations), listed; the read's parts still named after it
    List<StructField> fields = new java.util.ArrayList<>(List.of(new StructField("image", DataTypes.BinaryType, false,
        Metadata.empty())));
    fields.addAll(parts("image", "/d", "image"));
    StructType schema = schema(fields);
    List<ColumnPlan> plans = BetonSchemaMapping.plan(schema,
        BetonWriteConf.parse(ReadImageColumns.options(schema, Map.of("imageColumns", "image"))));
    assertThat(plans).extracting(ColumnPlan::column).containsExactly("image");
    assertThat(plans.get(0).kind()).isEqualTo(ColumnKind.ENCODED_IMAGE);
  }

  @Test
  void aReadsImageDescriptionBesideAComputedValueInItsPlaceIsNamed() {
    List<StructField> copied = new java.util.ArrayList<>(List.of(value("image", "/d", "image", JPG_256)));
    copied.addAll(parts("image", "/d", "image"));
    StructType copy = schema(copied);
    assertThat(BetonSchemaMapping.describedImagesNotWrittenAsImages(copy,
        BetonWriteConf.parse(ReadImageColumns.options(copy, Map.of())))).as("a copy of what was read").isEmpty();

    // withColumn("image", <bytes computed from it>): the new column has no annotation, its description stays
    List<StructField> replaced = new java.util.ArrayList<>(List.of(new StructField("image", DataTypes.BinaryType, false,
        Metadata.empty())));
    replaced.addAll(parts("image", "/d", "image"));
    StructType computed = schema(replaced);
    BetonWriteConf conf = BetonWriteConf.parse(ReadImageColumns.options(computed, Map.of()));
    assertThat(BetonSchemaMapping.describedImagesNotWrittenAsImages(computed, conf))
        .containsExactly(Map.entry("image", List.of("image_width", "image_height", "image_mode")));
    assertThat(BetonSchemaMapping.describedImagesNotWrittenAsImages(computed,
        BetonWriteConf.parse(Map.of("imageColumns", "image")))).as("named an image column again").isEmpty();
  }

  @Test
  void columnsWithoutAnnotationsAreLeftAsTheyAre() {
    StructType plain = new StructType().add("image", DataTypes.BinaryType).add("image_width", DataTypes.IntegerType);
    assertThat(ReadImageColumns.options(plain, Map.of("pageSize", "4M"))).isEqualTo(Map.of("pageSize", "4M"));
    assertThat(BetonSchemaMapping.plan(plain, BetonWriteConf.parse(Map.of()))).extracting(ColumnPlan::kind)
        .containsExactly(ColumnKind.BINARY, ColumnKind.INT);
  }
}
