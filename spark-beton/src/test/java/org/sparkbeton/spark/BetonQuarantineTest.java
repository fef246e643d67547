package org.sparkbeton.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.dataset.DatasetManifest;

/**
 * {@code badImagePolicy=quarantine}: bad images are left out of the dataset and listed, with their source
 * and reason, under {@code _quarantine/}; retried task attempts leave no duplicate or stale record, and an
 * overwrite drops the quarantine of the dataset it replaces.
 */
class BetonQuarantineTest {
  @TempDir static Path tmp;
  static SparkSession spark;

  @BeforeAll
  static void setUp() {
    spark = SparkSession.builder().master("local[2,4]").appName("BetonQuarantineTest")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1").getOrCreate();
    // the first attempt of partition 1 fails after it has quarantined its bad rows
    spark.udf().register("failFirstAttemptAfter", (UDF1<Integer, Integer>) label -> {
      TaskContext tc = TaskContext.get();
      if (tc.partitionId() == 1 && tc.attemptNumber() == 0 && label == 99) {
        throw new IllegalStateException("injected failure of the first attempt");
      }
      return label;
    }, DataTypes.IntegerType);
  }

  @AfterAll
  static void tearDown() {
    spark.stop();
  }

  private static byte[] jpeg(int w, int h, int seed) throws Exception {
    BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_3BYTE_BGR);
    for (int y = 0; y < h; y++) {
      for (int x = 0; x < w; x++) {
        img.setRGB(x, y, (x * 7 + y * 3 + seed * 31) * 0x010305);
      }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ImageIO.write(img, "jpg", out);
    return out.toByteArray();
  }

  private static byte[] png(int w, int h) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ImageIO.write(new BufferedImage(w, h, BufferedImage.TYPE_3BYTE_BGR), "png", out);
    return out.toByteArray();
  }

  /**
   * Two partitions, each: 6 good JPEGs then the bad ones (garbage, a JPEG cut in its header, one cut in its
   * scan, zero bytes, a PNG 70000 pixels wide), then a last good row with label 99 (where the injected
   * failure strikes).
   */
  private static Dataset<Row> rows(Map<String, String> expectedBad) throws Exception {
    List<Row> rows = new ArrayList<>();
    byte[] good = jpeg(40, 30, 1);
    byte[] wide = png(70_000, 1);
    for (int p = 0; p < 2; p++) {
      for (int i = 0; i < 6; i++) {
        rows.add(RowFactory.create("file:/photos/p" + p + "/good" + i + ".jpg", jpeg(40, 30, i), i));
      }
      Map<String, byte[]> bad = new TreeMap<>();
      bad.put("file:/photos/p" + p + "/garbage.jpg", "not an image".getBytes(StandardCharsets.US_ASCII));
      bad.put("file:/photos/p" + p + "/truncated.jpg", Arrays.copyOf(good, good.length / 3));
      // cut inside the scan: the header is whole, so only the writer's completeness check can see it
      bad.put("file:/photos/p" + p + "/cut-in-scan.jpg", Arrays.copyOf(good, good.length - 2));
      bad.put("file:/photos/p" + p + "/empty.jpg", new byte[0]);
      bad.put("file:/photos/p" + p + "/too-wide.png", wide);
      for (Map.Entry<String, byte[]> e : bad.entrySet()) {
        rows.add(RowFactory.create(e.getKey(), e.getValue(), 7));
        expectedBad.put(e.getKey(), "p" + p);
      }
      rows.add(RowFactory.create("file:/photos/p" + p + "/last.jpg", good, 99));
    }
    StructType schema = new StructType().add("path", DataTypes.StringType).add("image", DataTypes.BinaryType)
        .add("label", DataTypes.IntegerType);
    return spark.createDataFrame(rows, schema).coalesce(2);
  }

  private static List<JsonNode> records(Path dir) throws Exception {
    List<JsonNode> out = new ArrayList<>();
    Path q = dir.resolve("_quarantine");
    if (!Files.exists(q)) {
      return out;
    }
    ObjectMapper json = new ObjectMapper();
    try (Stream<Path> files = Files.list(q)) {
      for (Path f : files.filter(f -> f.toString().endsWith(".jsonl")).toList()) {
        for (String line : Files.readAllLines(f)) {
          out.add(json.readTree(line));
        }
      }
    }
    return out;
  }

  @Test
  void badImagesAreListedWithSourceAndReasonAndRetriesLeaveNoDuplicates() throws Exception {
    Map<String, String> expectedBad = new TreeMap<>();
    Dataset<Row> df = rows(expectedBad).selectExpr("path", "image", "failFirstAttemptAfter(label) as label");
    Path dir = tmp.resolve("quarantined");
    df.write().format("beton").option("imageColumns", "image").option("writeMode", "jpg")
        .option("badImagePolicy", "quarantine").option("sourceIdColumn", "path").save(dir.toString());

    BetonWriteTest.assertConsistent(dir, 14);
    DatasetManifest m = BetonWriteTest.manifest(dir);
    assertThat(m.fields()).extracting(f -> f.name()).containsExactly("image", "label"); // path not stored
    assertThat(m.recipe().get("quarantined_rows")).startsWith("10 rows of job");

    List<JsonNode> records = records(dir);
    Map<String, String> reasons = new TreeMap<>();
    for (JsonNode r : records) {
      assertThat(reasons.put(r.get("source").asText(), r.get("reason").asText())).as("listed once").isNull();
      assertThat(r.get("column").asText()).isEqualTo("image");
      assertThat(r.get("row").asLong()).isBetween(6L, 10L);
    }
    assertThat(reasons.keySet()).containsExactlyElementsOf(expectedBad.keySet());
    assertThat(reasons.get("file:/photos/p0/too-wide.png")).contains("70000x1").contains("65535");
    assertThat(reasons.get("file:/photos/p1/empty.jpg")).isNotBlank();
    assertThat(reasons.get("file:/photos/p1/cut-in-scan.jpg")).contains("Truncated JPEG");
    try (Stream<Path> files = Files.list(dir.resolve("_quarantine"))) {
      assertThat(files.filter(f -> f.toString().endsWith(".jsonl")).count())
          .as("one file per committed task, none from the failed attempt").isEqualTo(2);
    }
    assertThat(spark.read().format("beton").load(dir.toString()).where("label = 7").count()).isZero();

    // an overwrite replaces the dataset and its quarantine: clean data leaves none
    rows(new TreeMap<>()).where("label != 7").write().format("beton").mode("overwrite").option("imageColumns", "image")
        .option("badImagePolicy", "quarantine").option("sourceIdColumn", "path").save(dir.toString());
    assertThat(dir.resolve("_quarantine")).doesNotExist();
    BetonWriteTest.assertConsistent(dir, 14);
  }

  @Test
  void theDefaultPolicyFailsNamingTheSource() throws Exception {
    Dataset<Row> df = rows(new TreeMap<>());
    Path dir = tmp.resolve("failing");
    assertThatThrownBy(() -> df.write().format("beton").option("imageColumns", "image")
        .option("sourceIdColumn", "path").save(dir.toString()))
        .isInstanceOf(org.sparkbeton.spark.write.BadImageException.class)
        .hasMessageContaining("(source file:/photos/p")
        .hasMessageEndingWith(" (set badImagePolicy=skip or quarantine to leave such rows out)");
    assertThat(dir.resolve(DatasetManifest.FILE_NAME)).doesNotExist();
    assertThat(dir.resolve("_quarantine")).doesNotExist();
  }

  @Test
  void anUnknownSourceColumnIsRefusedBeforeAnyTask() {
    assertThatThrownBy(() -> rows(new TreeMap<>()).write().format("beton").option("imageColumns", "image")
        .option("sourceIdColumn", "uri").save(tmp.resolve("no-source").toString()))
        .hasStackTraceContaining("Option sourceIdColumn names column 'uri', which the DataFrame does not have");
  }
}
