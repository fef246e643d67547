package org.sparkbeton.format.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.ReadOptions;
import org.sparkbeton.format.io.ByteArraySource;
import org.sparkbeton.format.testing.GoldenFiles;

class BetonVerifierTest {
  @TempDir Path tmp;

  static Iterable<String> names() {
    return GoldenFiles.NAMES;
  }

  @ParameterizedTest
  @MethodSource("names")
  void everyGoldenFileIsClean(String name) throws Exception {
    try (BetonReader r = BetonReader.open(GoldenFiles.path(name))) {
      VerifyReport report = BetonVerifier.verify(r);
      assertThat(report.problems()).isEmpty();
      assertThat(report.ok()).isTrue();
      assertThat(report.samples()).isEqualTo(GoldenFiles.expected(name).get("num_samples").asLong());
    }
  }

  @Test
  void jpegWidthThatDisagreesWithTheFrameIsReported() throws Exception {
    byte[] file = GoldenFiles.bytes("jpg_labels");
    long record3 = 24 + 2 * 1041 + 3 * 24L; // image@0 (13 B), label@16: record size 24
    ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN).putShort((int) record3 + 1, (short) 999);
    VerifyReport report = verify(file);
    assertThat(report.ok()).isFalse();
    assertThat(report.problems()).anySatisfy(p -> assertThat(p)
        .contains("sample 3 field 'image'").contains("JPEG frame is 83x61 but the metadata says 999x61"));
  }

  @Test
  void pointerIntoTheMiddleOfAnAllocationIsReported() throws Exception {
    byte[] file = GoldenFiles.bytes("every_field");
    try (BetonReader r = BetonReader.open(GoldenFiles.path("every_field"))) {
      int field = r.fieldIndex("array");
      long at = r.metadataStart() + 5 * r.layout().recordSize() + r.layout().offset(field);
      ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
      b.putLong((int) at, b.getLong((int) at) + 4);
    }
    VerifyReport report = verify(file);
    assertThat(report.problems()).anySatisfy(p -> assertThat(p)
        .startsWith("sample 5 field 'array': pointer").endsWith("matches no allocation entry"));
    assertThat(report.problems()).anySatisfy(p -> assertThat(p).contains("is referenced by no metadata pointer"));
  }

  @Test
  void allocationCrossingAPageIsReported() throws Exception {
    byte[] file = GoldenFiles.bytes("page_spill");
    ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
    long table = b.getLong(16);
    // Grow the first entry (array 'a', 50,000 bytes) so that it runs past the page end.
    b.putLong((int) table + 16, 3L << 20);
    VerifyReport report = verify(file);
    assertThat(report.problems()).anySatisfy(p -> assertThat(p).contains("crosses a page boundary"));
  }

  private static VerifyReport verify(byte[] file) throws Exception {
    try (BetonReader r = BetonReader.open(new ByteArraySource("mutated.beton", file), ReadOptions.defaults())) {
      return BetonVerifier.verify(r);
    }
  }
}
