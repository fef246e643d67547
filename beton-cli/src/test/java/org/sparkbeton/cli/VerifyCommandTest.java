package org.sparkbeton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sparkbeton.format.testing.GoldenFiles;

class VerifyCommandTest {
  /** jpg_labels: 2 descriptors, so records of 24 bytes start at 24 + 2 * 1041. */
  private static final int RECORDS = 24 + 2 * 1041;
  private static final int RECORD_SIZE = 24;

  @TempDir
  Path tmp;

  static Iterable<String> names() {
    return GoldenFiles.NAMES;
  }

  @ParameterizedTest
  @MethodSource("names")
  void everyGoldenFileIsSound(String name) {
    Cli.Result r = Cli.run("verify", GoldenFiles.path(name));

    assertThat(r.exitCode()).as(r.out()).isZero();
    assertThat(r.out()).startsWith(GoldenFiles.path(name) + ": OK (");
    assertThat(r.err()).isEmpty();
  }

  @Test
  void aWrongImageWidthIsReported() throws Exception {
    ByteBuffer b = jpgLabels();
    int width = Short.toUnsignedInt(b.getShort(RECORDS + 3 * RECORD_SIZE + 1));
    int height = Short.toUnsignedInt(b.getShort(RECORDS + 3 * RECORD_SIZE + 3));
    b.putShort(RECORDS + 3 * RECORD_SIZE + 1, (short) (width + 1));
    Path bad = write("width.beton", b);

    Cli.Result r = Cli.run("verify", bad);

    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.outLines()).containsExactly(
        bad + ": FAILED, 1 problem (40 samples, 40 allocations, 1 page)",
        "  - sample 3 field 'image': JPEG frame is " + width + "x" + height + " but the metadata says "
            + (width + 1) + "x" + height);
  }

  @Test
  void aPointerThatMissesItsAllocationIsReported() throws Exception {
    ByteBuffer b = jpgLabels();
    int at = RECORDS + 5 * RECORD_SIZE + 5;
    long ptr = b.getLong(at);
    b.putLong(at, ptr + 7);
    Path bad = write("pointer.beton", b);

    Cli.Result r = Cli.run("verify", bad);

    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.out())
        .contains(bad + ": FAILED")
        .contains("  - sample 5 field 'image': pointer " + (ptr + 7) + " matches no allocation entry\n")
        .contains("  - allocation at " + ptr + " (sample 5, ");
  }

  @Test
  void decodeChecksEveryJpeg() {
    Cli.Result r = Cli.run("verify", "--decode", GoldenFiles.path("every_field"));

    assertThat(r.exitCode()).as(r.out()).isZero();
    int jpegs = 0;
    for (com.fasterxml.jackson.databind.JsonNode sample : GoldenFiles.expected("every_field").get("samples")) {
      jpegs += "jpg".equals(sample.get(0).get("mode").asText()) ? 1 : 0;
    }
    assertThat(r.out()).isEqualTo(GoldenFiles.path("every_field") + ": OK (60 samples, 300 allocations, 2 pages, "
        + jpegs + " JPEGs decoded)\n");
  }

  @Test
  void decodeReportsAJpegWhoseEntropyDataIsGone() throws Exception {
    ByteBuffer b = jpgLabels();
    long ptr = b.getLong(RECORDS + 7 * RECORD_SIZE + 5);
    int sos = -1;
    for (int i = (int) ptr; i < ptr + 4000; i++) {
      if ((b.get(i) & 0xff) == 0xFF && (b.get(i + 1) & 0xff) == 0xDA) {
        sos = i;
        break;
      }
    }
    assertThat(sos).isPositive();
    // keep the headers (so the frame size still matches) and wipe everything from the start of scan on
    for (int i = sos; i < sos + 400; i++) {
      b.put(i, (byte) 0);
    }
    Path bad = write("scan.beton", b);

    assertThat(Cli.run("verify", bad).exitCode()).as("structure is intact").isZero();
    Cli.Result r = Cli.run("verify", "--decode", bad);

    assertThat(r.exitCode()).as(r.out()).isEqualTo(1);
    assertThat(r.outLines().get(0)).isEqualTo(bad + ": FAILED, 1 problem (40 samples, 40 allocations, 1 page, 39 JPEGs"
        + " decoded)");
    assertThat(r.outLines().get(1)).startsWith("  - sample 7 field 'image': JPEG");
  }

  @Test
  void aTruncatedFileFailsVerification() throws Exception {
    byte[] bytes = GoldenFiles.bytes("jpg_labels");
    Path bad = tmp.resolve("short.beton");
    Files.write(bad, Arrays.copyOf(bytes, bytes.length - 100));

    Cli.Result r = Cli.run("verify", bad);

    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.outLines()).hasSize(2);
    assertThat(r.outLines().get(0)).isEqualTo(bad + ": FAILED, 1 problem");
    assertThat(r.outLines().get(1)).startsWith("  - " + bad + ": allocation table at offset 4194304:");
  }

  @Test
  void severalFilesFailWhenAnyFails() throws Exception {
    ByteBuffer b = jpgLabels();
    b.putShort(RECORDS + 1, (short) 9);
    Path bad = write("one.beton", b);

    Cli.Result r = Cli.run("verify", GoldenFiles.path("worked_example"), bad);

    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.outLines().get(0)).startsWith(GoldenFiles.path("worked_example") + ": OK");
    assertThat(r.outLines().get(1)).startsWith(bad + ": FAILED, 1 problem");
  }

  private static ByteBuffer jpgLabels() {
    return ByteBuffer.wrap(GoldenFiles.bytes("jpg_labels")).order(ByteOrder.LITTLE_ENDIAN);
  }

  private Path write(String name, ByteBuffer b) throws Exception {
    Path p = tmp.resolve(name);
    Files.write(p, b.array());
    return p;
  }
}
