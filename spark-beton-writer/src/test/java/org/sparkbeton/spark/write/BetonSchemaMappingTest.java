package org.sparkbeton.spark.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.fields.NdArrayField;

class BetonSchemaMappingTest {

  private static StructType imageStruct() {
    return new StructType().add("origin", DataTypes.StringType).add("height", DataTypes.IntegerType)
        .add("width", DataTypes.IntegerType).add("nChannels", DataTypes.IntegerType)
        .add("mode", DataTypes.IntegerType).add("data", DataTypes.BinaryType);
  }

  @Test
  void everyMappingOfTheIssue() {
    StructType schema = new StructType()
        .add("label", DataTypes.IntegerType).add("flag", DataTypes.BooleanType).add("big", DataTypes.LongType)
        .add("w", DataTypes.FloatType).add("x", DataTypes.DoubleType)
        .add("blob", DataTypes.BinaryType).add("jpeg", DataTypes.BinaryType)
        .add("img", imageStruct())
        .add("emb", DataTypes.createArrayType(DataTypes.FloatType))
        .add("caption", DataTypes.StringType)
        .add("meta", new StructType().add("a", DataTypes.IntegerType))
        .add("tags", DataTypes.createMapType(DataTypes.StringType, DataTypes.StringType));
    BetonWriteConf conf = BetonWriteConf.parse(Map.of("imageColumns", "jpeg", "arrayShapes", "emb:2x3"));
    List<BetonField> fields = BetonSchemaMapping.fields(schema, conf);
    assertThat(fields).extracting(BetonField::typeId).containsExactly(FieldTypes.INT, FieldTypes.INT, FieldTypes.INT,
        FieldTypes.FLOAT, FieldTypes.FLOAT, FieldTypes.BYTES, FieldTypes.RGB_IMAGE, FieldTypes.RGB_IMAGE,
        FieldTypes.NDARRAY, FieldTypes.JSON, FieldTypes.JSON, FieldTypes.JSON);
    NdArrayField emb = (NdArrayField) fields.get(8).codec();
    assertThat(emb.dtype().typestr()).isEqualTo("<f4");
    assertThat(emb.shape()).containsExactly(2, 3);
  }

  @Test
  void stringsNamedAsImageColumnsArePathsOfImages() {
    StructType schema = new StructType().add("image", DataTypes.StringType).add("caption", DataTypes.StringType);
    List<ColumnPlan> plans = BetonSchemaMapping.plan(schema, BetonWriteConf.parse(Map.of("imageColumns", "image")));
    assertThat(plans.get(0).kind()).isEqualTo(ColumnKind.IMAGE_PATH);
    assertThat(plans.get(0).field().codec().typeId()).isEqualTo(org.sparkbeton.format.FieldTypes.RGB_IMAGE);
    assertThat(plans.get(1).kind()).as("other strings stay strings").isEqualTo(ColumnKind.STRING_JSON);
  }

  /** Names a Spark read could not tell apart are refused before any task: case only, or an image's extra column. */
  @Test
  void namesReadsWouldConfuseAreRefused() {
    BetonWriteConf images = BetonWriteConf.parse(Map.of("imageColumns", "photo"));
    assertThatThrownBy(() -> BetonSchemaMapping.fields(new StructType().add("photo", DataTypes.BinaryType)
        .add("Photo_Height", DataTypes.IntegerType), images))
        .hasMessage("Column 'Photo_Height' has the name of the column that reads of image column 'photo' add for its"
            + " height (photo_width, _height and _mode): drop or rename it (a beton read adds these columns, and"
            + " writes of what it read leave them out by themselves: they are known by their metadata, which this"
            + " column does not carry)");
    assertThatThrownBy(() -> BetonSchemaMapping.fields(new StructType().add("label", DataTypes.IntegerType)
        .add("LABEL", DataTypes.IntegerType), BetonWriteConf.parse(Map.of())))
        .hasMessage("Columns 'label' and 'LABEL' differ only in case; Spark reads could not tell them apart"
            + " (spark.sql.caseSensitive is false by default): rename one");
    // the same names beside a column that is not an image are fine
    assertThat(BetonSchemaMapping.fields(new StructType().add("photo", DataTypes.BinaryType)
        .add("photo_height", DataTypes.IntegerType), BetonWriteConf.parse(Map.of()))).hasSize(2);
  }

  @Test
  void problemsNameTheColumn() {
    BetonWriteConf none = BetonWriteConf.parse(Map.of());
    assertThatThrownBy(() -> BetonSchemaMapping.fields(
        new StructType().add("a_column_name_too_long", DataTypes.IntegerType), none))
        .hasMessageContaining("'a_column_name_too_long' is 22 bytes; .beton stores at most 16");
    assertThatThrownBy(() -> BetonSchemaMapping.fields(new StructType().add("span", DataTypes.CalendarIntervalType),
        none)).hasMessage("Cannot write column 'span' of type interval as .beton: cast it to long, double, string"
            + " or binary first");
    // decimals are Float fields; dates and timestamps are Int fields of days and microseconds
    assertThat(BetonSchemaMapping.fields(new StructType().add("price", DataTypes.createDecimalType(10, 2)), none))
        .extracting(f -> f.typeId()).containsExactly(0);
    assertThat(BetonSchemaMapping.fields(new StructType().add("when", DataTypes.DateType)
        .add("at", DataTypes.TimestampType), none)).extracting(f -> f.typeId()).containsExactly(1, 1);
    assertThatThrownBy(() -> BetonSchemaMapping.fields(
        new StructType().add("emb", DataTypes.createArrayType(DataTypes.DoubleType)), none))
        .hasMessage("Column 'emb' is an array of double: give its shape with option arrayShapes, e.g. 'emb:3x4', when"
            + " every row has that many elements; arrays of varying length have no shape: store them as JSON text"
            + " (to_json(emb))");
    BetonWriteConf img = BetonWriteConf.parse(Map.of("imageColumns", "label"));
    assertThatThrownBy(() -> BetonSchemaMapping.fields(new StructType().add("label", DataTypes.IntegerType), img))
        .hasMessage("Cannot write image column 'label': expected binary (encoded images), string (paths of image files)"
            + " or an image struct, got int");
  }

  @Test
  void aColumnNamedByAnOptionMustExist() {
    StructType schema = new StructType().add("path", DataTypes.StringType).add("photo", DataTypes.BinaryType)
        .add("label", DataTypes.IntegerType);
    assertThatThrownBy(() -> BetonSchemaMapping.fields(schema, BetonWriteConf.parse(Map.of("imageColumns", "Foto"))))
        .hasMessage("Option imageColumns names column 'Foto', which the DataFrame does not have; did you mean"
            + " 'photo'? Its columns: path string, photo binary, label int");
    assertThatThrownBy(() -> BetonSchemaMapping.fields(schema,
        BetonWriteConf.parse(Map.of("imageColumns", "photo, thumbnail"))))
        .hasMessage("Option imageColumns names column 'thumbnail', which the DataFrame does not have. Its columns:"
            + " path string, photo binary, label int");
    assertThatThrownBy(() -> BetonSchemaMapping.fields(schema,
        BetonWriteConf.parse(Map.of("imageColumns", "photo", "sourceIdColumn", "uri"))))
        .hasMessage("Option sourceIdColumn names column 'uri', which the DataFrame does not have. Its columns:"
            + " path string, photo binary, label int");
    assertThat(BetonSchemaMapping.plan(schema, BetonWriteConf.parse(Map.of("imageColumns", "PHOTO"))).get(1).kind())
        .isEqualTo(ColumnKind.ENCODED_IMAGE);
  }

  @Test
  void imageOptionsWithoutAnImageColumnAreRefusedNamingThem() {
    StructType binaryFile = new StructType().add("path", DataTypes.StringType).add("content", DataTypes.BinaryType)
        .add("label", DataTypes.IntegerType);
    assertThatThrownBy(() -> BetonSchemaMapping.fields(binaryFile,
        BetonWriteConf.parse(Map.of("writeMode", "jpg", "MAXRESOLUTION", "256", "sourceIdColumn", "path"))))
        .hasMessage("Options writeMode, maxResolution apply to image columns, but no column is one, so they would do"
            + " nothing. Mark the columns of encoded images (binary) or of image file paths (string) with option"
            + " imageColumns, e.g. .option(\"imageColumns\", \"image\"); a Spark image struct"
            + " (spark.read.format(\"image\")) is one without being listed. Columns: path string, content binary,"
            + " label int");
    assertThatThrownBy(() -> BetonSchemaMapping.fields(binaryFile, BetonWriteConf.parse(Map.of("badImagePolicy", "skip"))))
        .hasMessageStartingWith("Option badImagePolicy applies to image columns, but no column is one, so it would do"
            + " nothing.");
    // each of them counts; raw, the default, stores any column as it would without the option
    for (Map<String, String> options : List.of(Map.of("minResolution", "64"), Map.of("jpegQuality", "80"),
        Map.of("jpegSubsampling", "444"), Map.of("jpegResizeSpace", "rgb"), Map.of("compressProbability", "0.1"),
        Map.of("writeMode", "smart", "smartThreshold", "1000"), Map.of("seed", "7"))) {
      assertThatThrownBy(() -> BetonSchemaMapping.fields(binaryFile, BetonWriteConf.parse(options)))
          .as("%s", options).hasMessageContaining("to image columns, but no column is one");
    }
    assertThat(BetonSchemaMapping.fields(binaryFile, BetonWriteConf.parse(Map.of("writeMode", "raw"))))
        .extracting(BetonField::typeId).containsExactly(FieldTypes.JSON, FieldTypes.BYTES, FieldTypes.INT);
    // with an image column, listed or an image struct, the same options are taken
    assertThat(BetonSchemaMapping.fields(binaryFile,
        BetonWriteConf.parse(Map.of("writeMode", "jpg", "maxResolution", "256", "imageColumns", "content"))))
        .extracting(BetonField::typeId).containsExactly(FieldTypes.JSON, FieldTypes.RGB_IMAGE, FieldTypes.INT);
    assertThat(BetonSchemaMapping.fields(new StructType().add("image", imageStruct()),
        BetonWriteConf.parse(Map.of("writeMode", "jpg", "maxResolution", "256"))))
        .extracting(BetonField::typeId).containsExactly(FieldTypes.RGB_IMAGE);
  }

  /** A forgotten writeMode stored every image raw, the smart or proportion options given beside it ignored. */
  @Test
  void optionsOfAnotherWriteModeAreRefused() {
    StructType images = new StructType().add("image", DataTypes.BinaryType).add("label", DataTypes.IntegerType);
    assertThatThrownBy(() -> BetonSchemaMapping.fields(images,
        BetonWriteConf.parse(Map.of("imageColumns", "image", "smartThreshold", "256K"))))
        .hasMessage("Option smartThreshold applies to writeMode smart only, and this write's writeMode is raw, so it"
            + " would do nothing: add .option(\"writeMode\", \"smart\"), or leave smartThreshold out");
    for (Map<String, String> options : List.of(Map.of("compressProbability", "0.1"), Map.of("seed", "7"))) {
      Map<String, String> withMode = new java.util.HashMap<>(options);
      withMode.putAll(Map.of("imageColumns", "image", "writeMode", "jpg"));
      assertThatThrownBy(() -> BetonSchemaMapping.fields(images, BetonWriteConf.parse(withMode))).as("%s", options)
          .hasMessageContaining("applies to writeMode proportion only, and this write's writeMode is jpg");
    }
    assertThat(BetonSchemaMapping.fields(images, BetonWriteConf.parse(Map.of("imageColumns", "image", "writeMode",
        "proportion", "compressProbability", "0.1", "seed", "7"))))
        .extracting(BetonField::typeId).containsExactly(FieldTypes.RGB_IMAGE, FieldTypes.INT);
    assertThat(BetonSchemaMapping.fields(images, BetonWriteConf.parse(Map.of("imageColumns", "image", "writeMode",
        "smart", "smartThreshold", "1K"))))
        .extracting(BetonField::typeId).containsExactly(FieldTypes.RGB_IMAGE, FieldTypes.INT);
  }

  /** An entry that shapes no NDArray column was ignored, the column stored some other way without a word. */
  @Test
  void anArrayShapesEntryThatShapesNoNumericArrayIsRefused() {
    StructType schema = new StructType().add("a", DataTypes.createArrayType(DataTypes.IntegerType))
        .add("b", DataTypes.IntegerType)
        .add("nested", DataTypes.createArrayType(DataTypes.createArrayType(DataTypes.IntegerType)))
        .add("prices", DataTypes.createArrayType(DataTypes.createDecimalType(10, 2)))
        .add("words", DataTypes.createArrayType(DataTypes.StringType));
    assertThatThrownBy(() -> BetonSchemaMapping.fields(schema, shapes("a:2;pricez:3")))
        .hasMessage("Option arrayShapes names column 'pricez', which the DataFrame does not have; did you mean"
            + " 'prices'? Its columns: a"
            + " array<int>, b int, nested array<array<int>>, prices array<decimal(10,2)>, words array<string>");
    // an entry for a misspelt column is named first: it left 'a' without a shape, whose refusal named only 'a'
    assertThatThrownBy(() -> BetonSchemaMapping.fields(schema, shapes("aa:2")))
        .hasMessageStartingWith("Option arrayShapes names column 'aa', which the DataFrame does not have");
    assertThatThrownBy(() -> BetonSchemaMapping.fields(schema, shapes("a:2;b:3")))
        .hasMessage("Option arrayShapes entry 'b:3' shapes column 'b' (int), which is not stored as an NDArray field:"
            + " it is stored as a Int field, and only arrays of numbers or booleans take a shape; drop the entry");
    assertThatThrownBy(() -> BetonSchemaMapping.fields(schema, shapes("a:2;nested:2x2")))
        .hasMessage("Option arrayShapes entry 'nested:2x2' shapes column 'nested' (array<array<int>>), which is not"
            + " stored as an NDArray field: an array of arrays is stored as JSON text. Flatten it (flatten(nested)) and"
            + " give the shape of the whole, e.g. 'nested:2x2' for two lists of 2, to store it as one");
    assertThatThrownBy(() -> BetonSchemaMapping.fields(schema, shapes("a:2;prices:3")))
        .hasMessage("Option arrayShapes entry 'prices:3' shapes column 'prices' (array<decimal(10,2)>), which is not"
            + " stored as an NDArray field: an array of decimals is stored as JSON text. Cast it to array<double> to"
            + " store it as one");
    assertThatThrownBy(() -> BetonSchemaMapping.fields(schema, shapes("a:2;words:3")))
        .hasMessageEndingWith("only arrays of numbers or booleans are; this one is stored as JSON text");
    assertThatThrownBy(() -> BetonSchemaMapping.fields(schema, BetonWriteConf.parse(Map.of("arrayShapes", "a:2;b:1",
        "sourceIdColumn", "b"))))
        .hasMessageEndingWith("it is not stored (the sourceIdColumn, or a part of an image column a beton read gave);"
            + " drop the entry");
    // the one entry that shapes a numeric array, in any case, is taken
    assertThat(((NdArrayField) BetonSchemaMapping.fields(schema, shapes("A:2x1")).get(0).codec()).shape())
        .containsExactly(2, 1);
  }

  private static BetonWriteConf shapes(String arrayShapes) {
    return BetonWriteConf.parse(Map.of("arrayShapes", arrayShapes));
  }
}
