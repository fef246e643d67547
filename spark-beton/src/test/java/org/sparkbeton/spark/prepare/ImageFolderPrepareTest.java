package org.sparkbeton.spark.prepare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.fields.ImageMode;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.verify.BetonVerifier;

class ImageFolderPrepareTest {
  @TempDir static Path tmp;
  static SparkSession spark;

  @BeforeAll
  static void setUp() {
    spark = SparkSession.builder().master("local[2]").appName("ImageFolderPrepareTest")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1").getOrCreate();
  }

  @AfterAll
  static void tearDown() {
    spark.stop();
  }

  @Test
  void preparesAnImageFolderWithTorchvisionLabels() throws Exception {
    Path input = DemoImageFolder.ensure(tmp.resolve("shapes"), 48, 7);
    Files.writeString(input.resolve("circle").resolve("notes.txt"), "not an image"); // filtered by extension
    Path out = tmp.resolve("dataset");
    ImageFolderPrepare.Result r = ImageFolderPrepare.run(spark, input.toString(), out.toString(),
        Map.of("writeMode", "jpg", "maxResolution", "128", "pageSize", "2M"), 0, false);
    assertThat(r.classes()).containsExactly("circle", "cross", "diamond", "ring", "square", "star", "stripes", "triangle");
    assertThat(r.samples()).isEqualTo(48);
    assertThat(r.samplesPerClass()).containsEntry("circle", 6L).containsEntry("triangle", 6L);
    DatasetManifest m = DatasetManifest.parse(Files.readString(out.resolve(DatasetManifest.FILE_NAME)));
    int label3 = 0;
    for (ShardEntry s : m.shards()) {
      try (BetonReader reader = BetonReader.open(out.resolve(s.path()))) {
        assertThat(BetonVerifier.verify(reader).problems()).isEmpty();
        for (long k = 0; k < reader.numSamples(); k++) {
          RgbImage img = (RgbImage) reader.value(k, 0);
          assertThat(img.mode()).isEqualTo(ImageMode.JPG);
          assertThat(Math.max(img.width(), img.height())).isLessThanOrEqualTo(128);
          label3 += reader.intValue(k, 1) == 3 ? 1 : 0;
        }
      }
    }
    assertThat(label3).isEqualTo(6); // "ring" is the 4th sorted class
    String summary = ImageFolderPrepare.summary(r, out.toString());
    assertThat(summary).contains("48 samples").contains("ring");
    Row count = spark.read().format("beton").load(out.toString()).where("label = 0").selectExpr("count(*)").first();
    assertThat(count.getLong(0)).isEqualTo(6);
  }

  @Test
  void inputProblemsAreClear() {
    assertThatThrownBy(() -> ImageFolderPrepare.run(spark, tmp.resolve("missing").toString(), tmp.resolve("o").toString(),
        Map.of(), 0, false)).hasMessageEndingWith("missing does not exist");
    assertThatThrownBy(() -> PrepareArgs.parse(new String[] {"--input", "x"})).hasMessage("--output is required with --input");
    assertThatThrownBy(() -> PrepareArgs.parse(new String[] {"--shards", "0"}))
        .hasMessage("Option --shards must be a positive integer, got '0'");
    PrepareArgs demo = PrepareArgs.parse(new String[0]);
    assertThat(demo.overwrite()).isTrue();
    assertThat(demo.demoImages()).isEqualTo(2000);
    assertThat(demo.writeOptions()).containsEntry("writeMode", "jpg").containsEntry("maxResolution", "256");
  }

  @Test
  void badImagesFailNamingTheFileOrAreQuarantined() throws Exception {
    Path input = DemoImageFolder.ensure(tmp.resolve("shapes-with-bad"), 16, 3);
    Path bad = input.resolve("star").resolve("broken.jpg");
    Files.write(bad, new byte[] {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xE0, 0, 16, 'J', 'F'});
    assertThatThrownBy(() -> ImageFolderPrepare.run(spark, input.toString(), tmp.resolve("strict").toString(),
        Map.of("pageSize", "2M"), 0, false)).hasStackTraceContaining("broken.jpg");

    Path out = tmp.resolve("quarantined");
    PrepareArgs args = PrepareArgs.parse(new String[] {"--input", input.toString(), "--output", out.toString(),
        "--bad-images", "quarantine", "--page-size", "2M"});
    ImageFolderPrepare.Result r = ImageFolderPrepare.run(spark, args.input(), args.output(), args.writeOptions(), 0,
        false);
    assertThat(r.samples()).isEqualTo(16);
    List<String> records = new java.util.ArrayList<>();
    try (java.util.stream.Stream<Path> files = Files.list(out.resolve("_quarantine"))) {
      for (Path f : files.filter(f -> f.toString().endsWith(".jsonl")).toList()) {
        records.addAll(Files.readAllLines(f));
      }
    }
    assertThat(records).singleElement().asString().contains("broken.jpg").contains("\"column\":\"image\"");
  }
}
