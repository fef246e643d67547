package org.sparkbeton.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.DatasetVerifier;
import org.sparkbeton.format.dataset.PageChecksums;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.spark.read.BetonMetrics;
import org.sparkbeton.spark.read.testing.TestDatasets;

/**
 * Issue 25 through Spark: integrity is checked when data is read. A manifest edited after it was written answers
 * neither {@code count()} nor a filter; a damaged page fails the query naming it (or, with ignoreCorruptFiles, its
 * shard is skipped and counted); a shard linked in from outside the directory is refused; the writer's manifests
 * carry what all this needs.
 */
class BetonIntegrityTest {
  private static final List<BetonField> FIELDS =
      List.of(new BetonField("image", RgbImageField.INSTANCE), new BetonField("label", IntField.INSTANCE));

  @TempDir static Path tmp;
  static SparkSession spark;

  @BeforeAll
  static void setUp() {
    spark = SparkTests.session("BetonIntegrityTest");
  }

  @AfterAll
  static void tearDown() {
    spark.stop();
  }

  /** Shard 0: labels 0..99; shard 1: labels 500..554 (55 of them); raw 32x24 images of noise. */
  private static Path dataset(String name) {
    Random r = new Random(11);
    List<List<Object[]>> shards = new ArrayList<>();
    for (int[] range : new int[][] {{0, 100}, {500, 555}}) {
      List<Object[]> samples = new ArrayList<>();
      for (int label = range[0]; label < range[1]; label++) {
        byte[] rgb = new byte[32 * 24 * 3];
        r.nextBytes(rgb);
        samples.add(new Object[] {RgbImage.raw(32, 24, rgb), (long) label});
      }
      shards.add(samples);
    }
    Path dir = tmp.resolve(name);
    TestDatasets.writeDataset(dir, FIELDS, shards);
    return dir;
  }

  private static Dataset<Row> load(Path dir) {
    return spark.read().format("beton").load(dir.toString());
  }

  @Test
  void anEditedManifestAnswersNeitherCountNorFilters() throws Exception {
    Path dir = dataset("edited");
    assertThat(load(dir).where("label >= 500").count()).isEqualTo(55);
    assertThat(load(dir).count()).isEqualTo(155);
    Path manifest = dir.resolve(DatasetManifest.FILE_NAME);
    String good = Files.readString(manifest);
    // the two edits: min/max that prune the shard holding every match, and a sample count off by ten
    String[] edits = {
        good.replace("\"min\": 500,", "\"min\": 0,").replace("\"max\": 554", "\"max\": 400"),
        good.replace("\"samples\": 100,", "\"samples\": 90,").replace("\"total_samples\": 155",
            "\"total_samples\": 145")};
    for (String edited : edits) {
      assertThat(edited).isNotEqualTo(good);
      Files.writeString(manifest, edited);
      assertThatThrownBy(() -> load(dir).where("label >= 500").count())
          .hasStackTraceContaining("_manifest.json: Invalid manifest at $.manifest_checksum")
          .hasStackTraceContaining("edited or damaged after it was written");
      assertThatThrownBy(() -> load(dir).count()).hasStackTraceContaining("does not match its checksum");
    }
    Files.writeString(manifest, good);
    assertThat(load(dir).where("label >= 500").count()).isEqualTo(55);
  }

  @Test
  void aDamagedPageFailsTheQueryNamingItOrItsShardIsSkipped() throws Exception {
    Path dir = dataset("damaged");
    ShardEntry second = DatasetVerifier.manifest(dir).shards().get(1);
    PageChecksums pages = second.pageChecksums();
    Path file = dir.resolve(second.path());
    long at = pages.unitStart(pages.dataUnit(0)) + 1000; // inside an image
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(at);
      int b = f.read();
      f.seek(at);
      f.write(b ^ 1);
    }
    assertThatThrownBy(() -> load(dir).selectExpr("sum(length(image))").collectAsList())
        .hasStackTraceContaining("part-00001.beton: page 0 (data region, bytes [" + pages.dataStart() + ", ")
        .hasStackTraceContaining("the shard changed after it was written");
    // the labels alone never touch the damaged data page: exact
    assertThat(load(dir).where("label >= 500").count()).isEqualTo(55);
    Dataset<Row> lenient = spark.read().format("beton").option("ignoreCorruptFiles", "true").load(dir.toString())
        .select("label", "image");
    assertThat(lenient.collectAsList()).hasSize(100);
    assertThat(SparkTests.metric(lenient, BetonMetrics.CORRUPT_SHARDS_SKIPPED)).isEqualTo(1);
    // unchecked, the damaged image comes back as good
    assertThat(spark.read().format("beton").option("verifyChecksums", "false").load(dir.toString())
        .select("image").collectAsList()).hasSize(155);
  }

  @Test
  void aShardLinkedInFromOutsideTheDirectoryIsRefused() throws Exception {
    Path dir = dataset("linked");
    Path other = dataset("other");
    Path shard = dir.resolve("part-00001.beton");
    Files.delete(shard);
    Files.createSymbolicLink(shard, other.resolve("part-00001.beton"));
    assertThatThrownBy(() -> load(dir).count())
        .hasStackTraceContaining("shard part-00001.beton resolves to " + other.resolve("part-00001.beton").toRealPath())
        .hasStackTraceContaining("outside the dataset directory");
  }

  @Test
  void theWritersManifestCarriesPageChecksumsAndItsOwnChecksum() throws Exception {
    Path dir = tmp.resolve("written");
    load(dataset("source")).repartition(3).write().format("beton").save(dir.toString());
    DatasetManifest manifest = DatasetVerifier.manifest(dir);
    assertThat(manifest.hasContentChecksum()).isTrue();
    assertThat(manifest.hasPageChecksums()).isTrue();
    assertThat(Files.readString(dir.resolve(DatasetManifest.FILE_NAME))).contains("\"format_version\": 2")
        .contains("\"manifest_checksum\"").contains("\"page_checksums\"");
    assertThat(DatasetVerifier.verify(dir, manifest)).allSatisfy(r -> assertThat(r.ok()).as(r.toString()).isTrue());
    assertThat(load(dir).where("label >= 500").count()).isEqualTo(55);
  }
}
