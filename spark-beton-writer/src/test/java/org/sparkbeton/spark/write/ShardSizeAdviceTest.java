package org.sparkbeton.spark.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sparkbeton.format.dataset.ShardChecksum;
import org.sparkbeton.format.dataset.ShardEntry;

class ShardSizeAdviceTest {
  private static List<ShardEntry> shards(int count, long bytes, long samples) {
    List<ShardEntry> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(new ShardEntry("part-" + i + ".beton", samples, bytes,
          new ShardChecksum(ShardChecksum.SHA256, "0".repeat(64)), Map.of()));
    }
    return out;
  }

  @Test
  void manySmallShardsGetAPartitionCountThatMakesLargeOnes() {
    // 200 shuffle partitions of a 10,000-row table of 50 KB images: 200 shards of 2.4 MiB
    assertThat(ShardSizeAdvice.of(shards(200, 2_500_000, 50))).hasValue("200 shards of 2.4 MiB and 50 samples on"
        + " average: small shards slow every open of the dataset (reads and the loader open each one) and crowd a file"
        + " system's metadata; a write of the DataFrame in about 4 partitions (df.coalesce(4), or df.repartition(4)"
        + " when its partitions are uneven) makes shards of about 128 MiB; BetonCompaction.compact merges those"
        + " written");
    assertThat(ShardSizeAdvice.of(shards(500, 1_000, 10))).hasValueSatisfying(a -> assertThat(a)
        .contains("in about 1 partition (df.coalesce(1),").contains("makes shards of about 488.3 KiB;"));
  }

  @Test
  void fewShardsOrLargeOnesGetNone() {
    assertThat(ShardSizeAdvice.of(shards(31, 1_000, 10))).isEmpty(); // a test table in a few partitions
    assertThat(ShardSizeAdvice.of(shards(1000, 5L << 20, 100))).isEmpty(); // large enough
    assertThat(ShardSizeAdvice.of(List.of())).isEmpty();
  }
}
