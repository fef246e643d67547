package org.sparkbeton.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.decoders.RandomResizedCropRgbDecoder;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.transforms.RandomHorizontalFlip;

/** onBadSample: FAIL as before, SKIP fills batches from the next samples, REPLACE keeps shapes; all counted. */
class BadSamplePolicyTest {
  static final int N = 20;

  @TempDir Path tmp;

  /** 20 real photos labelled with their index, those in {@code bad} without their scan (libjpeg refuses them). */
  private Path dataset(String name, int... bad) throws Exception {
    List<Object[]> samples = new ArrayList<>();
    for (int i = 0; i < N; i++) {
      int index = i;
      samples.add(Arrays.stream(bad).anyMatch(b -> b == index) ? PhotoDatasets.undecodable(4, i, i)
          : PhotoDatasets.sample(4, i, i));
    }
    return PhotoDatasets.write(tmp.resolve(name), List.of(samples.subList(0, 12), samples.subList(12, N)));
  }

  private static LoaderBuilder builder(Path dir, BadSamplePolicy policy, int threads) {
    return Loader.builder(dir).batchSize(4).numThreads(threads).seed(9).onBadSample(policy)
        .pipeline("image", new RandomResizedCropRgbDecoder(24, 24), new RandomHorizontalFlip())
        .pipeline("label", new IntDecoder());
  }

  /** One epoch as rows: "sample label <hash of the image bytes>". */
  static List<List<String>> epoch(Loader loader) {
    List<List<String>> batches = new ArrayList<>();
    for (Batch b : loader) {
      List<String> rows = new ArrayList<>();
      ByteBuffer images = b.data("image");
      int row = b.spec("image").bytes();
      for (int i = 0; i < b.size(); i++) {
        byte[] px = new byte[row];
        images.get(i * row, px);
        rows.add(b.sample(i) + " " + b.data("label").getLong(8 * i) + " " + Arrays.hashCode(px));
      }
      batches.add(rows);
    }
    return batches;
  }

  private static List<List<Integer>> samples(List<List<String>> epoch) {
    return epoch.stream().map(b -> b.stream().map(r -> Integer.parseInt(r.split(" ")[0])).toList()).toList();
  }

  @Test
  void failIsTheDefaultAndNamesTheEpochBatchAndSample() throws Exception {
    Path dir = dataset("fail", 7);
    try (Loader loader = Loader.builder(dir).batchSize(4).numThreads(2)
        .pipeline("image", new RandomResizedCropRgbDecoder(24, 24)).pipeline("label", new IntDecoder()).build()) {
      assertThatThrownBy(() -> epoch(loader))
          .hasMessageStartingWith("Loader failed in epoch 0, batch 1, sample 7, output 'image': ");
      assertThat(loader.badSamples().count()).isZero();
    }
  }

  @Test
  void skipFillsBatchesFromTheNextSamplesAndLeavesThemOutOfLaterEpochs() throws Exception {
    Path dir = dataset("skip", 7, 13);
    List<List<String>> clean;
    try (Loader loader = builder(dataset("clean"), BadSamplePolicy.FAIL, 2).build()) {
      clean = epoch(loader);
    }
    try (Loader loader = builder(dir, BadSamplePolicy.SKIP, 2).build()) {
      List<List<String>> first = epoch(loader);
      // 18 good samples: 4 full batches, the last 2 dropped (dropLast)
      assertThat(samples(first)).containsExactly(List.of(0, 1, 2, 3), List.of(4, 5, 6, 8), List.of(9, 10, 11, 12),
          List.of(14, 15, 16, 17));
      // each row is the clean row of its sample (same crop: a sample's randomness is its own)
      List<String> cleanRows = clean.stream().flatMap(List::stream).toList();
      first.stream().flatMap(List::stream).forEach(r -> assertThat(cleanRows).contains(r));
      BadSamples bad = loader.badSamples();
      assertThat(bad.count(0)).isEqualTo(2);
      assertThat(bad.samples()).containsExactly(7, 13);
      assertThat(bad.events()).extracting(BadSamples.Event::sample).containsExactlyInAnyOrder(7L, 13L);
      BadSamples.Event e7 = bad.events().stream().filter(e -> e.sample() == 7).findFirst().orElseThrow();
      assertThat(e7.shard()).endsWith("part-00000.beton");
      assertThat(e7.sampleInShard()).isEqualTo(7);
      assertThat(e7.skipped()).isTrue();
      assertThat(e7.batch()).isEqualTo(1);
      assertThat(e7.reason()).isNotBlank();
      BadSamples.Event e13 = bad.events().stream().filter(e -> e.sample() == 13).findFirst().orElseThrow();
      assertThat(e13.shard()).endsWith("part-00001.beton");
      assertThat(e13.sampleInShard()).isEqualTo(1);
      // epoch 1: left out unread from the start, counted again
      assertThat(samples(epoch(loader))).containsExactly(List.of(0, 1, 2, 3), List.of(4, 5, 6, 8),
          List.of(9, 10, 11, 12), List.of(14, 15, 16, 17));
      assertThat(bad.count(1)).isEqualTo(2);
      assertThat(bad.count()).isEqualTo(4);
      assertThat(loader.timings().batches()).isEqualTo(4);
    }
  }

  @Test
  void skipResultsDoNotDependOnThreadsOrOnTheOrder() throws Exception {
    Path dir = dataset("skip-order", 3, 4, 11, 19);
    List<List<String>> one;
    List<List<String>> three;
    try (Loader loader = builder(dir, BadSamplePolicy.SKIP, 1).order(OrderOption.RANDOM).dropLast(false).build()) {
      one = epoch(loader);
      int[] order = loader.epochOrder(0);
      List<Integer> expected = Arrays.stream(order).filter(s -> s != 3 && s != 4 && s != 11 && s != 19).boxed().toList();
      assertThat(samples(one).stream().flatMap(List::stream).toList()).isEqualTo(expected);
      assertThat(samples(one)).hasSize(4).last().asList().hasSize(4);
    }
    try (Loader loader = builder(dir, BadSamplePolicy.SKIP, 3).order(OrderOption.RANDOM).dropLast(false)
        .batchesAhead(1).build()) {
      three = epoch(loader);
    }
    assertThat(three).isEqualTo(one);
  }

  @Test
  void replaceKeepsBatchShapesWithTheNextGoodSampleOfTheBatch() throws Exception {
    Path dir = dataset("replace", 7, 13, 14);
    List<List<String>> clean;
    try (Loader loader = builder(dataset("clean2"), BadSamplePolicy.FAIL, 3).build()) {
      clean = epoch(loader);
    }
    try (Loader loader = builder(dir, BadSamplePolicy.REPLACE, 3).build()) {
      List<List<String>> first = epoch(loader);
      assertThat(samples(first)).containsExactly(List.of(0, 1, 2, 3), List.of(4, 5, 6, 4), List.of(8, 9, 10, 11),
          List.of(12, 15, 15, 15), List.of(16, 17, 18, 19));
      // a substitute's row is its own clean row: sample 4's crop, label 4
      assertThat(first.get(1).get(3)).isEqualTo(clean.get(1).get(0));
      assertThat(first.get(3).get(1)).isEqualTo(clean.get(3).get(3));
      BadSamples bad = loader.badSamples();
      assertThat(bad.count(0)).isEqualTo(3);
      assertThat(bad.events()).extracting(BadSamples.Event::sample, BadSamples.Event::substitute)
          .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple(7L, 4L),
              org.assertj.core.groups.Tuple.tuple(13L, 15L), org.assertj.core.groups.Tuple.tuple(14L, 15L));
      assertThat(samples(epoch(loader))).hasSize(5); // found again in epoch 1: read again, replaced again
      assertThat(bad.count(1)).isEqualTo(3);
    }
  }

  @Test
  void processCacheModeAppliesThePoliciesAlike() throws Exception {
    Path dir = dataset("cache", 7, 13);
    for (BadSamplePolicy policy : new BadSamplePolicy[] {BadSamplePolicy.SKIP, BadSamplePolicy.REPLACE}) {
      List<List<String>> os;
      List<List<String>> process;
      try (Loader loader = builder(dir, policy, 2).build()) {
        os = epoch(loader);
      }
      try (Loader loader = builder(dir, policy, 2).processCache(8 << 20).build()) {
        process = epoch(loader);
        assertThat(loader.badSamples().count()).isEqualTo(2);
      }
      assertThat(process).as(policy.toString()).isEqualTo(os);
    }
  }

  @Test
  void replaceFailsWhenEveryRowOfABatchIsBad() throws Exception {
    Path dir = dataset("all-bad", 4, 5, 6, 7);
    try (Loader loader = builder(dir, BadSamplePolicy.REPLACE, 2).build()) {
      assertThatThrownBy(() -> epoch(loader))
          .hasMessageContaining("Every sample of batch 1 of epoch 0 is bad, so bad sample")
          .hasMessageContaining("has no substitute in its batch");
    }
  }

  @Test
  void skipIsRefusedForDistributedLoading() throws Exception {
    Path dir = dataset("dist");
    assertThatThrownBy(() -> builder(dir, BadSamplePolicy.SKIP, 1).distributed(0, 2).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("onBadSample(SKIP) with distributed(0, 2): a rank that skips a sample would run"
            + " fewer batches than the others")
        .hasMessageContaining("use onBadSample(REPLACE)");
  }
}
