package org.sparkbeton.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.codec.testing.TestPhotos;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.fields.Float16;
import org.sparkbeton.format.fields.NdArrayField;
import org.sparkbeton.format.fields.NumpyDtype;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.spark.read.testing.TestDatasets;

/**
 * A DataFrame read with {@code format("beton")} written back with {@code format("beton")} and no options, as a
 * subset or a join: its images stay images, stored as the source dataset stored them (the same JPEG bytes, the
 * same raw pixels), with the source's recipe, and the columns a read adds beside an image are not stored.
 */
class BetonCopyTest {
  @TempDir static Path tmp;
  static SparkSession spark;
  static String jpg;
  static String raw;

  @BeforeAll
  static void setUp() {
    spark = SparkTests.session("BetonCopyTest");
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      rows.add(RowFactory.create(TestPhotos.photo(41, i), (long) (i % 4)));
    }
    Dataset<Row> photos = spark.createDataFrame(rows,
        new StructType().add("image", DataTypes.BinaryType).add("label", DataTypes.LongType)).repartition(2);
    jpg = tmp.resolve("jpg").toString();
    raw = tmp.resolve("raw").toString();
    photos.write().format("beton").option("imageColumns", "image").option("writeMode", "jpg")
        .option("maxResolution", "96").option("jpegQuality", "85").save(jpg);
    photos.write().format("beton").option("imageColumns", "image").option("maxResolution", "40").save(raw);
  }

  @AfterAll
  static void tearDown() {
    spark.stop();
  }

  private static DatasetManifest manifest(String dir) throws Exception {
    return DatasetManifest.parse(Files.readString(Path.of(dir, DatasetManifest.FILE_NAME)));
  }

  private static List<String> fields(DatasetManifest m) {
    return m.fields().stream().map(f -> f.name() + ":" + FieldTypes.name(f.typeId())).toList();
  }

  /** The image settings of a manifest's recipe. */
  private static Map<String, String> imageRecipe(DatasetManifest m) {
    Map<String, String> r = new java.util.TreeMap<>(m.recipe());
    r.keySet().retainAll(List.of("write_mode", "max_resolution", "min_resolution", "jpeg_quality", "jpeg_subsampling"));
    return r;
  }

  private static List<Row> sorted(Dataset<Row> df) {
    return df.orderBy("label", "image").collectAsList();
  }

  @Test
  void aSubsetOfJpegsIsTheSameJpegsWithTheSameRecipe() throws Exception {
    String copy = tmp.resolve("jpg-subset").toString();
    Dataset<Row> subset = spark.read().format("beton").load(jpg).where("label < 2");
    subset.write().format("beton").save(copy);

    DatasetManifest written = manifest(copy);
    assertThat(fields(written)).containsExactly("image:RGBImage", "label:Int");
    assertThat(imageRecipe(written)).isEqualTo(imageRecipe(manifest(jpg))).containsEntry("write_mode", "jpg")
        .containsEntry("max_resolution", "96").containsEntry("jpeg_quality", "85");
    List<Row> back = sorted(spark.read().format("beton").load(copy));
    assertThat(back).hasSize(6).isEqualTo(sorted(subset)); // payload bytes, sizes and modes alike
    assertThat(back).extracting(r -> r.<String>getAs("image_mode")).containsOnly("jpg");
  }

  @Test
  void rawImagesStayRawPixelsAndDecodedReadsAreStoredByTheRecipe() throws Exception {
    String copy = tmp.resolve("raw-copy").toString();
    spark.read().format("beton").load(raw).write().format("beton").save(copy);
    assertThat(fields(manifest(copy))).containsExactly("image:RGBImage", "label:Int");
    assertThat(imageRecipe(manifest(copy))).containsEntry("write_mode", "raw").containsEntry("max_resolution", "40");
    assertThat(sorted(spark.read().format("beton").load(copy)))
        .isEqualTo(sorted(spark.read().format("beton").load(raw)));

    // imageMode=raw gives decoded pixels whatever the stored mode: they are stored as the recipe says (raw here)
    String fromRgb = tmp.resolve("raw-from-rgb").toString();
    spark.read().format("beton").option("imageMode", "raw").load(raw).write().format("beton").save(fromRgb);
    assertThat(sorted(spark.read().format("beton").load(fromRgb)))
        .isEqualTo(sorted(spark.read().format("beton").load(raw)));
  }

  @Test
  void renamedAndJoinedImagesKeepTheirPartsOutAndOptionsStillDecide() throws Exception {
    String joined = tmp.resolve("joined").toString();
    Dataset<Row> names = spark.range(4).selectExpr("id as label", "concat('class', id) as name");
    spark.read().format("beton").load(jpg).withColumnRenamed("image", "photo").join(names, "label")
        .write().format("beton").save(joined);
    assertThat(fields(manifest(joined))).containsExactly("label:Int", "photo:RGBImage", "name:JSON");
    assertThat(spark.read().format("beton").load(joined).select("photo", "photo_width").orderBy("photo").collectAsList())
        .isEqualTo(spark.read().format("beton").load(jpg).select("image", "image_width").orderBy("image")
            .collectAsList());

    // options given replace the recipe's: the JPEGs are decoded and stored as raw pixels at 32 px
    String smaller = tmp.resolve("smaller").toString();
    spark.read().format("beton").load(jpg).write().format("beton").option("writeMode", "raw")
        .option("maxResolution", "32").save(smaller);
    assertThat(imageRecipe(manifest(smaller))).containsEntry("write_mode", "raw").containsEntry("max_resolution", "32")
        .containsEntry("jpeg_quality", "85");
    List<Row> small = spark.read().format("beton").load(smaller).collectAsList();
    assertThat(small).hasSize(12).allSatisfy(r -> {
      assertThat(r.<String>getAs("image_mode")).isEqualTo("raw");
      assertThat(Math.max(r.<Integer>getAs("image_width"), r.<Integer>getAs("image_height"))).isEqualTo(32);
    });
  }

  @Test
  void imagesOfDatasetsStoredDifferentlyNeedTheWriteToSayHow() throws Exception {
    Dataset<Row> thumbs = spark.read().format("beton").load(raw)
        .selectExpr("image as thumb", "image_width", "image_height", "image_mode", "label");
    Dataset<Row> both = spark.read().format("beton").load(jpg).select("image", "label").join(thumbs, "label");
    assertThatThrownBy(() -> both.write().format("beton").save(tmp.resolve("both").toString()))
        .hasMessageContaining("Image columns 'image' and 'thumb' were read from datasets that stored their images"
            + " differently")
        .hasMessageContaining("give the write's options writeMode, maxResolution and jpegQuality");
    String given = tmp.resolve("both-given").toString();
    both.write().format("beton").option("writeMode", "jpg").option("maxResolution", "40").save(given);
    assertThat(fields(manifest(given))).containsExactly("label:Int", "image:RGBImage", "thumb:RGBImage");
    assertThat(spark.read().format("beton").load(given).where("thumb_mode = 'jpg' and image_mode = 'jpg'"
        + " and greatest(image_width, image_height) <= 40 and greatest(thumb_width, thumb_height) <= 40").count())
        .isEqualTo(36);

    // raw pixels without the columns that give their shape cannot be stored: the write says which to keep
    assertThatThrownBy(() -> spark.read().format("beton").load(raw).select("image", "label").write().format("beton")
        .save(tmp.resolve("no-sizes").toString()))
        .hasMessageContaining("Image column 'image' was read from ")
        .hasMessageContaining("whose images may be stored as raw pixels, but the columns the read gave beside it,"
            + " image_width, image_height and image_mode, which say their shape, are not all in the DataFrame");
  }

  /**
   * An append of new photos to a dataset of images takes the dataset's image settings where its options give none,
   * as an INSERT into its table does: JPEGs at 96 px and q85 here, not the defaults' raw pixels at full size.
   */
  @Test
  void anAppendOfNewPhotosTakesTheDatasetsSettings() throws Exception {
    String target = tmp.resolve("append-target").toString();
    spark.read().format("beton").load(jpg).where("label = 0").write().format("beton").save(target);
    List<Row> photos = new ArrayList<>();
    for (int i = 20; i < 23; i++) {
      photos.add(RowFactory.create(TestPhotos.photo(41, i), 9L));
    }
    spark.createDataFrame(photos, new StructType().add("image", DataTypes.BinaryType).add("label", DataTypes.LongType))
        .write().format("beton").option("imageColumns", "image").mode("append").save(target);

    assertThat(imageRecipe(manifest(target))).isEqualTo(imageRecipe(manifest(jpg)));
    assertThat(spark.read().format("beton").load(target).where("label = 9").selectExpr("image_mode",
        "greatest(image_width, image_height) <= 96").distinct().collectAsList()).extracting(Row::toString)
        .containsExactly("[jpg,true]");
    // options given still decide
    spark.createDataFrame(photos, new StructType().add("image", DataTypes.BinaryType).add("label", DataTypes.LongType))
        .write().format("beton").option("imageColumns", "image").option("writeMode", "raw")
        .option("maxResolution", "20").mode("append").save(target);
    assertThat(spark.read().format("beton").load(target).where("image_mode = 'raw'").count()).isEqualTo(3);
  }

  /** Class names recorded by a write stay with the dataset through appends that give none; other names are refused. */
  @Test
  void classNamesStayWithTheDataset() throws Exception {
    String target = tmp.resolve("named").toString();
    spark.range(4).selectExpr("id % 2 as label").write().format("beton").option("classNames", "[\"cat\",\"dog\"]")
        .save(target);
    spark.range(2).selectExpr("id as label").write().format("beton").mode("append").save(target);
    assertThat(manifest(target).recipe()).containsEntry("class_names", "[\"cat\",\"dog\"]");
    assertThatThrownBy(() -> spark.range(2).selectExpr("id as label").write().format("beton").mode("append")
        .option("classNames", "[\"dog\",\"cat\"]").save(target))
        .hasStackTraceContaining("its class names [\"cat\",\"dog\"] differ from this write's classNames"
            + " [\"dog\",\"cat\"]");
    assertThat(spark.read().format("beton").load(target).count()).isEqualTo(6);
    assertThatThrownBy(() -> spark.range(2).write().format("beton").option("classNames", "cat,dog")
        .save(tmp.resolve("bad-names").toString())).hasMessageContaining("Option classNames must be a JSON list of"
        + " strings");
  }

  /**
   * Arrays come back as the fields they were, shape and dtype: the types a read widens ({@code u1} to short,
   * {@code f2} to float) are narrowed again, big-endian stays big-endian, a TorchTensor stays one; a raw image of a
   * file without a recipe stays raw. A value the dtype cannot hold fails naming the column.
   */
  @Test
  void arraysKeepTheirShapeAndDtype() throws Exception {
    List<BetonField> fields = List.of(new BetonField("image", RgbImageField.INSTANCE),
        new BetonField("mask", NdArrayField.ndarray("|u1", 2, 3)), new BetonField("half", NdArrayField.ndarray("<f2", 4)),
        new BetonField("big", NdArrayField.ndarray(">i4", 2)),
        new BetonField("tensor", NdArrayField.torchTensor(NumpyDtype.of("<u2"), 2)));
    List<Object[]> samples = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      byte[] rgb = new byte[3 * 2 * 3];
      java.util.Arrays.fill(rgb, (byte) (40 * i + 7));
      short[] half = {Float16.fromFloat(i / 3f), Float16.fromFloat(-1e4f), Float16.fromFloat(6.1e-5f), (short) 0x7c00};
      samples.add(new Object[] {RgbImage.raw(3, 2, rgb), new byte[] {0, 1, (byte) 127, (byte) 128, (byte) 255,
          (byte) i}, half, new int[] {i, -i}, new short[] {(short) 65535, (short) i}});
    }
    Path source = tmp.resolve("arrays");
    TestDatasets.writeDataset(source, fields, List.of(samples.subList(0, 4), samples.subList(4, 8)));
    String copy = tmp.resolve("arrays-copy").toString();
    Dataset<Row> read = spark.read().format("beton").load(source.toString());
    read.write().format("beton").save(copy);

    assertThat(manifest(copy).fields()).extracting(f -> f.name() + ":" + FieldTypes.name(f.typeId()) + ":" + f.dtype()
        + ":" + java.util.Arrays.toString(f.shape())).containsExactly("image:RGBImage:null:null",
        "mask:NDArray:|u1:[2, 3]", "half:NDArray:<f2:[4]", "big:NDArray:>i4:[2]", "tensor:TorchTensor:<u2:[2]");
    List<Row> back = spark.read().format("beton").load(copy).orderBy("big").collectAsList();
    assertThat(back).isEqualTo(read.orderBy("big").collectAsList());
    assertThat(back.get(0).<Integer>getAs("image_width")).isEqualTo(3);
    assertThat(back.get(0).<String>getAs("image_mode")).isEqualTo("raw");

    // a computed column is the user's own (its metadata gone): its shape is asked for; given the read's metadata
    // back, a value out of the stored dtype's range is bad data, named
    org.apache.spark.sql.Column plusOne = org.apache.spark.sql.functions.expr("transform(mask, x -> cast(x + 1 as short))");
    assertThatThrownBy(() -> read.withColumn("mask", plusOne).write().format("beton").save(tmp.resolve("bad").toString()))
        .hasMessageContaining("Column 'mask' is an array of smallint: give its shape with option arrayShapes");
    assertThatThrownBy(() -> read.withColumn("mask", plusOne.as("mask", read.schema().apply("mask").metadata()))
        .write().format("beton").save(tmp.resolve("bad").toString()))
        .hasStackTraceContaining("Bad value in column 'mask'")
        .hasStackTraceContaining("is 256, outside the range of its field's dtype |u1 (0..255)");
  }

  /**
   * A JSON field of a beton read is a JSON field again, its objects and lists stored as objects and lists (FFCV's
   * {@code JSONField.unpack} gives dicts back, not their text) and its strings as strings; a read gives a number's
   * JSON text, which comes back as a string.
   */
  @Test
  void jsonFieldsKeepTheirObjectsAndLists() throws Exception {
    String[] stored = {"{\"box\": [1, 2, 3, 4], \"name\": \"cat\"}", "[\"a\", {\"b\": null}]", "\"plain\"",
        "\"{not json\"", "5"};
    List<BetonField> fields = List.of(new BetonField("label", org.sparkbeton.format.fields.IntField.INSTANCE),
        new BetonField("meta", org.sparkbeton.format.fields.JsonField.INSTANCE));
    List<Object[]> samples = new ArrayList<>();
    for (int i = 0; i < stored.length; i++) {
      samples.add(new Object[] {(long) i, stored[i]});
    }
    Path source = tmp.resolve("json");
    TestDatasets.writeDataset(source, fields, List.of(samples));
    String copy = tmp.resolve("json-copy").toString();
    Dataset<Row> read = spark.read().format("beton").load(source.toString());
    read.coalesce(1).write().format("beton").save(copy);

    assertThat(fields(manifest(copy))).containsExactly("label:Int", "meta:JSON");
    List<String> copied = new ArrayList<>();
    String shard = manifest(copy).shards().get(0).path();
    try (org.sparkbeton.format.BetonReader r = org.sparkbeton.format.BetonReader.open(Path.of(copy, shard))) {
      for (long i = 0; i < r.numSamples(); i++) {
        copied.add(r.intValue(i, 0) + " " + r.value(i, 1));
      }
    }
    assertThat(copied).containsExactlyInAnyOrder("0 " + stored[0], "1 " + stored[1], "2 " + stored[2],
        "3 " + stored[3], "4 \"5\"");
    assertThat(spark.read().format("beton").load(copy).orderBy("label").collectAsList())
        .isEqualTo(read.orderBy("label").collectAsList());
  }
}
