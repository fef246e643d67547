package org.sparkbeton.format.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.dump.SampleJson;
import org.sparkbeton.format.testing.FfcvPageReads;
import org.sparkbeton.format.testing.GoldenFiles;
import org.sparkbeton.format.verify.BetonVerifier;
import org.sparkbeton.format.write.PageLayout;
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

  /** Compact inputs (samples in page 0 behind the metadata, short last pages) merge into a compact file. */
  @Test
  void compactInputsMergeIntoACompactFile() throws Exception {
    Path every = tmp.resolve("every.beton");
    Path spill = tmp.resolve("spill.beton");
    try (BetonReader e = BetonReader.open(GoldenFiles.path("every_field"));
         BetonReader p = BetonReader.open(GoldenFiles.path("page_spill"))) {
      Rewrite.run(e, every, e.pageSize(), 1, PageLayout.COMPACT);
      Rewrite.run(p, spill, p.pageSize(), 1, PageLayout.COMPACT);
    }
    Path out = tmp.resolve("merged.beton");
    try (BetonReader a = BetonReader.open(every);
         BetonReader b = BetonReader.open(GoldenFiles.path("every_field"))) {
      assertThat(Merge.isWholePages(a)).isFalse();
      assertThat(Merge.isWholePages(b)).isTrue();
      WriteResult result = Merge.run(List.of(a, b, a), out);
      assertThat(result.numSamples()).isEqualTo(180);
      try (BetonReader m = BetonReader.open(out)) {
        assertThat(BetonVerifier.verify(m).problems()).isEmpty();
        SampleJson ja = new SampleJson(a, null);
        SampleJson jm = new SampleJson(m, null);
        for (int s = 0; s < 60; s++) {
          assertThat(jm.row(s)).isEqualTo(ja.row(s));
          assertThat(jm.row(60 + s)).isEqualTo(ja.row(s));
          assertThat(jm.row(120 + s)).isEqualTo(ja.row(s));
        }
        // compact: data from the metadata end, the file ends with the last sample and the table
        assertThat(m.allocations().ptr(0)).isEqualTo(m.metadataEnd());
        long payload = 0;
        for (int i = 0; i < m.allocations().size(); i++) {
          payload += Math.max(1, m.allocations().size(i));
        }
        assertThat(m.header().allocTablePtr() - m.metadataEnd()).isEqualTo(payload);
        assertThat(result.fileSize()).isEqualTo(Files.size(out)).isLessThan(a.source().length() * 3 + 3 * 100_000);
      }
      assertThat(FfcvPageReads.processCache(out)).isEqualTo(FfcvPageReads.osCache(out));
    }
    // multi-page compact inputs: samples may not straddle the merged file's pages either
    Path spills = tmp.resolve("spills.beton");
    try (BetonReader a = BetonReader.open(spill); BetonReader b = BetonReader.open(GoldenFiles.path("page_spill"))) {
      Merge.run(List.of(a, b, a), spills);
      try (BetonReader m = BetonReader.open(spills)) {
        assertThat(BetonVerifier.verify(m).problems()).isEmpty();
        SampleJson jb = new SampleJson(b, null);
        SampleJson jm = new SampleJson(m, null);
        for (int s = 0; s < 20; s++) {
          assertThat(jm.row(s)).isEqualTo(jb.row(s));
          assertThat(jm.row(20 + s)).isEqualTo(jb.row(s));
          assertThat(jm.row(40 + s)).isEqualTo(jb.row(s));
        }
        // 60 samples of 350,000 bytes, five per 2 MiB page: 12 pages, the last one full up to its fifth sample
        assertThat(m.header().allocTablePtr()).isEqualTo(11 * (2L << 20) + 5 * 350_000);
      }
      List<List<ByteBuffer>> pages = FfcvPageReads.processCache(spills);
      assertThat(pages).isEqualTo(FfcvPageReads.osCache(spills));
      assertThat(pages.get(45)).isEqualTo(pages.get(5));
    }
  }
}
