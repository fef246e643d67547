package org.sparkbeton.loader.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.loader.DatasetsAccess;
import org.sparkbeton.loader.io.Shards;

/** A scan fetches each metadata chunk once per run of records, and visits what the per-sample lookups give. */
class FieldSourceScanTest {
  @TempDir Path dir;

  @Test
  void scanVisitsTheSamplesInTheirOrderAcrossFilesWithEachOnesRecord() throws Exception {
    // three files of 5, 7 and 4 samples: global samples 0-4, 5-11, 12-15; label 1000 + the index in its file
    List<Path> files = List.of(DatasetsAccess.rawImages(dir, 5, 4, 4), DatasetsAccess.rawImages(dir, 7, 4, 4),
        DatasetsAccess.rawImages(dir, 4, 4, 4));
    int[] samples = {12, 0, 4, 5, 11, 6, 3, 15, 13, 14, 1};
    try (Shards shards = Shards.open(files)) {
      FieldSource label = new FieldSource(shards, shards.reader(0).fieldIndex("label"), samples);
      assertThat(shards.reader(1).recordChunkStart(3)).isZero();
      assertThat(shards.reader(1).recordChunkEnd(3)).isEqualTo(7);
      List<Long> scanned = new ArrayList<>();
      List<Integer> order = new ArrayList<>();
      label.scan((s, rec, at) -> {
        order.add(s);
        scanned.add(rec.getLong(at));
        assertThat(at).isEqualTo(label.at(s));
      });
      assertThat(order).containsExactly(12, 0, 4, 5, 11, 6, 3, 15, 13, 14, 1);
      assertThat(scanned).containsExactly(1000L, 1000L, 1004L, 1000L, 1006L, 1001L, 1003L, 1003L, 1001L, 1002L,
          1001L);
      for (int s : samples) {
        assertThat(label.records(s).getLong(label.at(s))).isEqualTo(scanned.get(order.indexOf(s)));
      }
    }
  }
}
