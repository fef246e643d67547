package org.sparkbeton.loader.order;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SequentialOrderTest extends TraversalOrderContract {
  @Override
  TraversalOrder.Factory factory() {
    return OrderOption.SEQUENTIAL;
  }

  @Test
  void keepsTheGivenOrderAndSplitsLikeDistributedSampler() {
    int[] indices = {9, 4, 7, 1, 0};
    TraversalOrder order = order(indices, 0);
    assertThat(order.globalOrder(5)).containsExactly(9, 4, 7, 1, 0);
    // torch DistributedSampler(shuffle=False): pad to 6 with the first index, rank r takes r::2
    assertThat(RankShare.share(order.globalOrder(0), order.rankSplit(), 0, 2)).containsExactly(9, 7, 0);
    assertThat(RankShare.share(order.globalOrder(0), order.rankSplit(), 1, 2)).containsExactly(4, 1, 9);
  }
}
