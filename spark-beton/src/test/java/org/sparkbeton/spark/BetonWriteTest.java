package org.sparkbeton.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.codec.jpeg.ChromaSubsampling;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.fields.ImageMode;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.verify.BetonVerifier;

/** {@code df.write.format("beton")}: every SaveMode, type mappings, images, and what readers see. */
class BetonWriteTest {
  @TempDir static Path tmp;
  static SparkSession spark;

  @BeforeAll
  static void setUp() {
    spark = SparkTests.session("BetonWriteTest");
  }

  @AfterAll
  static void tearDown() {
    spark.stop();
  }

  static Dataset<Row> labels(long from, long to, int partitions) {
    return spark.range(from, to, 1, partitions).selectExpr("id", "cast(id % 10 as int) as label",
        "cast(id as double) / 4 as weight");
  }

  static DatasetManifest manifest(Path dir) throws Exception {
    return DatasetManifest.parse(Files.readString(dir.resolve(DatasetManifest.FILE_NAME)));
  }

  /** The manifest's shards exist, verify, and hold as many samples as it says; no other part files. */
  static void assertConsistent(Path dir, long expectedSamples) throws Exception {
    DatasetManifest m = manifest(dir);
    assertThat(m.totalSamples()).isEqualTo(expectedSamples);
    List<String> listed = new ArrayList<>();
    for (ShardEntry s : m.shards()) {
      listed.add(s.path());
      try (BetonReader r = BetonReader.open(dir.resolve(s.path()))) {
        assertThat(r.numSamples()).isEqualTo(s.samples());
        assertThat(BetonVerifier.verify(r).problems()).isEmpty();
      }
    }
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".beton")).sorted().toList())
          .containsExactlyInAnyOrderElementsOf(listed);
    }
  }

  @Test
  void everySaveMode() throws Exception {
    Path dir = tmp.resolve("modes");
    String path = dir.toString();
    labels(0, 100, 3).write().format("beton").save(path); // default: ErrorIfExists on a new path
    assertConsistent(dir, 100);

    assertThatThrownBy(() -> labels(0, 5, 1).write().format("beton").save(path))
        .hasMessageContaining("already exists");
    assertConsistent(dir, 100);

    labels(0, 5, 1).write().format("beton").mode(SaveMode.Ignore).save(path);
    assertConsistent(dir, 100);

    labels(100, 150, 2).write().format("beton").mode(SaveMode.Append).save(path);
    assertConsistent(dir, 150);
    assertThat(spark.read().format("beton").load(path).selectExpr("sum(id)").first().getLong(0))
        .isEqualTo(149L * 150 / 2);

    List<String> before = manifest(dir).shards().stream().map(ShardEntry::path).toList();
    labels(1000, 1010, 2).write().format("beton").mode(SaveMode.Overwrite).save(path);
    assertConsistent(dir, 10);
    assertThat(manifest(dir).shards()).extracting(ShardEntry::path).doesNotContainAnyElementsOf(before);
    assertThat(spark.read().format("beton").load(path).selectExpr("min(id)").first().getLong(0)).isEqualTo(1000L);

    Path fresh = tmp.resolve("ignored-new");
    labels(0, 7, 1).write().format("beton").mode(SaveMode.Ignore).save(fresh.toString());
    assertConsistent(fresh, 7);
  }

  @Test
  void appendWithOtherColumnsIsRefused() throws Exception {
    String path = tmp.resolve("append-mismatch").toString();
    labels(0, 10, 1).write().format("beton").save(path);
    java.util.concurrent.atomic.AtomicInteger tasks = new java.util.concurrent.atomic.AtomicInteger();
    org.apache.spark.scheduler.SparkListener counter = new org.apache.spark.scheduler.SparkListener() {
      @Override
      public void onTaskStart(org.apache.spark.scheduler.SparkListenerTaskStart start) {
        tasks.incrementAndGet();
      }
    };
    spark.sparkContext().addSparkListener(counter);
    try {
      // a string label: refused before any task, naming the column and the cast, not after the job wrote every row
      assertThatThrownBy(() -> spark.range(3).selectExpr("id", "cast(id as string) as label", "0.5d as weight")
          .write().format("beton").mode(SaveMode.Append).save(path))
          .hasStackTraceContaining("Cannot append to " + tmp.toUri().toString().replace("file:///", "file:/")
              + "append-mismatch: the DataFrame's columns do not match the dataset's fields, so nothing was written."
              + " column 'label' is Int in the dataset, but the DataFrame's string column would be stored as JSON:"
              + " cast it to int.");
      assertThatThrownBy(() -> spark.range(3).write().format("beton").mode(SaveMode.Append).save(path))
          .hasStackTraceContaining("the dataset's column 'label' (Int) is missing from the DataFrame");
      spark.sparkContext().listenerBus().waitUntilEmpty();
      assertThat(tasks.get()).isZero();
    } finally {
      spark.sparkContext().removeSparkListener(counter);
    }
  }

  /**
   * A damaged manifest: an overwrite replaces the dataset (it failed parsing the old manifest), leaving the old shards
   * for beton gc; ignore skips the path, which holds a dataset, without reading it; an append is refused naming the
   * file.
   */
  @Test
  void aDatasetWhoseManifestCannotBeReadIsReplacedByOverwriteAndSkippedByIgnore() throws Exception {
    Path dir = tmp.resolve("damaged-manifest");
    String path = dir.toString();
    labels(0, 100, 2).write().format("beton").save(path);
    Path manifest = dir.resolve(DatasetManifest.FILE_NAME);
    String good = Files.readString(manifest);
    for (String damaged : new String[] {good.substring(0, good.length() / 2),
        good.replaceFirst("\"samples\": 50,", "\"samples\": 49,")}) {
      Files.writeString(manifest, damaged);
      labels(0, 7, 1).write().format("beton").mode(SaveMode.Ignore).save(path);
      assertThat(Files.readString(manifest)).isEqualTo(damaged);
      assertThatThrownBy(() -> labels(0, 7, 1).write().format("beton").mode(SaveMode.Append).save(path))
          .hasStackTraceContaining("The manifest of the beton dataset at file:" + path + " cannot be read")
          .hasStackTraceContaining("replace the dataset with a write in mode(\"overwrite\")");
    }
    labels(1000, 1007, 1).write().format("beton").mode(SaveMode.Overwrite).save(path);
    assertThat(spark.read().format("beton").load(path).selectExpr("count(*)", "min(id)").first().toString())
        .isEqualTo("[7,1000]");
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.filter(f -> f.toString().endsWith(".beton")).count()).as("the 2 old shards stay").isEqualTo(3);
    }
  }

  @Test
  void roundTripOfScalarsBytesArraysAndJson() throws Exception {
    StructType schema = new StructType().add("i", DataTypes.IntegerType).add("b", DataTypes.BooleanType)
        .add("f", DataTypes.FloatType).add("blob", DataTypes.BinaryType)
        .add("emb", DataTypes.createArrayType(DataTypes.FloatType))
        .add("meta", new StructType().add("k", DataTypes.StringType).add("n", DataTypes.LongType))
        .add("s", DataTypes.StringType);
    List<Row> rows = List.of(
        RowFactory.create(1, true, 0.5f, new byte[] {1, 2}, new float[] {1f, 2f, 3f}, RowFactory.create("a", 7L), "x"),
        RowFactory.create(-2, false, -1.25f, new byte[0], new float[] {4f, 5f, 6f}, RowFactory.create("é", -1L), "y\"z"));
    List<Row> javaRows = new ArrayList<>();
    for (Row r : rows) {
      float[] e = (float[]) r.get(4);
      javaRows.add(RowFactory.create(r.get(0), r.get(1), r.get(2), r.get(3),
          List.of(e[0], e[1], e[2]), r.get(5), r.get(6)));
    }
    Dataset<Row> df = spark.createDataFrame(
        javaRows.stream().map(r -> RowFactory.create(r.get(0), r.get(1), r.get(2), r.get(3),
            scala.collection.JavaConverters.asScalaBuffer((List<?>) r.get(4)).toSeq(), r.get(5), r.get(6))).toList(), schema);
    String path = tmp.resolve("roundtrip").toString();
    df.coalesce(1).write().format("beton").option("arrayShapes", "emb:3").save(path);
    List<Row> back = spark.read().format("beton").load(path).orderBy("i").collectAsList();
    assertThat(back).hasSize(2);
    Row neg = back.get(0);
    // each column with the type it was written with: the manifest records those its field is wider than
    assertThat(neg.<Integer>getAs("i")).isEqualTo(-2);
    assertThat(neg.<Boolean>getAs("b")).isFalse();
    assertThat(neg.<Float>getAs("f")).isEqualTo(-1.25f);
    assertThat((byte[]) neg.getAs("blob")).isEmpty();
    assertThat(neg.<scala.collection.Seq<Float>>getAs("emb").apply(2)).isEqualTo(6f);
    assertThat(neg.<Row>getAs("meta")).isEqualTo(RowFactory.create("é", -1L));
    // strings are stored as JSON string literals (FFCV's JSONField.unpack returns the str) and read back as they were
    assertThat(neg.<String>getAs("s")).isEqualTo("y\"z");
    assertThat(back.get(1).<String>getAs("s")).isEqualTo("x");
    Row pos = back.get(1);
    assertThat(pos.<Integer>getAs("i")).isEqualTo(1);
    assertThat(pos.<Boolean>getAs("b")).isTrue();
    assertThat((byte[]) pos.getAs("blob")).containsExactly(1, 2);

    // as FFCV sees the fields: the shard files, read without the manifest, give the stored values
    Row stored = spark.read().format("beton").load(path + "/*.beton").orderBy("i").first();
    assertThat(stored.<Long>getAs("i")).isEqualTo(-2L);
    assertThat(stored.<Long>getAs("b")).isEqualTo(0L);
    assertThat(stored.<Double>getAs("f")).isEqualTo(-1.25);
    assertThat(stored.<String>getAs("meta")).isEqualTo("{\"k\": \"\\u00e9\", \"n\": -1}");
  }

  @Test
  void imageColumnsAreResizedAndStoredAsFfcvImages() throws Exception {
    List<Row> rows = new ArrayList<>();
    try (JpegCodec codec = JpegCodecs.fastest()) {
      for (int i = 0; i < 12; i++) {
        int w = 300 + 10 * i;
        int h = 200;
        byte[] rgb = new byte[w * h * 3];
        for (int p = 0; p < rgb.length; p++) {
          rgb[p] = (byte) (p * 7 + i);
        }
        rows.add(RowFactory.create(codec.encode(ByteBuffer.wrap(rgb), 0, w, h, 90, ChromaSubsampling.S420), i % 3));
      }
    }
    StructType schema = new StructType().add("image", DataTypes.BinaryType).add("label", DataTypes.IntegerType);
    Path dir = tmp.resolve("images");
    spark.createDataFrame(rows, schema).repartition(3).write().format("beton").option("imageColumns", "image")
        .option("writeMode", "jpg").option("maxResolution", "128").option("pageSize", "2M").save(dir.toString());
    assertConsistent(dir, 12);
    DatasetManifest m = manifest(dir);
    assertThat(m.recipe()).containsEntry("write_mode", "jpg").containsEntry("max_resolution", "128");
    for (ShardEntry s : m.shards()) {
      try (BetonReader r = BetonReader.open(dir.resolve(s.path()))) {
        for (long k = 0; k < r.numSamples(); k++) {
          RgbImage img = (RgbImage) r.value(k, 0);
          assertThat(img.mode()).isEqualTo(ImageMode.JPG);
          assertThat(img.width()).isEqualTo(128);
          assertThat(img.height()).isBetween(62, 85); // (int) (200 * 128 / w) for w in 300..410
        }
      }
    }
    List<Row> back = spark.read().format("beton").load(dir.toString()).select("image_width", "label").collectAsList();
    assertThat(back).hasSize(12).allSatisfy(r -> assertThat(r.getInt(0)).isEqualTo(128));

    // a copy: the read's image column is an image column by itself and its extra columns are not stored, so the
    // JPEGs pass through; a column of the user's own under such a name is refused beside the image column
    Dataset<Row> read = spark.read().format("beton").load(dir.toString());
    Path copy = tmp.resolve("images-copy");
    assertThatThrownBy(() -> read.withColumn("image_width", functions.lit(1)).write().format("beton")
        .save(copy.toString()))
        .hasMessageStartingWith("Column 'image_width' has the name of the column that reads of image column 'image'");
    read.write().format("beton").save(copy.toString());
    assertThat(manifest(copy).fields()).extracting(f -> f.name()).containsExactly("image", "label");
    List<Row> copied = spark.read().format("beton").load(copy.toString()).selectExpr("label", "sha2(image, 256)")
        .collectAsList();
    assertThat(copied).hasSize(12)
        .containsExactlyInAnyOrderElementsOf(read.selectExpr("label", "sha2(image, 256)").collectAsList());
  }

  /** Rows shaped like Spark's {@code image} source (spark-mllib ImageSchema): BGR bytes, OpenCV mode 16. */
  @Test
  void sparkImageStructsAreStoredAsRgbImages() throws Exception {
    StructType imageSchema = new StructType().add("origin", DataTypes.StringType).add("height", DataTypes.IntegerType)
        .add("width", DataTypes.IntegerType).add("nChannels", DataTypes.IntegerType).add("mode", DataTypes.IntegerType)
        .add("data", DataTypes.BinaryType);
    org.sparkbeton.spark.prepare.ShapesGenerator gen = new org.sparkbeton.spark.prepare.ShapesGenerator(5, 40, 90);
    List<Row> rows = new ArrayList<>();
    List<byte[]> rgbs = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      java.awt.image.BufferedImage img = gen.image(i);
      byte[] bgr = ((java.awt.image.DataBufferByte) img.getRaster().getDataBuffer()).getData();
      rows.add(RowFactory.create(RowFactory.create("mem://" + i, img.getHeight(), img.getWidth(), 3, 16, bgr), (long) i));
      rgbs.add(gen.rgb(img));
    }
    Dataset<Row> df = spark.createDataFrame(rows, new StructType().add("image", imageSchema).add("id", DataTypes.LongType));
    Path dir = tmp.resolve("from-image-structs");
    df.coalesce(1).write().format("beton").option("writeMode", "raw").save(dir.toString());
    assertConsistent(dir, 10);
    DatasetManifest m = manifest(dir);
    try (BetonReader r = BetonReader.open(dir.resolve(m.shards().get(0).path()))) {
      for (long k = 0; k < r.numSamples(); k++) {
        RgbImage img = (RgbImage) r.value(k, 0);
        int id = (int) r.intValue(k, 1);
        assertThat(img.mode()).isEqualTo(ImageMode.RAW);
        assertThat(img.payloadBytes()).as("pixels of image %d, BGR turned to RGB", id).isEqualTo(rgbs.get(id));
      }
    }
    assertThat(m.recipe()).containsKeys("spark_version", "java_version")
        .containsEntry("jpeg_codec", org.sparkbeton.codec.jpeg.JpegCodecs.description());
  }

  @Test
  void badImagesFailNamingTheColumnOrAreSkipped() throws Exception {
    StructType schema = new StructType().add("image", DataTypes.BinaryType).add("label", DataTypes.IntegerType);
    List<Row> rows = List.of(RowFactory.create("not an image".getBytes(StandardCharsets.US_ASCII), 1));
    Dataset<Row> df = spark.createDataFrame(rows, schema).coalesce(1);
    String path = tmp.resolve("bad-images").toString();
    assertThatThrownBy(() -> df.write().format("beton").option("imageColumns", "image").save(path))
        .isInstanceOf(org.sparkbeton.spark.write.BadImageException.class)
        .hasMessageStartingWith("Bad image in column 'image', row 0 of partition 0: ")
        .hasMessageEndingWith(" (set badImagePolicy=skip or quarantine to leave such rows out)");
    String skipped = tmp.resolve("bad-images-skipped").toString();
    df.write().format("beton").option("imageColumns", "image").option("badImagePolicy", "skip").save(skipped);
    assertThat(manifest(Path.of(skipped)).totalSamples()).isZero();
  }

  @Test
  void badOptionsFailBeforeAnyTaskRuns() {
    String path = tmp.resolve("bad-options").toString();
    assertThatThrownBy(() -> labels(0, 3, 1).write().format("beton").option("writeMode", "gif").save(path))
        .hasStackTraceContaining("Option writeMode must be raw, jpg, smart or proportion, got 'gif'");
    assertThat(tmp.resolve("bad-options").resolve(DatasetManifest.FILE_NAME)).doesNotExist();
  }

  /** A target no file system reads, and an empty image path: one line each, saying what is wrong. */
  @Test
  void anUnknownSchemeAndAnEmptyImagePathAreNamed() {
    assertThatThrownBy(() -> labels(0, 3, 1).write().format("beton").save("s3://bucket/datasets/x"))
        .hasMessage("Cannot check s3://bucket/datasets/x: No FileSystem for scheme \"s3\" (Hadoop reads Amazon S3 as"
            + " s3a://bucket/path, with org.apache.hadoop:hadoop-aws on the classpath)");
    Dataset<Row> blank = spark.createDataFrame(List.of(RowFactory.create(" ", 1)),
        new StructType().add("image", DataTypes.StringType).add("label", DataTypes.IntegerType)).coalesce(1);
    assertThatThrownBy(() -> blank.write().format("beton").option("imageColumns", "image")
        .save(tmp.resolve("blank-path").toString()))
        .isInstanceOf(org.sparkbeton.spark.write.BadImageException.class)
        .hasMessage("Bad image in column 'image', row 0 of partition 0: the path of the image file is empty"
            + " (set badImagePolicy=skip or quarantine to leave such rows out)");
  }
}
