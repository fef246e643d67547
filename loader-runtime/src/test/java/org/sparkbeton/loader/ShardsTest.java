package org.sparkbeton.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.decoders.SimpleRgbDecoder;
import org.sparkbeton.loader.io.Shards;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.order.PageMap;

/** Several files read as one index space. */
class ShardsTest {
  @TempDir
  static Path dir;
  static Path a;
  static Path b;

  @BeforeAll
  static void write() throws IOException {
    a = Datasets.rawImages(Files.createDirectories(dir.resolve("a")), 13, 4, 3);
    b = Datasets.rawImages(Files.createDirectories(dir.resolve("b")), 9, 4, 3);
  }

  static int local(int global) {
    return global < 13 ? global : global - 13;
  }

  @Test
  void samplesOfAllFilesFollowEachOtherInOneIndexSpace() throws IOException {
    try (Loader l = Loader.builder(List.of(a, b)).batchSize(5).numThreads(2).dropLast(false)
        .pipeline("image", new SimpleRgbDecoder()).pipeline("label", new IntDecoder()).build()) {
      assertThat(l.samplesPerEpoch()).isEqualTo(22);
      int g = 0;
      for (Batch batch : l) {
        for (int i = 0; i < batch.size(); i++, g++) {
          assertThat(batch.sample(i)).isEqualTo(g);
          assertThat(batch.data("label").getLong(8 * i)).isEqualTo(1000L + local(g));
          assertThat(batch.data("image").get(i * 36 + 5) & 0xff).isEqualTo(Datasets.pixel(local(g), 0, 1, 2));
        }
      }
      assertThat(g).isEqualTo(22);
    }
  }

  @Test
  void everyOrderAndRankSpansAllFiles() throws IOException {
    for (var order : new org.sparkbeton.loader.order.TraversalOrder.Factory[] {OrderOption.RANDOM, OrderOption.QUASI_RANDOM}) {
      Set<Integer> seen = new HashSet<>();
      for (int rank = 0; rank < 2; rank++) {
        try (Loader l = Loader.builder(List.of(a, b)).batchSize(3).numThreads(2).dropLast(false).order(order)
            .distributed(rank, 2).pipeline("label", new IntDecoder()).build()) {
          for (Batch batch : l) {
            for (int i = 0; i < batch.size(); i++) {
              assertThat(batch.data("label").getLong(8 * i)).isEqualTo(1000L + local(batch.sample(i)));
              seen.add(batch.sample(i));
            }
          }
        }
      }
      assertThat(seen).hasSize(22);
    }
  }

  @Test
  void pagesOfLaterFilesAreNumberedAfterEarlierOnes() throws IOException {
    try (Shards s = Shards.open(List.of(a, b))) {
      PageMap pages = s.pageMap();
      assertThat(s.shardOf(12)).isZero();
      assertThat(s.shardOf(13)).isEqualTo(1);
      assertThat(s.shardOf(21)).isEqualTo(1);
      assertThat(pages.page(0)).isZero();
      assertThat(pages.page(13)).isEqualTo(1);
      assertThat(pages.numPages()).isEqualTo(2);
    }
  }

  /**
   * A scan visits the samples in their order, each with the record chunk and offset that records() and at() give,
   * across files, with samples out of order and repeated (in the same file, in the next, back to an earlier one).
   */
  @Test
  void aScanSeesWhatRecordsAndAtSee() throws IOException {
    Path c = Datasets.rawImages(Files.createDirectories(dir.resolve("c")), 5, 4, 3);
    try (Shards s = Shards.open(List.of(a, b, c))) {
      int[] samples = {0, 1, 12, 13, 14, 14, 21, 22, 26, 3, 26, 22, 13, 12, 0};
      org.sparkbeton.loader.pipeline.FieldSource label = new org.sparkbeton.loader.pipeline.FieldSource(s, 1, samples);
      java.util.List<String> scanned = new java.util.ArrayList<>();
      label.scan((sample, records, at) -> scanned.add(sample + "=" + records.getLong(at)));
      java.util.List<String> expected = new java.util.ArrayList<>();
      for (int sample : samples) {
        long local = sample < 13 ? sample : sample < 22 ? sample - 13 : sample - 22;
        assertThat(label.records(sample).getLong(label.at(sample))).isEqualTo(1000L + local);
        expected.add(sample + "=" + (1000L + local));
      }
      assertThat(scanned).isEqualTo(expected);
    }
  }

  @Test
  void processCacheServesSeveralFilesLikeOsMode() throws IOException {
    LoaderBuilder builder = Loader.builder(List.of(a, b)).batchSize(4).numThreads(2).dropLast(false)
        .order(OrderOption.QUASI_RANDOM).seed(3)
        .pipeline("image", new SimpleRgbDecoder()).pipeline("label", new IntDecoder());
    java.util.List<byte[]> os;
    try (Loader l = builder.build()) {
      os = BatchBytes.epochs(l, 1, "image", "label");
    }
    try (Loader l = builder.processCache(4L << 20).build()) { // both 2 MiB pages, one per file
      java.util.List<byte[]> process = BatchBytes.epochs(l, 1, "image", "label");
      assertThat(process).containsExactlyElementsOf(os);
      assertThat(l.pagesRead()).isEqualTo(2);
    }
  }

  @Test
  void filesMustShareTheirFields() throws IOException {
    Path jpeg = Datasets.jpegImages(dir);
    assertThatThrownBy(() -> Loader.builder(List.of(a, jpeg)).batchSize(2).pipeline("image", new SimpleRgbDecoder()).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("all files of a loader must have the same fields")
        .hasMessageStartingWith("File " + jpeg + " has fields [image: ");
  }
}
