package org.sparkbeton.loader.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class QuasiRandomOrderTest extends TraversalOrderContract {
  @Override
  TraversalOrder.Factory factory() {
    return OrderOption.QUASI_RANDOM;
  }

  /** Mean number of distinct pages per window of {@code batch} consecutive samples. */
  static double meanPagesPerBatch(int[] order, PageMap pages, int batch) {
    long total = 0;
    int windows = 0;
    for (int from = 0; from + batch <= order.length; from += batch) {
      Set<Integer> distinct = new HashSet<>();
      for (int i = from; i < from + batch; i++) {
        distinct.add(pages.page(order[i]));
      }
      total += distinct.size();
      windows++;
    }
    return (double) total / windows;
  }

  @Test
  void batchesTouchFarFewerPagesThanRandom() {
    int samples = 20_000;
    int batch = 64;
    PageMap pages = pages(samples, 100); // 200 pages
    OrderContext ctx = new OrderContext(range(samples), 3, batch, () -> pages);
    int[] random = OrderOption.RANDOM.create(ctx).globalOrder(0);
    int[] quasi = QuasiRandomOrder.withPageBuffer(8).create(ctx).globalOrder(0);
    double r = meanPagesPerBatch(random, pages, batch);
    double q = meanPagesPerBatch(quasi, pages, batch);
    assertThat(r).isGreaterThan(50);
    assertThat(q).isLessThanOrEqualTo(9.0);
  }

  @Test
  void openPagesNeverExceedTheBuffer() {
    // a page is open from its first to its last sample; at most pageBuffer pages may be open at once
    int samples = 5_000;
    PageMap pages = pages(samples, 50);
    int buffer = 5;
    int[] order = QuasiRandomOrder.withPageBuffer(buffer)
        .create(new OrderContext(range(samples), 9, 16, () -> pages)).globalOrder(1);
    int[] first = new int[pages.numPages()];
    int[] last = new int[pages.numPages()];
    java.util.Arrays.fill(first, -1);
    for (int i = 0; i < order.length; i++) {
      int p = pages.page(order[i]);
      if (first[p] < 0) {
        first[p] = i;
      }
      last[p] = i;
    }
    for (int i = 0; i < order.length; i++) {
      int open = 0;
      for (int p = 0; p < pages.numPages(); p++) {
        open += first[p] <= i && i <= last[p] ? 1 : 0;
      }
      assertThat(open).as("pages open at position %d", i).isLessThanOrEqualTo(buffer);
    }
  }

  @Test
  void contiguousRankSharesReadMostlyDifferentPages() {
    int samples = 8_000;
    PageMap pages = pages(samples, 100);
    TraversalOrder order = QuasiRandomOrder.withPageBuffer(4)
        .create(new OrderContext(range(samples), 1, 32, () -> pages));
    int[] global = order.globalOrder(0);
    Set<Integer> rank0 = new HashSet<>();
    Set<Integer> rank1 = new HashSet<>();
    for (int s : RankShare.share(global, order.rankSplit(), 0, 2)) {
      rank0.add(pages.page(s));
    }
    for (int s : RankShare.share(global, order.rankSplit(), 1, 2)) {
      rank1.add(pages.page(s));
    }
    rank0.retainAll(rank1);
    assertThat(rank0.size()).as("pages read by both ranks").isLessThanOrEqualTo(8);
  }

  @Test
  void samplesWithoutAllocationsStillAppear() {
    PageMap pages = new PageMap(new int[] {-1, 0, -1, 0, 1});
    int[] order = QuasiRandomOrder.withPageBuffer(2)
        .create(new OrderContext(range(5), 0, 2, () -> pages)).globalOrder(0);
    assertThat(sorted(order)).containsExactly(0, 1, 2, 3, 4);
  }

  @Test
  void aZeroBufferIsRefused() {
    assertThatThrownBy(() -> QuasiRandomOrder.withPageBuffer(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("QUASI_RANDOM page buffer must hold at least 1 page, got 0");
  }

  @Test
  void buildsAndOrdersAnImageNetSizedIndexQuickly() {
    int samples = 1_281_167;
    PageMap pages = pages(samples, 120);
    long t0 = System.nanoTime();
    TraversalOrder order = OrderOption.QUASI_RANDOM.create(new OrderContext(range(samples), 0, 256, () -> pages));
    int[] first = order.globalOrder(0);
    long ms = (System.nanoTime() - t0) / 1_000_000;
    assertThat(first).hasSize(samples);
    assertThat(ms).as("setup + first epoch, ms").isLessThan(3_000); // ~150 ms measured; generous for a shared CI box
  }
}
