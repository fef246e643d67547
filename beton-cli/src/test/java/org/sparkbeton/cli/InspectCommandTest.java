package org.sparkbeton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.format.tools.Rewrite;
import org.sparkbeton.format.write.PageLayout;
import org.sparkbeton.format.testing.GoldenFiles;

class InspectCommandTest {

  @Test
  void jpgLabelsJson() {
    Cli.Result r = Cli.run("inspect", "--json", GoldenFiles.path("jpg_labels"));

    assertThat(r.exitCode()).as(r.err()).isZero();
    JsonNode j = GoldenFiles.parse(r.out());
    assertThat(j.get("num_samples").asLong()).isEqualTo(40);
    assertThat(j.get("page_size").asLong()).isEqualTo(2L << 20);
    assertThat(j.get("pages").asLong()).isEqualTo(1);
    assertThat(j.get("pages_used").asLong()).isEqualTo(1);
    assertThat(j.get("record_size").asInt()).isEqualTo(24);
    assertThat(j.get("allocations").asLong()).isEqualTo(40);

    // every allocation of jpg_labels is an image payload: the image field owns the table's total
    long tableTotal = allocationTableTotal(GoldenFiles.bytes("jpg_labels"));
    assertThat(tableTotal).isGreaterThan(40 * 100);
    JsonNode image = j.get("fields").get(0);
    assertThat(image.get("name").asText()).isEqualTo("image");
    assertThat(image.get("type_id").asInt()).isEqualTo(2);
    assertThat(image.get("allocations").asLong()).isEqualTo(40);
    assertThat(image.get("payload_bytes").asLong()).isEqualTo(tableTotal);
    assertThat(j.get("allocated_bytes").asLong()).isEqualTo(tableTotal);
    assertThat(j.get("unused_bytes").asLong()).isEqualTo((2L << 20) - tableTotal);
    assertThat(j.get("page_tail_bytes").asLong()).isEqualTo((2L << 20) - tableTotal);
    assertThat(j.get("gap_bytes").asLong()).isZero();
    JsonNode label = j.get("fields").get(1);
    assertThat(label.get("name").asText()).isEqualTo("label");
    assertThat(label.get("metadata_offset").asInt()).isEqualTo(16);
    assertThat(label.get("payload_bytes").asLong()).isZero();

    // mode and size histograms agree with the expected values FFCV read back
    TreeMap<String, Integer> sizes = new TreeMap<>();
    int jpg = 0;
    for (JsonNode sample : GoldenFiles.expected("jpg_labels").get("samples")) {
      JsonNode img = sample.get(0);
      jpg += "jpg".equals(img.get("mode").asText()) ? 1 : 0;
      sizes.merge(img.get("width").asInt() + "x" + img.get("height").asInt(), 1, Integer::sum);
    }
    assertThat(jpg).isEqualTo(40);
    JsonNode hist = j.get("images").get(0);
    assertThat(hist.get("field").asText()).isEqualTo("image");
    assertThat(hist.get("modes").get("jpg").asLong()).isEqualTo(40);
    assertThat(hist.get("modes").get("raw").asLong()).isZero();
    TreeMap<String, Integer> reported = new TreeMap<>();
    hist.get("sizes").fields().forEachRemaining(e -> reported.put(e.getKey(), e.getValue().asInt()));
    assertThat(reported).isEqualTo(sizes);
  }

  @Test
  void jpgLabelsText() {
    Cli.Result r = Cli.run("inspect", GoldenFiles.path("jpg_labels"));

    assertThat(r.exitCode()).as(r.err()).isZero();
    long total = allocationTableTotal(GoldenFiles.bytes("jpg_labels"));
    assertThat(r.out())
        .contains("samples       40\n")
        .contains("page size     2097152 (2 MiB)\n")
        .contains("pages         1 (1 holding data)\n")
        .contains("alloc table   [4194304, 4195264) 960 B, 40 entries\n")
        .containsPattern("(?m)^0  image  RGBImage \\(2\\) +\\(jpg or raw\\) +0\\+13 +40 +" + total + "$")
        .containsPattern("(?m)^1  label  Int \\(1\\) +16\\+8 +0 +0$")
        .contains("image field 'image'\n")
        .contains("  mode        jpg 40, raw 0\n")
        .contains("  longer side 33..64: 4, 65..128: 36\n")
        .contains("unused        " + ((2L << 20) - total) + " bytes: " + ((2L << 20) - total) + " in page tails (zeros and"
            + " orphans of moved samples), 0 between allocations\n")
        .contains("  sizes       40 distinct, most common first (W x H, count)\n")
        .contains("    ... 30 more sizes, 30 images\n");
  }

  @Test
  void everyFieldReportsBothImageModesAndArrayShapes() {
    JsonNode j = GoldenFiles.parse(Cli.run("inspect", "--json", GoldenFiles.path("every_field")).out());

    int raw = 0;
    for (JsonNode sample : GoldenFiles.expected("every_field").get("samples")) {
      raw += "raw".equals(sample.get(0).get("mode").asText()) ? 1 : 0;
    }
    assertThat(raw).isBetween(1, 59);
    assertThat(j.get("images").get(0).get("modes").get("raw").asInt()).isEqualTo(raw);
    assertThat(j.get("images").get(0).get("modes").get("jpg").asInt()).isEqualTo(60 - raw);
    assertThat(j.get("fields").get(5).get("detail").asText()).isEqualTo("<f4 (3, 4)");
    assertThat(j.get("fields").get(5).get("payload_bytes").asLong()).isEqualTo(60 * 48);
    assertThat(j.get("fields").get(6).get("detail").asText()).isEqualTo("<i2 (5,)");
    assertThat(j.get("fields").get(6).get("payload_bytes").asLong()).isEqualTo(60 * 10);
    assertThat(j.get("pages").asLong()).isEqualTo(2);
    long sum = 0;
    for (JsonNode f : j.get("fields")) {
      sum += f.get("payload_bytes").asLong();
    }
    assertThat(sum).isEqualTo(allocationTableTotal(GoldenFiles.bytes("every_field")));
  }

  /** A mode byte that is neither JPEG's nor raw's is counted as such (the counts summed to fewer than the samples). */
  @Test
  void aDamagedModeByteIsCountedAsOther(@TempDir Path dir) throws Exception {
    Path damaged = dir.resolve("damaged.beton");
    byte[] bytes = GoldenFiles.bytes("jpg_labels");
    long metadataStart;
    try (BetonReader in = BetonReader.open(GoldenFiles.path("jpg_labels"))) {
      metadataStart = in.metadataStart();
    }
    bytes[(int) metadataStart + 4 * 24 + RgbImageField.MODE] = (byte) 255; // sample 4; records are 24 bytes
    java.nio.file.Files.write(damaged, bytes);

    assertThat(Cli.run("inspect", damaged.toString()).out()).contains("  mode        jpg 39, raw 0, other 1 (a mode"
        + " byte neither 0 nor 1: damaged records; beton verify names them)\n");
    JsonNode modes = GoldenFiles.parse(Cli.run("inspect", "--json", damaged.toString()).out()).get("images").get(0)
        .get("modes");
    assertThat(modes.get("jpg").asInt()).isEqualTo(39);
    assertThat(modes.get("other").asInt()).isEqualTo(1);
  }

  @Test
  void aCompactFileHasItsDataBehindTheMetadataAndNoTail(@TempDir Path dir) throws Exception {
    Path compact = dir.resolve("compact.beton");
    try (BetonReader in = BetonReader.open(GoldenFiles.path("jpg_labels"))) {
      Rewrite.run(in, compact, 2L << 20, 1, PageLayout.COMPACT);
    }
    JsonNode j = GoldenFiles.parse(Cli.run("inspect", "--json", compact.toString()).out());

    // the 40 JPEGs follow the 40 records inside page 0, and the allocation table follows the last one
    long tableTotal = allocationTableTotal(GoldenFiles.bytes("jpg_labels"));
    assertThat(j.get("data_start").asLong()).isEqualTo(j.get("metadata_end").asLong());
    assertThat(j.get("pages").asLong()).isEqualTo(1);
    assertThat(j.get("pages_used").asLong()).isEqualTo(1);
    assertThat(j.get("allocated_bytes").asLong()).isEqualTo(tableTotal);
    assertThat(j.get("alloc_table_ptr").asLong()).isEqualTo(j.get("data_start").asLong() + tableTotal);
    assertThat(j.get("unused_bytes").asLong()).isZero();
    assertThat(j.get("page_tail_bytes").asLong()).isZero();
  }

  @Test
  void pageSpillLeavesItsOrphansInPageTails() {
    JsonNode j = GoldenFiles.parse(Cli.run("inspect", "--json", GoldenFiles.path("page_spill")).out());

    // a sample is 50,000 + 300,000 bytes: five fill 1,750,000 of a 2 MiB page, the sixth's first array
    // still fits (orphaned when the sample moves), its second does not; samples 5, 10 and 15 move
    assertThat(j.get("pages").asLong()).isEqualTo(4);
    assertThat(j.get("allocated_bytes").asLong()).isEqualTo(20 * 350_000);
    assertThat(j.get("gap_bytes").asLong()).isZero();
    assertThat(j.get("page_tail_bytes").asLong()).isEqualTo(4 * (2L << 20) - 20 * 350_000);
    assertThat(j.get("fields").get(0).get("payload_bytes").asLong()).isEqualTo(20 * 50_000);
    assertThat(j.get("fields").get(1).get("payload_bytes").asLong()).isEqualTo(20 * 300_000);
  }

  @Test
  void longestSideHistogram() {
    JsonNode j = GoldenFiles.parse(Cli.run("inspect", "--json", GoldenFiles.path("jpg_labels")).out());

    TreeMap<String, Integer> buckets = new TreeMap<>();
    for (JsonNode sample : GoldenFiles.expected("jpg_labels").get("samples")) {
      int side = Math.max(sample.get(0).get("width").asInt(), sample.get(0).get("height").asInt());
      buckets.merge(side <= 64 ? "33..64" : side <= 128 ? "65..128" : "more", 1, Integer::sum);
    }
    TreeMap<String, Integer> reported = new TreeMap<>();
    j.get("images").get(0).get("longest_side").fields()
        .forEachRemaining(e -> reported.put(e.getKey(), e.getValue().asInt()));
    assertThat(reported).isEqualTo(buckets);
  }

  @Test
  void scalarsOnlyHasNoPages() {
    JsonNode j = GoldenFiles.parse(Cli.run("inspect", "--json", GoldenFiles.path("scalars_only")).out());

    assertThat(j.get("num_samples").asLong()).isEqualTo(1000);
    assertThat(j.get("pages").asLong()).isZero();
    assertThat(j.get("allocations").asLong()).isZero();
    assertThat(j.get("images")).isEmpty();
  }

  /** Sum of the size column of the allocation table, parsed straight from the file bytes. */
  static long allocationTableTotal(byte[] file) {
    ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
    long total = 0;
    for (long at = b.getLong(16); at < file.length; at += 24) {
      total += b.getLong((int) at + 16);
    }
    return total;
  }
}
