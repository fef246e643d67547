package org.sparkbeton.loader.order;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RandomOrderTest extends TraversalOrderContract {
  @Override
  TraversalOrder.Factory factory() {
    return OrderOption.RANDOM;
  }

  @Test
  void epochsAndSeedsGiveDifferentPermutations() {
    int[] e0 = order(range(SAMPLES), 5).globalOrder(0);
    assertThat(order(range(SAMPLES), 5).globalOrder(1)).isNotEqualTo(e0);
    assertThat(order(range(SAMPLES), 6).globalOrder(0)).isNotEqualTo(e0);
    assertThat(e0).isNotEqualTo(range(SAMPLES));
  }

  @Test
  void everyPositionIsRoughlyUniform() {
    // sample 0 should land in each quarter of a 400-sample order about equally often over 400 epochs
    TraversalOrder order = order(range(400), 1);
    int[] quarters = new int[4];
    for (int epoch = 0; epoch < 400; epoch++) {
      int[] o = order.globalOrder(epoch);
      for (int i = 0; i < o.length; i++) {
        if (o[i] == 0) {
          quarters[i / 100]++;
        }
      }
    }
    for (int q : quarters) {
      assertThat(q).isBetween(65, 135);
    }
  }

  @Test
  void badRanksAreRefused() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> RankShare.share(new int[3], RankSplit.STRIDED, 2, 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Rank 2 of world size 2: expected worldSize >= 1 and 0 <= rank < worldSize");
  }
}
