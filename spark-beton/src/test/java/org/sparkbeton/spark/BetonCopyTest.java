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
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.dataset.DatasetManifest;

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
}
