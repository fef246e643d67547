package org.sparkbeton.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.apache.spark.sql.functions.col;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.codec.jpeg.ChromaSubsampling;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.spark.prepare.ShapesGenerator;

/**
 * Image columns of paths: a string column named in {@code imageColumns} holds the paths of image files, which
 * the write tasks read themselves. The dataset equals the one written from {@code binaryFile}'s content column;
 * a missing file is bad input under every policy, named by its path.
 */
class BetonImagePathsTest {
  @TempDir static Path tmp;
  static SparkSession spark;
  static Path photos;
  static final int N = 7;

  @BeforeAll
  static void setUp() throws Exception {
    spark = SparkTests.session("BetonImagePathsTest");
    photos = Files.createDirectories(tmp.resolve("photos dir")); // a space: paths are Hadoop's spelling
    ShapesGenerator gen = new ShapesGenerator(5, 60, 300);
    try (JpegCodec codec = JpegCodecs.fastest()) {
      for (int i = 0; i < N; i++) {
        java.awt.image.BufferedImage img = gen.image(i);
        byte[] jpeg = codec.encode(ByteBuffer.wrap(gen.rgb(img)), 0, img.getWidth(), img.getHeight(), 90,
            ChromaSubsampling.S420);
        Files.write(photos.resolve("img" + i + ".jpg"), jpeg);
      }
    }
  }

  @AfterAll
  static void tearDown() {
    spark.stop();
  }

  static Dataset<Row> files() {
    return spark.read().format("binaryFile").load(photos.toString())
        .withColumn("label", org.apache.spark.sql.functions.regexp_extract(col("path"), "img(\\d+)\\.jpg$", 1).cast("long"));
  }

  static List<Row> readBack(Path dir) {
    return spark.read().format("beton").option("imageMode", "binary").load(dir.toString()).orderBy("label")
        .collectAsList();
  }

  @Test
  void pathsGiveTheDatasetTheContentColumnGives() throws Exception {
    Path fromContent = tmp.resolve("from-content");
    Path fromPaths = tmp.resolve("from-paths");
    files().select(col("content").as("image"), col("label")).coalesce(2).write().format("beton")
        .option("imageColumns", "image").option("maxResolution", "100").save(fromContent.toString());
    // binaryFile reads no file when its content column is not selected: only the writer does
    files().select(col("path").as("image"), col("label")).coalesce(2).write().format("beton")
        .option("imageColumns", "image").option("maxResolution", "100").save(fromPaths.toString());

    BetonWriteTest.assertConsistent(fromPaths, N);
    List<Row> a = readBack(fromContent);
    List<Row> b = readBack(fromPaths);
    assertThat(b).hasSize(N);
    for (int i = 0; i < N; i++) {
      assertThat(b.get(i).<Long>getAs("label")).isEqualTo(i);
      assertThat(b.get(i).<Integer>getAs("image_width")).isEqualTo(a.get(i).<Integer>getAs("image_width"))
          .isLessThanOrEqualTo(100);
      assertThat((byte[]) b.get(i).getAs("image")).as("image %d", i).isEqualTo(a.get(i).getAs("image"));
    }
    assertThat(BetonWriteTest.manifest(fromPaths).fields()).extracting(f -> f.name()).containsExactly("image", "label");
  }

  @Test
  void aMissingFileIsBadInputNamedByItsPath() throws Exception {
    Dataset<Row> withMissing = files().select(col("path").as("image"), col("label"))
        .union(spark.sql("select '" + photos.resolve("gone.jpg").toUri() + "' as image, 99L as label"));

    Path failing = tmp.resolve("failing");
    assertThatThrownBy(() -> withMissing.coalesce(1).write().format("beton").option("imageColumns", "image")
        .save(failing.toString()))
        .isInstanceOf(org.sparkbeton.spark.write.BadImageException.class)
        .hasMessageContaining("gone.jpg does not exist")
        .hasMessageEndingWith(" (set badImagePolicy=skip or quarantine to leave such rows out)");

    Path quarantined = tmp.resolve("quarantined");
    withMissing.coalesce(1).write().format("beton").option("imageColumns", "image")
        .option("badImagePolicy", "quarantine").save(quarantined.toString());
    BetonWriteTest.assertConsistent(quarantined, N);
    Path q;
    try (var s = Files.list(quarantined.resolve("_quarantine"))) {
      q = s.filter(f -> f.toString().endsWith(".jsonl")).findFirst().orElseThrow();
    }
    String record = Files.readString(q);
    // no sourceIdColumn: the path itself is the row's source
    assertThat(record).contains("\"source\":\"" + photos.resolve("gone.jpg").toUri()).contains("does not exist");
  }
}
