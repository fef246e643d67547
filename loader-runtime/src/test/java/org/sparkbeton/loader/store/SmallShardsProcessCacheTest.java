package org.sparkbeton.loader.store;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.order.OrderOption;

/**
 * A dataset of many small shards (a streaming write's) under the process cache: each shard takes a page of its own,
 * so a budget far above the dataset's bytes is refused; the refusal says why and names compaction as the fix.
 */
class SmallShardsProcessCacheTest {
  @TempDir Path tmp;

  @Test
  void aBudgetOfFewerPagesThanABatchsShardsNamesCompaction() throws Exception {
    Path dir = ShardedDatasets.write(tmp.resolve("streamed"), 8, 10, 1000); // 8 shards of about 10 KB
    try (Loader loader = Loader.builder(dir).batchSize(40).order(OrderOption.RANDOM).seed(1)
        .processCache(2L << 21).pipeline("label", new IntDecoder()).build()) {
      assertThatThrownBy(loader::iterator)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("PROCESS cache holds 2 pages of 2097152 bytes, but batch 0 of epoch 0 needs 8 pages")
          .hasMessageMatching(".*OrderOption\\.QUASI_RANDOM's is 2 x batch size = [0-9]+ pages\\)\\. The dataset's 8 shards average [0-9,]+ bytes,"
              + " and each takes a page of its own in this cache: compacting the dataset \\(beton compact\\) packs"
              + " them into fewer pages");
    }
  }
}
