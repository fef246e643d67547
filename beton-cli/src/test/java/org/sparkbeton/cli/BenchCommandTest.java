package org.sparkbeton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.format.testing.GoldenFiles;
import org.sparkbeton.loader.testing.PhotoFiles;

/** {@code beton bench}: the table, the JSON, the decode limit of the same crops. */
class BenchCommandTest {
  @TempDir
  static Path tmp;
  static Path photos;

  @BeforeAll
  static void write() throws IOException {
    photos = PhotoFiles.write(tmp, "photos", 60, 9);
  }

  @Test
  void jsonHasEveryEpochOfTheSubsetAndTheDecodeLimitBesideTheLaterOnes() throws IOException {
    Cli.Result r = Cli.run("bench", photos, "--json", "--epochs", 3, "--samples", 48, "--batch", 16, "--threads", 1,
        "--decode-limit");

    assertThat(r.exitCode()).as(r.err()).isZero();
    JsonNode b = new ObjectMapper().readTree(r.out());
    assertThat(b.get("samples_per_epoch").asInt()).isEqualTo(48);
    assertThat(b.get("dataset_samples").asInt()).isEqualTo(60);
    assertThat(b.get("codec").asText()).isEqualTo(JpegCodecs.description());
    assertThat(b.get("epochs")).hasSize(3);
    for (JsonNode e : b.get("epochs")) {
      assertThat(e.get("images").asInt()).as("3 whole batches of 16").isEqualTo(48);
      assertThat(e.get("decode_seconds").asDouble()).as("profiled").isPositive();
      assertThat(e.get("decode_seconds").asDouble()).isLessThanOrEqualTo(e.get("busy_seconds").asDouble());
    }
    assertThat(b.get("decode_limit")).as("epochs 2 and 3").hasSize(2);
    assertThat(b.get("fraction_of_decode_limit").asDouble()).isPositive();
    assertThat(b.get("rest_median_per_second").asDouble()).isBetween(b.get("rest_min_per_second").asDouble(),
        b.get("rest_max_per_second").asDouble());
  }

  @Test
  void theTableShowsEpochOneTheRestAndTheStages() {
    Cli.Result r = Cli.run("bench", photos, "--epochs", 2, "--samples", 0, "--batch", 20, "--threads", 2,
        "--pipeline", "center224", "--decode-limit");

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("beton bench: " + photos + " (60 of 60 samples per epoch, 100% JPEG")
        .contains("\npipeline center224: CenterCrop 224 (ratio 224/256) + normalize float16 NCHW; batch 20, 2 threads,"
            + " order random, cache os\n")
        .contains("\ncodec " + JpegCodecs.description() + "; ")
        .contains("\n|  | images/s | images per CPU-second |\n|---|---:|---:|\n| epoch 1 (building the loader included) | ")
        .contains("\n| epoch 2, median | ")
        .contains("\n| decode limit: the bare codec on the same crops, epoch 2, median | ")
        .contains("\n| the loader / the decode limit, median of epoch 2 | ")
        .contains("\nper image, epoch 2 (worker time): decode ");
  }

  @Test
  void noDecodeLimitForRawImages() throws IOException {
    Cli.Result r = Cli.run("bench", GoldenFiles.path("every_field"), "--epochs", 2, "--batch", 4, "--threads", 1,
        "--decode-limit", "--json");

    assertThat(r.exitCode()).as(r.err()).isZero();
    JsonNode b = new ObjectMapper().readTree(r.out());
    assertThat(b.get("decode_limit")).isEmpty();
    assertThat(b.get("decode_limit_note").asText()).isEqualTo("not measured: the decode limit is the codec's, and"
        + " some of the samples are stored raw");
  }
}
