package org.sparkbeton.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.loader.decoders.CenterCropRgbDecoder;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.decoders.RandomResizedCropRgbDecoder;
import org.sparkbeton.loader.decoders.SimpleRgbDecoder;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.pipeline.Decoder;

class ResumeAndFilterTest {
  @TempDir
  Path dir;

  /** The state of a loader over {@code file} (batches of 8) after it handed out 3 batches of epoch 0. */
  private static LoaderState stateAfterThreeBatches(Path file) throws IOException {
    try (Loader a = LoaderTest.cifarLikeOn(file, 2).build()) {
      Iterator<Batch> e0 = a.iterator();
      for (int k = 0; k < 3; k++) {
        e0.next();
      }
      return a.state();
    }
  }

  /**
   * A state saved mid-epoch over other samples than the resumed loader's (the dataset appended to meanwhile, or
   * another seed): the epoch would not be the one the state belongs to, so resuming inside it is refused with what to
   * do, and the next epoch starts as asked. A state made from epoch and batch alone is not checked.
   */
  @Test
  void aStateOfAnotherOrderIsRefusedMidEpochAndTheNextEpochResumes() throws IOException {
    Path file = Datasets.rawImages(dir, 60, 8, 6);
    LoaderState saved = stateAfterThreeBatches(file);
    Path appended = Datasets.rawImages(dir, 68, 8, 6); // the dataset grown by 8 samples
    try (Loader b = LoaderTest.cifarLikeOn(appended, 2).resumeFrom(saved).build()) {
      assertThatThrownBy(b::iterator).isInstanceOf(IllegalStateException.class)
          .hasMessage("Cannot resume at batch 3 of epoch 0: this loader's order of epoch 0 is not the one the state"
              + " was saved with (the dataset's samples changed since, appended to or compacted into other shards that"
              + " the order follows, or another seed, order, indices, rank or batch size). Resuming inside it would"
              + " repeat some of its samples and skip others. Resume at the next epoch instead (resumeFrom(new"
              + " LoaderState(1, 0)) or startEpoch(1)), or with the dataset and options the state was saved with");
    }
    try (Loader b = LoaderTest.cifarLike(file, 2, OrderOption.QUASI_RANDOM, 22).resumeFrom(saved).build()) {
      assertThatThrownBy(b::iterator).hasMessageStartingWith("Cannot resume at batch 3 of epoch 0");
    }
    try (Loader b = LoaderTest.cifarLikeOn(appended, 2).resumeFrom(new LoaderState(1, 0)).build()) {
      assertThat(b.iterator().next().epoch()).isEqualTo(1);
    }
    try (Loader b = LoaderTest.cifarLikeOn(appended, 2).resumeFrom(new LoaderState(0, 3)).build()) {
      assertThat(b.iterator().next().epoch()).as("a state without the fingerprint, as before it existed").isZero();
    }
  }

  @Test
  void aStateOfAnotherBatchSizeOrPastTheEpochsEndIsRefused() throws IOException {
    Path file = Datasets.rawImages(dir, 60, 8, 6);
    LoaderState saved = stateAfterThreeBatches(file);
    // batch 3 of 16 samples would start at sample 48, not 24: the same order, other samples
    try (Loader b = LoaderTest.cifarLikeOn(file, 2).batchSize(16).resumeFrom(saved).build()) {
      assertThatThrownBy(b::iterator).isInstanceOf(IllegalStateException.class)
          .hasMessageStartingWith("Cannot resume at batch 3 of epoch 0: this loader's order of epoch 0 is not the"
              + " one the state was saved with")
          .hasMessageContaining("rank or batch size");
    }
    try (Loader b = LoaderTest.cifarLikeOn(file, 2).batchSize(16).resumeFrom(new LoaderState(0, 5)).build()) {
      assertThatThrownBy(b::iterator).isInstanceOf(IllegalStateException.class)
          .hasMessage("Cannot resume at batch 5 of epoch 0: the epoch has 4 batches of 16 samples, so the state was"
              + " saved with another batch size or dataset. Resume at the next epoch instead (resumeFrom(new"
              + " LoaderState(1, 0)) or startEpoch(1)), or with the dataset and options the state was saved with");
    }
    try (Loader b = LoaderTest.cifarLikeOn(file, 2).resumeFrom(saved).build()) {
      Iterator<Batch> resumed = b.iterator();
      assertThat(resumed.next().index()).as("the same batch size resumes where it stopped").isEqualTo(3);
    }
  }

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
      assertThat(saved).extracting(LoaderState::epoch, LoaderState::batch).containsExactly(1, 4);
      assertThat(saved.order()).as("the fingerprint of the epoch's order").isNotEqualTo(LoaderState.UNKNOWN_ORDER);
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

  @Test
  void anEmptyDatasetOrAFilterMatchingNothingHasNoBatchesWhateverItsPipelines() throws IOException {
    Path empty = Datasets.rawImages(dir, 0, 4, 4);
    Path file = Datasets.rawImages(dir, 20, 4, 4);
    Decoder[] images = {new RandomResizedCropRgbDecoder(8, 8), new CenterCropRgbDecoder(8, 8, 1), new SimpleRgbDecoder()};
    for (Decoder decoder : images) {
      try (Loader loader = Loader.builder(empty).batchSize(4).dropLast(false).pipeline("image", decoder)
          .pipeline("label", new IntDecoder()).build()) {
        assertThat(loader.length()).as(decoder.name()).isZero();
        assertThat(loader.iterator().hasNext()).isFalse();
      }
      try (Loader all = Loader.builder(file).batchSize(4).dropLast(false).pipeline("image", decoder)
          .pipeline("label", new IntDecoder()).build();
          Loader none = all.filter("label", new IntDecoder(), (rows, offset, length) -> rows.getLong(offset) < 0)) {
        assertThat(none.samplesPerEpoch()).as(decoder.name()).isZero();
        assertThat(none.iterator().hasNext()).isFalse();
      }
    }
  }
}
