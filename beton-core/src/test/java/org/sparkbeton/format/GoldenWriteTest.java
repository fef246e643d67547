package org.sparkbeton.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sparkbeton.format.dump.SampleJson;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.format.testing.GoldenFiles;
import org.sparkbeton.format.tools.Rewrite;
import org.sparkbeton.format.write.BetonWriter;
import org.sparkbeton.format.write.PageLayout;

/** Our writer reproduces FFCV's single-worker files byte for byte, orphan bytes included. */
class GoldenWriteTest {
  @TempDir Path tmp;

  @Test
  void workedExampleFromItsValues() throws Exception {
    Path out = tmp.resolve("worked.beton");
    List<BetonField> fields = List.of(new BetonField("image", RgbImageField.INSTANCE), new BetonField("label", IntField.INSTANCE));
    try (BetonWriter w = BetonWriter.builder(fields).pageLayout(PageLayout.FFCV).open(out)) {
      w.append(RgbImage.raw(32, 32, filled(32 * 32 * 3, 0x0A)), 7L);
      w.append(RgbImage.raw(32, 32, filled(32 * 32 * 3, 0x14)), 3L);
      w.finish();
    }
    assertThat(Files.size(out)).isEqualTo(16_777_264L);
    assertSameBytes(out, GoldenFiles.path("worked_example"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"worked_example", "jpg_labels", "page_spill", "scalars_only"})
  void singleThreadRewriteIsByteIdentical(String name) throws Exception {
    Path out = tmp.resolve(name + ".beton");
    try (BetonReader in = BetonReader.open(GoldenFiles.path(name))) {
      Rewrite.run(in, out, in.pageSize(), 1);
    }
    assertSameBytes(out, GoldenFiles.path(name));
  }

  /** every_field was written by 2 FFCV workers with its table shuffled: not reproducible, but every value is. */
  @ParameterizedTest
  @ValueSource(ints = {1, 3})
  void everyFieldRewriteKeepsEveryValue(int threads) throws Exception {
    Path out = tmp.resolve("every_field.beton");
    try (BetonReader in = BetonReader.open(GoldenFiles.path("every_field"))) {
      Rewrite.run(in, out, in.pageSize(), threads);
      try (BetonReader back = BetonReader.open(out)) {
        SampleJson a = new SampleJson(in, null);
        SampleJson b = new SampleJson(back, null);
        assertThat(back.numSamples()).isEqualTo(60);
        for (long s = 0; s < in.numSamples(); s++) {
          assertThat(b.row(s)).isEqualTo(a.row(s));
        }
      }
    }
  }

  static byte[] filled(int n, int value) {
    byte[] b = new byte[n];
    Arrays.fill(b, (byte) value);
    return b;
  }

  static void assertSameBytes(Path actual, Path expected) throws Exception {
    byte[] a = Files.readAllBytes(actual);
    byte[] e = Files.readAllBytes(expected);
    assertThat(a.length).as("file size").isEqualTo(e.length);
    int mismatch = Arrays.mismatch(a, e);
    assertThat(mismatch).as("first differing byte offset").isEqualTo(-1);
  }
}
