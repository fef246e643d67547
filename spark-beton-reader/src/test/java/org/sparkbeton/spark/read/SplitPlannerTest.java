package org.sparkbeton.spark.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SplitPlannerTest {
  private static DatasetInputs.Shard shard(String path, long samples, long bytes, boolean manifest) {
    return new DatasetInputs.Shard(path, samples, bytes, Map.of(), manifest);
  }

  @Test
  void oneSplitPerSmallShardAndSampleRangesForLargeOnes() {
    List<DatasetInputs.Shard> shards = List.of(shard("a", 100, 1000, true), shard("b", 0, 100, true),
        shard("c", 1000, 100_000, true));
    ReadConf conf = ReadConf.parse(Map.of("maxPartitionBytes", "30000"), Map.of());
    List<BetonInputPartition> parts = SplitPlanner.plan(shards, List.of(0, 1, 2), conf, false, (p, s, l) -> new String[0]);
    assertThat(parts).extracting(BetonInputPartition::path).containsExactly("a", "c", "c", "c", "c");
    assertThat(parts).extracting(BetonInputPartition::fromSample).containsExactly(0L, 0L, 300L, 600L, 900L);
    assertThat(parts).extracting(BetonInputPartition::toSample).containsExactly(100L, 300L, 600L, 900L, 1000L);
    assertThat(parts.get(1).expectedBytes()).isEqualTo(100_000);
    assertThat(parts.get(1).expectedSamples()).isEqualTo(1000);
    assertThat(parts.get(1).shardIndex()).isEqualTo(2);
  }

  @Test
  void capsSamplesAndAsksForTheSplitsByteRange() {
    List<DatasetInputs.Shard> shards = List.of(shard("f", 10, 1000, false));
    ReadConf conf = ReadConf.parse(Map.of("maxSamplesPerPartition", "4"), Map.of());
    List<long[]> asked = new java.util.ArrayList<>();
    List<BetonInputPartition> parts = SplitPlanner.plan(shards, List.of(0), conf, false, (p, s, l) -> {
      asked.add(new long[] {s, l});
      return new String[] {"host" + s};
    });
    assertThat(parts).extracting(BetonInputPartition::numSamples).containsExactly(4L, 4L, 2L);
    assertThat(asked).extracting(a -> a[0]).containsExactly(0L, 400L, 800L);
    assertThat(asked).extracting(a -> a[1]).containsExactly(400L, 400L, 200L);
    assertThat(parts.get(1).preferredLocations()).containsExactly("host400");
    assertThat(parts.get(0).expectedBytes()).as("no manifest, no size check").isEqualTo(-1);
  }

  @Test
  void prunedShardsGetNoSplit() {
    List<DatasetInputs.Shard> shards = List.of(shard("a", 5, 50, true), shard("b", 5, 50, true));
    List<BetonInputPartition> parts = SplitPlanner.plan(shards, List.of(1), ReadConf.defaults(), false, (p, s, l) -> null);
    assertThat(parts).extracting(BetonInputPartition::path).containsExactly("b");
    assertThat(parts.get(0).preferredLocations()).isEmpty();
  }

  @Test
  void metadataOnlyScansAreSizedByTheMetadataTheyRead() {
    List<DatasetInputs.Shard> shards = List.of(shard("big", 10_000, 1_000_000_000L, true));
    ReadConf conf = ReadConf.parse(Map.of("maxPartitionBytes", "128m"), Map.of());
    assertThat(SplitPlanner.plan(shards, List.of(0), conf, false, (p, s, l) -> null)).hasSize(8);
    assertThat(SplitPlanner.plan(shards, List.of(0), conf, true, (p, s, l) -> null)).hasSize(1);
  }
}
