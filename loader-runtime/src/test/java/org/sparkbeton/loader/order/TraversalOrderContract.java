package org.sparkbeton.loader.order;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What every order must satisfy; one subclass per built-in order. */
abstract class TraversalOrderContract {
  static final int SAMPLES = 1_003;
  static final int PER_PAGE = 17;

  abstract TraversalOrder.Factory factory();

  static PageMap pages(int samples, int perPage) {
    int[] pages = new int[samples];
    for (int s = 0; s < samples; s++) {
      pages[s] = s / perPage;
    }
    return new PageMap(pages);
  }

  TraversalOrder order(int[] indices, long seed) {
    return factory().create(new OrderContext(indices, seed, 8, () -> pages(SAMPLES, PER_PAGE)));
  }

  static int[] range(int n) {
    int[] a = new int[n];
    for (int i = 0; i < n; i++) {
      a[i] = i;
    }
    return a;
  }

  static int[] sorted(int[] a) {
    int[] b = a.clone();
    Arrays.sort(b);
    return b;
  }

  @Test
  void everyEpochIsAPermutationOfTheIndices() {
    TraversalOrder order = order(range(SAMPLES), 42);
    for (int epoch = 0; epoch < 3; epoch++) {
      assertThat(sorted(order.globalOrder(epoch))).isEqualTo(range(SAMPLES));
    }
  }

  @Test
  void aSubsetIsVisitedExactlyWithItsDuplicates() {
    int[] subset = {5, 900, 17, 17, 3, 640, 641, 2};
    assertThat(sorted(order(subset, 1).globalOrder(4))).isEqualTo(sorted(subset));
  }

  @Test
  void sameSeedAndEpochGiveTheSameOrderInAFreshInstance() {
    int[] a = order(range(SAMPLES), 7).globalOrder(3);
    TraversalOrder other = order(range(SAMPLES), 7);
    other.globalOrder(0); // earlier epochs must not influence epoch 3
    assertThat(other.globalOrder(3)).isEqualTo(a);
  }

  @Test
  void ranksGetEqualDisjointSharesWithOnlyDocumentedPadding() {
    TraversalOrder order = order(range(SAMPLES), 11);
    for (int world = 1; world <= 5; world++) {
      int[] global = order.globalOrder(2);
      int per = RankShare.perRank(SAMPLES, world);
      Map<Integer, Integer> seen = new HashMap<>();
      for (int rank = 0; rank < world; rank++) {
        int[] share = RankShare.share(global, order.rankSplit(), rank, world);
        assertThat(share).hasSize(per);
        for (int s : share) {
          seen.merge(s, 1, Integer::sum);
        }
      }
      assertThat(seen.keySet()).hasSize(SAMPLES);
      int repeats = seen.values().stream().mapToInt(c -> c - 1).sum();
      assertThat(repeats).as("padding for world size %d", world).isEqualTo(per * world - SAMPLES);
    }
  }

  @Test
  void emptyIndicesGiveEmptyEpochs() {
    assertThat(order(new int[0], 3).globalOrder(0)).isEmpty();
  }
}
