package org.sparkbeton.loader;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.order.OrderOption;

class ResumeAndFilterTest {
  @TempDir
  Path dir;

  @Test
  void aSavedStateResumesWithTheSameBatchesBitForBit() throws IOException {
    Path file = Datasets.rawImages(dir, 60, 8, 6);
    List<byte[]> reference = new ArrayList<>(); // epoch 1 from batch 4, then epoch 2
    LoaderState saved;
    try (Loader a = LoaderTest.cifarLikeOn(file, 2).build()) {
      for (Batch ignored : a) {
        // epoch 0
      }
      Iterator<Batch> e1 = a.iterator();
      for (int k = 0; k < 4; k++) {
        e1.next();
      }
      saved = a.state();
      assertThat(saved).isEqualTo(new LoaderState(1, 4));
      while (e1.hasNext()) {
        Batch b = e1.next();
        reference.add(BatchBytes.of(b, "image"));
        reference.add(BatchBytes.of(b, "label"));
      }
      assertThat(a.state()).isEqualTo(new LoaderState(2, 0));
      for (Batch b : a) {
        reference.add(BatchBytes.of(b, "image"));
        reference.add(BatchBytes.of(b, "label"));
      }
    }
    List<byte[]> resumed = new ArrayList<>();
    try (Loader b = LoaderTest.cifarLikeOn(file, 1).resumeFrom(saved).build()) {
      assertThat(b.state()).isEqualTo(saved);
      for (int e = 0; e < 2; e++) {
        for (Batch batch : b) {
          assertThat(batch.epoch()).isEqualTo(1 + e);
          resumed.add(BatchBytes.of(batch, "image"));
          resumed.add(BatchBytes.of(batch, "label"));
        }
      }
    }
    assertThat(resumed).hasSameSizeAs(reference);
    for (int i = 0; i < reference.size(); i++) {
      assertThat(resumed.get(i)).isEqualTo(reference.get(i));
    }
  }

  @Test
  void filterKeepsMatchingSamplesAndTheOptions() throws IOException {
    Path file = Datasets.rawImages(dir, 50, 4, 4);
    try (Loader all = Loader.builder(file).batchSize(4).numThreads(2).order(OrderOption.RANDOM).dropLast(false)
        .indices(new int[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 44})
        .pipeline("label", new IntDecoder()).build();
         Loader even = all.filter("label", new IntDecoder(), (rows, offset, length) -> rows.getLong(offset) % 2 == 0)) {
      assertThat(even.samplesPerEpoch()).isEqualTo(6);
      List<Integer> seen = new ArrayList<>();
      for (Batch b : even) {
        for (int i = 0; i < b.size(); i++) {
          assertThat(b.data("label").getLong(8 * i) % 2).isZero();
          seen.add(b.sample(i));
        }
      }
      assertThat(seen).containsExactlyInAnyOrder(2, 4, 6, 8, 10, 44);
      assertThat(even.length()).isEqualTo(2); // options kept: batch size 4, no drop
    }
  }
}
