package org.sparkbeton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.DatasetVerifier;
import org.sparkbeton.format.dataset.ManifestField;
import org.sparkbeton.format.dataset.ShardChecksum;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.loader.testing.PhotoFiles;

/**
 * {@code beton doctor} with known answers on real photos at full resolution (240-500 px, q90): one thread and no
 * consumer is JPEG-decode bound and gets resizing at write and a raw proportion prescribed; a consumer far slower
 * than the loader is consumer bound ("the loader is not your bottleneck"). Storage through a throttled source:
 * loader-runtime's DoctorTest. Errors: DoctorErrorsTest.
 */
class DoctorCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  static Path tmp;
  static Path photos;

  @BeforeAll
  static void write() throws IOException {
    photos = PhotoFiles.write(tmp, "photos", 96, 3);
  }

  static JsonNode doctor(Object... args) throws IOException {
    List<Object> argv = new ArrayList<>(List.of("doctor", photos, "--json", "--seconds", 3, "--sample", 48));
    argv.addAll(List.of(args));
    Cli.Result r = Cli.run(argv.toArray());
    assertThat(r.err()).as("stderr").doesNotContain("Exception");
    assertThat(r.exitCode()).as(r.err()).isZero();
    return JSON.readTree(r.out());
  }

  static List<String> ids(JsonNode changes) {
    List<String> out = new ArrayList<>();
    changes.forEach(c -> out.add(c.get("id").asText()));
    return out;
  }

  @Test
  void oneThreadOnFullResolutionPhotosIsDecodeBoundAndGetsResizingAndARawProportion() throws IOException {
    JsonNode d = doctor("--threads", 1);

    assertThat(d.at("/bound/resource").asText()).isEqualTo("decode");
    assertThat(d.at("/bound/summary").asText()).startsWith("JPEG decode bounds training: 1 thread delivers ");
    assertThat(d.at("/measured/per_thread/decode_share").asDouble()).as("decode's share of the worker's time")
        .isGreaterThan(0.5);
    assertThat(d.at("/measured/reads/steady_limit").isNull()).as("4 MiB fit in the page cache: no steady reads")
        .isTrue();
    assertThat(ids(d.get("changes"))).as("the changes listed in %s", d).contains("resized", "proportion");
    for (JsonNode c : d.get("changes")) {
      assertThat(c.get("gain").asDouble()).as(c.get("id").asText()).isGreaterThan(1.05);
      if (c.get("id").asText().equals("resized")) {
        assertThat(c.get("how").asText()).startsWith("beton prepare --max-resolution 256");
        assertThat(c.get("evidence").asText()).contains("fewer bytes per image")
            .endsWith("measured on 48 samples re-encoded in memory");
      }
      if (c.get("id").asText().equals("proportion")) {
        assertThat(c.get("how").asText()).startsWith("beton prepare --max-resolution 256 --mode proportion");
      }
    }
    assertThat(d.at("/setup/consumer").isNull()).isTrue();
  }

  @Test
  void aConsumerSlowerThanTheLoaderIsTheBottleneck() throws IOException {
    JsonNode d = doctor("--threads", 1, "--batch", 16, "--consumer-ms", 1000);

    assertThat(d.at("/bound/resource").asText()).isEqualTo("consumer");
    assertThat(d.at("/measured/consumer_per_second").asDouble()).isEqualTo(16);
    assertThat(d.get("changes")).isEmpty();
    assertThat(d.get("not_worth_changing").get(0).asText())
        .matches("the loader is not your bottleneck: it delivers [\\d,]+ img/s and your step consumes 16");
    assertThat(d.at("/measured/end_to_end/per_second").asDouble()).as("a 1 s step per batch of 16 caps the run")
        .isPositive().isLessThanOrEqualTo(16.5);
    assertThat(d.at("/measured/end_to_end/waited_fraction").asDouble()).isLessThan(0.5);
  }

  @Test
  void theTextReportSaysWhatBoundsAndWhatToChange() {
    Cli.Result r = Cli.run("doctor", photos, "--threads", 1, "--seconds", 2, "--sample", 24, "--batch", 16,
        "--consumer-rate", 4);

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("beton doctor: " + photos + " (1 file of ")
        .contains(" MiB, 96 samples, 2 pages of 2 MiB on ")
        .contains("\nconsumer      --consumer-rate 4 at batch 16 = 4 img/s\n")
        .contains("\n  storage     whole pages ")
        .contains("\n  per thread  decode ")
        .contains("\ndiagnosis\n  the consumer (your training step) bounds training: it takes 4 img/s")
        .contains("\nnot worth changing\n  - the loader is not your bottleneck: it delivers ");
  }

  @Test
  void aDatasetDirectoryIsDiagnosedAcrossItsShards() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("dataset"));
    List<ShardEntry> entries = new ArrayList<>();
    for (String name : List.of("part-00000.beton", "part-00001.beton")) {
      Path shard = Files.copy(photos, dir.resolve(name));
      entries.add(new ShardEntry(name, 96, Files.size(shard),
          new ShardChecksum(ShardChecksum.SHA256, DatasetVerifier.checksum(shard, ShardChecksum.SHA256)), Map.of()));
    }
    List<ManifestField> fields;
    try (BetonReader r = BetonReader.open(photos)) {
      fields = r.fields().stream().map(ManifestField::of).toList();
    }
    Files.writeString(dir.resolve(DatasetManifest.FILE_NAME),
        new DatasetManifest(fields, entries, Map.of(), "test").toJson());

    Cli.Result r = Cli.run("doctor", dir, "--json", "--threads", 1, "--seconds", 1, "--sample", 16, "--batch", 8);

    assertThat(r.exitCode()).as(r.err()).isZero();
    JsonNode d = JSON.readTree(r.out());
    assertThat(d.at("/dataset/files").asInt()).isEqualTo(2);
    assertThat(d.at("/dataset/samples").asInt()).isEqualTo(192);
    assertThat(d.at("/dataset/pages").asInt()).isEqualTo(4);
  }
}
