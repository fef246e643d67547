package org.sparkbeton.format.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.dump.SampleJson;
import org.sparkbeton.format.testing.GoldenFiles;
import org.sparkbeton.format.verify.BetonVerifier;
import org.sparkbeton.format.write.WriteResult;

class MergeTest {
  @TempDir Path tmp;

  @Test
  void mergedFileHoldsBothInputsInOrderAndVerifies() throws Exception {
    Path half = tmp.resolve("half.beton");
    try (BetonReader spill = BetonReader.open(GoldenFiles.path("page_spill"))) {
      Rewrite.run(spill, half, spill.pageSize(), 1);
    }
    Path out = tmp.resolve("merged.beton");
    try (BetonReader a = BetonReader.open(GoldenFiles.path("page_spill"));
         BetonReader b = BetonReader.open(half)) {
      WriteResult result = Merge.run(List.of(a, b), out);
      assertThat(result.numSamples()).isEqualTo(40);
      try (BetonReader m = BetonReader.open(out)) {
        assertThat(BetonVerifier.verify(m).problems()).isEmpty();
        SampleJson ja = new SampleJson(a, null);
        SampleJson jm = new SampleJson(m, null);
        for (int s = 0; s < 20; s++) {
          assertThat(jm.row(s)).isEqualTo(ja.row(s));
          assertThat(jm.row(20 + s)).isEqualTo(ja.row(s));
        }
        // page_spill has 4 full pages; the copy keeps them, orphans included
        assertThat(result.numPages()).isEqualTo(8);
      }
    }
  }

  @Test
  void scalarOnlyFilesMergeWithoutPages() throws Exception {
    Path out = tmp.resolve("scalars.beton");
    try (BetonReader a = BetonReader.open(GoldenFiles.path("scalars_only"))) {
      WriteResult result = Merge.run(List.of(a, a), out);
      assertThat(result.numPages()).isZero();
      try (BetonReader m = BetonReader.open(out)) {
        assertThat(m.numSamples()).isEqualTo(2000);
        assertThat(m.intValue(1999, 0)).isEqualTo(a.intValue(999, 0));
      }
    }
  }

  @Test
  void differentFieldsOrPageSizesAreRefused() throws Exception {
    Path four = tmp.resolve("jpg4.beton");
    try (BetonReader jpg = BetonReader.open(GoldenFiles.path("jpg_labels"))) {
      Rewrite.run(jpg, four, 4 << 20, 1);
    }
    try (BetonReader jpg = BetonReader.open(GoldenFiles.path("jpg_labels"));
         BetonReader every = BetonReader.open(GoldenFiles.path("every_field"));
         BetonReader jpg4 = BetonReader.open(four)) {
      assertThatThrownBy(() -> Merge.run(List.of(jpg, every), tmp.resolve("x.beton")))
          .hasMessageContaining("Cannot merge").hasMessageContaining("fields");
      assertThatThrownBy(() -> Merge.run(List.of(jpg, jpg4), tmp.resolve("y.beton")))
          .hasMessageContaining("page size 4194304 differs").hasMessageContaining("--page-size 2097152");
    }
  }
}
