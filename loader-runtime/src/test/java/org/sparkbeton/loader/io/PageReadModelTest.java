package org.sparkbeton.loader.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.loader.Batch;
import org.sparkbeton.loader.DatasetsAccess;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.LoaderBuilder;
import org.sparkbeton.loader.decoders.SimpleRgbDecoder;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.order.PageMap;
import org.sparkbeton.loader.order.QuasiRandomOrder;
import org.sparkbeton.loader.order.TraversalOrder;

/** The page-read model against hand-counted cases and against the PROCESS cache itself. */
class PageReadModelTest {
  static final long PAGE = 2 << 20;

  @TempDir
  static Path dir;
  static Path file;
  static PageMap pages;

  @BeforeAll
  static void write() throws IOException {
    file = DatasetsAccess.rawImages(dir, 2_000, 64, 64); // 170 images per 2 MiB page, 12 pages
    try (BetonReader r = BetonReader.open(file)) {
      pages = PageMap.of(r);
    }
  }

  @Test
  void handCountedEvictionsFollowTheFurthestNextUse() {
    // samples 0..3 on pages 0..3; a cache of 2 pages; batches of one sample: 0 1 2 0 1 3 0
    PageMap map = new PageMap(new int[] {0, 1, 2, 3});
    int[] order = {0, 1, 2, 0, 1, 3, 0};
    // 0 1 read; 2 evicts 1 (next use 4 > 3); 0 hit; 1 evicts 2 (never again); 3 evicts 1 (0 is used at 6); 0 hit
    assertThat(PageReadModel.reads(map, 2, 1, List.of(order))).containsExactly(5);
    assertThat(PageReadModel.reads(map, 4, 1, List.of(order, order))).as("all resident: read once").containsExactly(4, 0);
  }

  @Test
  void aBatchThatNeedsMorePagesThanTheCacheHoldsIsRefusedLikeTheCache() {
    PageMap map = new PageMap(new int[] {0, 1, 2, 3});
    assertThatThrownBy(() -> PageReadModel.reads(map, 2, 4, List.of(new int[] {0, 1, 2, 3})))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("PROCESS cache holds 2 pages, but batch 0 needs 4 pages at once");
  }

  @Test
  void predictsWhatThePageCacheReads() throws IOException {
    for (TraversalOrder.Factory order : List.of(QuasiRandomOrder.withPageBuffer(2), OrderOption.SEQUENTIAL)) {
      for (long budget : new long[] {4 * PAGE, 16 * PAGE}) {
        LoaderBuilder b = Loader.builder(file).batchSize(16).numThreads(2).batchesAhead(1).order(order).seed(4)
            .processCache(budget).pipeline("image", new SimpleRgbDecoder());
        try (Loader l = b.build()) {
          List<int[]> orders = new ArrayList<>();
          for (int e = 0; e < 2; e++) {
            orders.add(Arrays.copyOf(l.epochOrder(e), l.length() * 16));
            for (Batch ignored : l) {
              // read the epoch
            }
          }
          long predicted = Arrays.stream(PageReadModel.reads(pages, (int) (budget / PAGE), 16, orders)).sum();
          assertThat(predicted).as("%s, %d pages", order, budget / PAGE).isPositive();
          assertThat(l.pagesRead()).as("%s, %d pages of cache: read vs predicted %d", order, budget / PAGE, predicted)
              .isBetween(predicted, predicted + predicted / 10 + 2);
        }
      }
    }
  }

  @Test
  void quasiRandomReadsFarFewerPagesThanRandomInTheSameBudget() {
    int[] all = new int[pages.numSamples()];
    Arrays.setAll(all, i -> i);
    org.sparkbeton.loader.order.OrderContext ctx = new org.sparkbeton.loader.order.OrderContext(all, 1, 8, () -> pages);
    int[] random = OrderOption.RANDOM.create(ctx).globalOrder(0);
    int[] quasi = QuasiRandomOrder.withPageBuffer(2).create(ctx).globalOrder(0);
    long r = PageReadModel.reads(pages, 8, 8, List.of(random))[0];
    long q = PageReadModel.reads(pages, 8, 8, List.of(quasi))[0];
    assertThat(q).as("QUASI_RANDOM: about each of the %d pages once", pages.numPages())
        .isBetween((long) pages.numPages(), 2L * pages.numPages());
    assertThat(r).as("RANDOM in 8 pages").isGreaterThan(10 * q);
  }
}
