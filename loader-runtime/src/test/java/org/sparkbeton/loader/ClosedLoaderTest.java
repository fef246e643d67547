package org.sparkbeton.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.decoders.SimpleRgbDecoder;
import org.sparkbeton.loader.memory.DirectBufferAllocator;
import org.sparkbeton.loader.order.OrderOption;

/**
 * A closed loader refuses what needs its files or plan with one clear message, and answers the rest with what it
 * last knew (see the Loader class comment).
 */
class ClosedLoaderTest {
  @TempDir
  static Path dir;
  static Path file;

  @BeforeAll
  static void write() throws IOException {
    file = Datasets.rawImages(dir, 40, 12, 10);
  }

  @Test
  void aClosedLoaderRefusesWorkAndAnswersWhatItKnew() throws IOException {
    try (DirectBufferAllocator allocator = new DirectBufferAllocator("closed")) {
      Loader loader = Loader.builder(file).batchSize(8).numThreads(2).order(OrderOption.RANDOM).seed(3)
          .allocator(allocator).pipeline("image", new SimpleRgbDecoder()).pipeline("label", new IntDecoder()).build();
      assertThat(loader.iterator().next().size()).isEqualTo(8);
      assertThat(loader.offHeapBytes()).isEqualTo(allocator.allocatedBytes()).isPositive();
      LoaderState before = loader.state();
      loader.close();

      assertThat(loader.offHeapBytes()).isZero();
      assertThat(allocator.outstanding()).isZero();
      String closed = "Loader over " + file + " is closed";
      assertThatThrownBy(loader::iterator).isInstanceOf(IllegalStateException.class).hasMessage(closed);
      assertThatThrownBy(() -> loader.filter("label", new IntDecoder(), (rows, off, len) -> true))
          .isInstanceOf(IllegalStateException.class).hasMessage(closed);
      assertThatThrownBy(() -> loader.epochOrder(1)).isInstanceOf(IllegalStateException.class).hasMessage(closed);
      assertThatThrownBy(loader::pipelines).isInstanceOf(IllegalStateException.class).hasMessage(closed);

      assertThat(loader.state()).isEqualTo(before);
      assertThat(before.epoch()).isZero();
      assertThat(before.batch()).isEqualTo(1);
      assertThat(loader.length()).isEqualTo(5);
      assertThat(loader.samplesPerEpoch()).isEqualTo(40);
      assertThat(loader.nextEpoch()).isEqualTo(1);
      assertThat(loader.timings().batches()).isEqualTo(1);
      assertThat(loader.badSamples().count()).isZero();
      assertThat(loader.pagesRead()).isEqualTo(-1); // cache mode OS
      loader.close(); // again: nothing
      assertThat(allocator.outstanding()).isZero();
    }
  }
}
