package org.sparkbeton.loader;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.order.OrderOption;

/** The RANDOM order of a loader's first epoch, shuffled while it is built: the same as one computed when asked. */
class EarlyOrderTest {
  @TempDir Path tmp;

  private Loader loader(Path file, int firstEpoch) throws Exception {
    return Loader.builder(file).batchSize(10).numThreads(2).seed(42).order(OrderOption.RANDOM)
        .startEpoch(firstEpoch).pipeline("label", new IntDecoder()).build();
  }

  @Test
  void firstEpochOrderIsTheOrderComputedWhenAsked() throws Exception {
    Path file = Datasets.rawImages(tmp, 300, 4, 4);
    for (int first : new int[] {0, 3}) {
      try (Loader l = loader(file, first)) {
        int[] early = l.epochOrder(first);
        int[] asked = l.epochOrder(first);
        assertThat(asked).isNotSameAs(early).containsExactly(early);
        assertThat(early).isNotEqualTo(l.epochOrder(first + 1));
      }
    }
  }

  @Test
  void theFirstEpochRunsInTheOrderComputedAhead() throws Exception {
    Path file = Datasets.rawImages(tmp, 300, 4, 4);
    try (Loader l = loader(file, 0)) {
      List<Long> labels = new ArrayList<>();
      for (Batch b : l) {
        for (int i = 0; i < b.size(); i++) {
          labels.add(b.data("label").getLong(8 * i));
        }
      }
      int[] order = l.epochOrder(0);
      assertThat(labels).hasSize(300);
      for (int i = 0; i < labels.size(); i++) {
        assertThat(labels.get(i)).isEqualTo(1000L + order[i]);
      }
    }
  }
}
