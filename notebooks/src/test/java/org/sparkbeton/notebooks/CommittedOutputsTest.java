package org.sparkbeton.notebooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.codec.jpeg.JpegHeader;
import org.sparkbeton.codec.testing.TestPhotos;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.SparkBetonVersion;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.format.verify.BetonVerifier;
import org.sparkbeton.format.verify.VerifyReport;
import org.sparkbeton.format.write.BetonWriter;
import org.sparkbeton.format.write.WriteResult;

/**
 * The committed outputs are today's: what they print that the code alone determines (no timing, nothing a machine
 * or a codec changes) is what the code gives now. A notebook whose outputs were saved before a change to the
 * writer, the manifest or the version fails here until it is re-run with {@code bin/beton-notebook --execute
 * --save}. Needs no Jupyter; {@link NotebookFile#problems} finds the paths of the machine that ran them.
 */
class CommittedOutputsTest {
  private static final String RERUN = " (re-run the notebooks: bin/beton-notebook --execute --save)";

  @TempDir
  Path dir;

  /** 01 prints the manifest the Spark writer wrote: this build's manifest version and writer, a valid checksum. */
  @Test
  void theManifestIsTheOneThisBuildWrites() {
    String out = stdout("01-prepare-and-look.ipynb");
    String json = group(out, "(?s)(\\{\\n  \"format\": \"beton-dataset\",.*?\\n}\\n)");
    assertThat(group(json, "\"format_version\": (\\d+)")).as("format_version of 01's manifest" + RERUN)
        .isEqualTo(String.valueOf(DatasetManifest.FORMAT_VERSION));
    assertThat(group(json, "\"created_by\": \"([^\"]*)\"")).as("created_by of 01's manifest" + RERUN)
        .isEqualTo(SparkBetonVersion.writer());
    DatasetManifest manifest = DatasetManifest.parse(json); // a version 2 manifest is checked against its checksum
    assertThat(manifest.hasContentChecksum()).as("01's manifest carries its checksum").isTrue();
    assertThat(manifest.totalSamples()).isEqualTo(192);
    for (ShardEntry shard : manifest.shards()) {
      assertThat(out).as("01's listing of the dataset folder").containsPattern("(?m)^  " + Pattern.quote(shard.path())
          + " +" + String.format(Locale.ROOT, "%,d", shard.bytes()) + " bytes$");
    }
  }

  /**
   * 03 prints the size and pages of photos.beton and the verifier's count of its pages: the test writes the file
   * again as 03's cell does (24 photos of seed 3, label i % 3, the writer's defaults) and compares.
   */
  @Test
  void photosBetonIsTheFileTheWriterWritesToday() throws IOException {
    String out = stdout("03-ffcv-compatibility.ipynb");
    Path file = dir.resolve("photos.beton");
    List<BetonField> fields = List.of(new BetonField("image", RgbImageField.INSTANCE),
        new BetonField("label", IntField.INSTANCE));
    WriteResult result;
    try (BetonWriter writer = BetonWriter.builder(fields).open(file); JpegCodec codec = JpegCodecs.fastest()) {
      JpegHeader header = new JpegHeader();
      for (int i = 0; i < 24; i++) {
        byte[] jpeg = TestPhotos.photo(3, i);
        codec.probe(ByteBuffer.wrap(jpeg), header);
        writer.append(RgbImage.jpeg(header.width(), header.height(), jpeg), (long) (i % 3));
      }
      result = writer.finish();
    }
    assertThat(group(out, "(?m)^(photos\\.beton: .*)$")).as("03's line for the file it wrote" + RERUN)
        .isEqualTo(String.format(Locale.ROOT, "photos.beton: %,d samples, %,d pages of %,d bytes, %,d bytes",
            result.numSamples(), result.numPages(), result.pageSize(), result.fileSize()));
    VerifyReport report;
    try (BetonReader reader = BetonReader.open(file)) {
      report = BetonVerifier.verify(reader);
    }
    assertThat(group(out, "(?m)^(verify: .*)$")).as("03's verifier line" + RERUN)
        .isEqualTo(String.format("verify: %d samples, %d allocations in %d pages, 0 problems []", report.samples(),
            report.allocations(), report.pages()));
  }

  private static String stdout(String notebook) {
    return NotebookFile.read(Notebooks.MODULE.resolve(notebook)).stdout();
  }

  private static String group(String text, String regex) {
    Matcher m = Pattern.compile(regex).matcher(text);
    if (!m.find()) {
      fail("No match of /" + regex + "/ in:\n" + text);
    }
    return m.group(1);
  }
}
