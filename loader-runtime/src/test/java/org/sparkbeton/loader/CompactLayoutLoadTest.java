package org.sparkbeton.loader;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.format.write.BetonWriter;
import org.sparkbeton.format.write.PageLayout;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.decoders.SimpleRgbDecoder;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.order.PageMap;
import org.sparkbeton.loader.order.QuasiRandomOrder;
import org.sparkbeton.loader.order.TraversalOrder;

/**
 * The loader reads files in the compact layout (samples in the page that holds the header and the
 * metadata, a last page cut short at the end of the data) in both cache modes: the OS mapping, and the
 * PROCESS cache's whole-page reads at multiples of the page size, short at the end of the file.
 */
class CompactLayoutLoadTest {
  static final long PAGE = 2 << 20;
  static final int N = 2_000; // 12 KiB RAW images: about 12 pages of 2 MiB

  @TempDir static Path dir;
  static Path compact;
  static Path ffcv;

  @BeforeAll
  static void write() throws IOException {
    compact = write(PageLayout.COMPACT);
    ffcv = write(PageLayout.FFCV);
  }

  static Path write(PageLayout layout) throws IOException {
    Path file = dir.resolve(layout + ".beton");
    List<BetonField> fields = List.of(new BetonField("image", RgbImageField.INSTANCE), new BetonField("label", IntField.INSTANCE));
    try (BetonWriter w = BetonWriter.builder(fields).pageSize(PAGE).pageLayout(layout).open(file)) {
      for (int i = 0; i < N; i++) {
        w.append(RgbImage.raw(64, 64, Datasets.rgb(i, 64, 64)), 1000L + i);
      }
      w.finish();
    }
    return file;
  }

  static LoaderBuilder builder(Path file, TraversalOrder.Factory order) {
    return Loader.builder(file).batchSize(16).numThreads(2).batchesAhead(1).dropLast(false).order(order).seed(4)
        .pipeline("image", new SimpleRgbDecoder()).pipeline("label", new IntDecoder());
  }

  @Test
  void theCompactFileStartsItsDataInPageZeroAndEndsMidPage() throws IOException {
    try (BetonReader r = BetonReader.open(compact)) {
      PageMap pages = PageMap.of(r);
      assertThat(pages.firstPage()).isZero();
      assertThat(pages.page(0)).isZero();
      assertThat(r.allocations().ptr(0)).isEqualTo(r.metadataEnd());
      assertThat(r.header().allocTablePtr() % PAGE).isNotZero();
    }
    assertThat(Files.size(compact)).isLessThan(Files.size(ffcv) - PAGE);
  }

  /** Both layouts, both cache modes, in file order: the same batches. */
  @Test
  void sequentialBatchesAreTheSameInBothLayoutsAndBothCacheModes() throws IOException {
    List<byte[]> expected;
    try (Loader l = builder(ffcv, OrderOption.SEQUENTIAL).build()) {
      expected = BatchBytes.epochs(l, 1, "image", "label");
    }
    assertThat(expected).hasSize(2 * ((N + 15) / 16));
    byte[] lastImages = expected.get(expected.size() - 2);
    assertThat(lastImages).hasSize(16 * 64 * 64 * 3);
    assertThat(Arrays.copyOf(lastImages, 64 * 64 * 3)).isEqualTo(Datasets.rgb(N - 16, 64, 64));
    for (Path file : List.of(ffcv, compact)) {
      try (Loader l = builder(file, OrderOption.SEQUENTIAL).build()) {
        assertThat(BatchBytes.epochs(l, 1, "image", "label")).as("OS cache, %s", file.getFileName())
            .containsExactlyElementsOf(expected);
      }
      try (Loader l = builder(file, OrderOption.SEQUENTIAL).processCache(4 * PAGE).build()) {
        assertThat(BatchBytes.epochs(l, 1, "image", "label")).as("PROCESS cache, %s", file.getFileName())
            .containsExactlyElementsOf(expected);
      }
    }
  }

  /** Quasi-random order on the compact file: the PROCESS cache gives the OS mode's batches, reading each page about once. */
  @Test
  void quasiRandomProcessCacheReadsTheCompactPagesLikeOsMode() throws IOException {
    int pages;
    try (BetonReader r = BetonReader.open(compact)) {
      pages = PageMap.of(r).numPages();
    }
    assertThat(pages).isGreaterThanOrEqualTo(10);
    TraversalOrder.Factory order = QuasiRandomOrder.withPageBuffer(2);
    List<byte[]> os;
    try (Loader l = builder(compact, order).build()) {
      os = BatchBytes.epochs(l, 1, "image", "label");
    }
    try (Loader l = builder(compact, order).processCache(4 * PAGE).build()) {
      assertThat(BatchBytes.epochs(l, 1, "image", "label")).containsExactlyElementsOf(os);
      assertThat(l.pagesRead()).isBetween((long) pages, pages + 8L);
    }
  }
}
