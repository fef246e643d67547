package org.sparkbeton.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.decoders.SimpleRgbDecoder;
import org.sparkbeton.loader.memory.DirectBufferAllocator;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.order.PageMap;
import org.sparkbeton.loader.order.QuasiRandomOrder;
import org.sparkbeton.loader.order.TraversalOrder;
import org.sparkbeton.loader.transforms.RandomHorizontalFlip;

/** Cache mode PROCESS: same batches as OS mode, the budget holds on a dataset several times larger. */
class ProcessCacheTest {
  static final long PAGE = 2 << 20;
  static final long BUDGET = 4 * PAGE;

  @TempDir
  static Path dir;
  static Path file;
  static int pages;

  @BeforeAll
  static void write() throws IOException {
    file = Datasets.rawImages(dir, 2_000, 64, 64); // 12 KiB per image, 170 per 2 MiB page
    try (BetonReader r = BetonReader.open(file)) {
      pages = PageMap.of(r).numPages();
    }
  }

  static LoaderBuilder builder(TraversalOrder.Factory order) {
    return Loader.builder(file).batchSize(16).numThreads(2).batchesAhead(1).order(order).seed(4)
        .pipeline("image", new SimpleRgbDecoder(), new RandomHorizontalFlip()).pipeline("label", new IntDecoder());
  }

  @Test
  void quasiRandomStaysInTheBudgetReadsEachPageAboutOnceAndMatchesOsMode() throws IOException {
    assertThat(pages).as("dataset pages").isGreaterThanOrEqualTo(3 * (int) (BUDGET / PAGE));
    TraversalOrder.Factory order = QuasiRandomOrder.withPageBuffer(2);
    List<byte[]> os;
    long osBytes;
    try (Loader l = builder(order).build()) {
      os = BatchBytes.epochs(l, 2, "image", "label");
      osBytes = l.offHeapBytes();
    }
    DirectBufferAllocator allocator = new DirectBufferAllocator("process");
    try (Loader l = builder(order).processCache(BUDGET).allocator(allocator).build()) {
      assertThat(l.offHeapBytes() - osBytes).as("page cache bytes").isEqualTo(BUDGET);
      List<byte[]> process = BatchBytes.epochs(l, 2, "image", "label");
      assertThat(process).containsExactlyElementsOf(os);
      assertThat(allocator.peakBytes()).isEqualTo(l.offHeapBytes());
      assertThat(l.pagesRead()).as("pages read in 2 epochs of %d pages", pages).isLessThanOrEqualTo(2L * pages + 8);
    }
    assertThat(allocator.outstanding()).isZero();
    allocator.close();
  }

  @Test
  void randomOrderAlsoHoldsTheBudgetButRereadsPages() throws IOException {
    long quasi;
    try (Loader l = builder(QuasiRandomOrder.withPageBuffer(2)).processCache(BUDGET).build()) {
      BatchBytes.epochs(l, 1, "image", "label");
      quasi = l.pagesRead();
    }
    try (Loader l = builder(OrderOption.RANDOM).batchSize(4).processCache(6 * PAGE).build()) {
      List<byte[]> all = BatchBytes.epochs(l, 1, "image", "label");
      assertThat(all).hasSize(2 * 500);
      assertThat(l.pagesRead()).isGreaterThan(3 * quasi);
    }
  }

  @Test
  void aBudgetSmallerThanOneBatchIsRefusedWithThePageCounts() throws IOException {
    try (Loader l = builder(OrderOption.SEQUENTIAL).indices(new int[] {0, 1999, 1, 1998}).batchSize(4)
        .processCache(PAGE).build()) {
      assertThatThrownBy(l::iterator)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("PROCESS cache holds 1 page of 2097152 bytes, but batch 0 of epoch 0 needs 2 pages at once;"
              + " raise the budget, or draw each batch from fewer pages: QUASI_RANDOM with a page buffer below the"
              + " cache's 1 (QuasiRandomOrder.withPageBuffer(n); OrderOption.QUASI_RANDOM's is 2 x batch size = 8"
              + " pages)");
    }
    assertThatThrownBy(() -> builder(OrderOption.SEQUENTIAL).processCache(1000).build())
        .hasMessage("PROCESS cache budget of 1000 bytes is smaller than one page of 2097152 bytes");
  }
}
