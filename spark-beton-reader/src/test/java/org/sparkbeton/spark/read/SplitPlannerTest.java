package org.sparkbeton.spark.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class SplitPlannerTest {
  private static final SplitPlanner.BlockLocator NOWHERE = (p, s, l) -> Map.of();

  private static DatasetInputs.Shard shard(String path, long samples, long bytes, boolean manifest) {
    return new DatasetInputs.Shard(path, samples, bytes, Map.of(), manifest);
  }

  /** Each partition as text: its ranges as {@code path[from,to)}, in order. */
  private static List<String> layout(List<BetonInputPartition> parts) {
    List<String> out = new ArrayList<>();
    for (BetonInputPartition p : parts) {
      StringBuilder b = new StringBuilder();
      for (ShardRange r : p.ranges()) {
        b.append(b.length() == 0 ? "" : " ").append(r.path()).append('[').append(r.fromSample()).append(',')
            .append(r.toSample()).append(')');
      }
      out.add(b.toString());
    }
    return out;
  }

  private static ReadConf conf(String maxPartitionBytes, long openCost, int minPartitions) {
    return ReadConf.parse(Map.of("maxPartitionBytes", maxPartitionBytes), Map.of(
        "spark.sql.files.openCostInBytes", Long.toString(openCost),
        "spark.sql.files.minPartitionNum", Integer.toString(minPartitions)));
  }

  @Test
  void sampleRangesForLargeShardsAndNoPackingWhenTheOpenCostExceedsTheSplitSize() {
    List<DatasetInputs.Shard> shards = List.of(shard("a", 100, 1000, true), shard("b", 0, 100, true),
        shard("c", 1000, 100_000, true));
    // the default open cost (4 MiB) is above the 30,000-byte split size: every range stands alone
    ReadConf conf = ReadConf.parse(Map.of("maxPartitionBytes", "30000"), Map.of());
    List<BetonInputPartition> parts = SplitPlanner.plan(shards, List.of(0, 1, 2), conf, false, NOWHERE);
    assertThat(layout(parts)).containsExactly("a[0,100)", "c[0,300)", "c[300,600)", "c[600,900)", "c[900,1000)");
    ShardRange c = parts.get(1).ranges().get(0);
    assertThat(c.expectedBytes()).isEqualTo(100_000);
    assertThat(c.expectedSamples()).isEqualTo(1000);
    assertThat(c.shardIndex()).isEqualTo(2);
  }

  @Test
  void capsSamplesAndAsksForTheSplitsByteRange() {
    List<DatasetInputs.Shard> shards = List.of(shard("f", 10, 1000, false));
    ReadConf conf = ReadConf.parse(Map.of("maxSamplesPerPartition", "4"), Map.of());
    List<long[]> asked = new ArrayList<>();
    List<BetonInputPartition> parts = SplitPlanner.plan(shards, List.of(0), conf, false, (p, s, l) -> {
      asked.add(new long[] {s, l});
      return Map.of("host" + s, l);
    });
    assertThat(layout(parts)).containsExactly("f[0,4)", "f[4,8)", "f[8,10)");
    assertThat(asked).extracting(a -> a[0]).containsExactly(0L, 400L, 800L);
    assertThat(asked).extracting(a -> a[1]).containsExactly(400L, 400L, 200L);
    assertThat(parts.get(1).preferredLocations()).containsExactly("host400");
    assertThat(parts.get(0).ranges().get(0).expectedBytes()).as("no manifest, no size check").isEqualTo(-1);
  }

  @Test
  void prunedShardsGetNoRange() {
    List<DatasetInputs.Shard> shards = List.of(shard("a", 5, 50, true), shard("b", 5, 50, true),
        shard("c", 5, 50, true));
    List<BetonInputPartition> parts = SplitPlanner.plan(shards, List.of(0, 2), ReadConf.defaults(), false,
        (p, s, l) -> null);
    assertThat(layout(parts)).containsExactly("a[0,5) c[0,5)");
    assertThat(parts.get(0).preferredLocations()).isEmpty();
  }

  @Test
  void metadataOnlyScansAreSizedByTheMetadataTheyRead() {
    List<DatasetInputs.Shard> shards = List.of(shard("big", 10_000, 1_000_000_000L, true));
    ReadConf conf = ReadConf.parse(Map.of("maxPartitionBytes", "128m"), Map.of());
    assertThat(SplitPlanner.plan(shards, List.of(0), conf, false, NOWHERE)).hasSize(8);
    assertThat(SplitPlanner.plan(shards, List.of(0), conf, true, NOWHERE)).hasSize(1);
  }

  /**
   * Issue 24's dataset: 1,281,167 rows in 1,000 shards of 1,281 samples (1,361,000 bytes, a ~1 KB JPEG each), in
   * local[2] with Spark's defaults (128 MiB, open cost 4 MiB, 2 partitions at least). A label histogram reads ~64
   * bytes a sample: each shard counts 81,984 + 4,194,304 bytes, so 32 fit in 128 MiB; a scan of the images counts
   * 1,361,000 + 4,194,304, so 24 fit.
   */
  @Test
  void packsTheThousandShardsOfTheScaleDatasetIntoFewPartitionsInOrder() {
    List<DatasetInputs.Shard> shards = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      shards.add(shard(String.format("part-%05d.beton", i), 1281, 1_361_000, true));
    }
    List<Integer> all = IntStream.range(0, 1000).boxed().toList();
    ReadConf conf = conf("128m", 4L << 20, 2);

    List<BetonInputPartition> labels = SplitPlanner.plan(shards, all, conf, true, NOWHERE);
    assertThat(labels).hasSize(32);
    assertThat(labels.subList(0, 31)).allSatisfy(p -> assertThat(p.ranges()).hasSize(32));
    assertThat(labels.get(31).ranges()).hasSize(8);
    List<ShardRange> ranges = labels.stream().flatMap(p -> p.ranges().stream()).toList();
    assertThat(ranges).extracting(ShardRange::shardIndex).containsExactlyElementsOf(all);
    assertThat(ranges).allSatisfy(r -> assertThat(r.numSamples()).as("whole shards").isEqualTo(1281));

    List<BetonInputPartition> images = SplitPlanner.plan(shards, all, conf, false, NOWHERE);
    assertThat(images).hasSize(42);
    assertThat(images.get(0).ranges()).hasSize(24);
    assertThat(images.get(41).ranges()).hasSize(1000 - 41 * 24);
    assertThat(images.stream().flatMap(p -> p.ranges().stream())).extracting(ShardRange::shardIndex)
        .containsExactlyElementsOf(all);
  }

  @Test
  void aTailPacksWithTheSmallShardsAfterItUpToTheSplitSizeAndTheSampleCap() {
    List<DatasetInputs.Shard> shards = List.of(shard("big", 1000, 250_000, true), shard("s1", 100, 20_000, true),
        shard("s2", 100, 20_000, true), shard("s3", 100, 20_000, true));
    List<Integer> all = List.of(0, 1, 2, 3);
    // split size 100,000 bytes (the total is larger), each range charged 1,000 bytes to open
    List<BetonInputPartition> parts = SplitPlanner.plan(shards, all, conf("100000", 1000, 1), false, NOWHERE);
    assertThat(layout(parts)).containsExactly("big[0,400)", "big[400,800)", "big[800,1000) s1[0,100) s2[0,100)",
        "s3[0,100)");
    assertThat(parts.get(2).numSamples()).isEqualTo(400);

    ReadConf capped = ReadConf.parse(Map.of("maxPartitionBytes", "100000", "maxSamplesPerPartition", "250"), Map.of(
        "spark.sql.files.openCostInBytes", "1000", "spark.sql.files.minPartitionNum", "1"));
    assertThat(layout(SplitPlanner.plan(shards, all, capped, false, NOWHERE))).containsExactly("big[0,250)",
        "big[250,500)", "big[500,750)", "big[750,1000)", "s1[0,100) s2[0,100)", "s3[0,100)");
  }

  /** Spark's rule aims at minPartitionNum partitions at least: a small scan gets a smaller split size. */
  @Test
  void aSmallScanIsSpreadOverTheMinimumNumberOfPartitions() {
    List<DatasetInputs.Shard> shards = List.of(shard("a", 1000, 40L << 20, true), shard("b", 1000, 40L << 20, true));
    // total (40 MiB + 4 MiB) x 2 over 4 partitions: a split size of 22 MiB, so each shard is cut in two
    List<BetonInputPartition> parts = SplitPlanner.plan(shards, List.of(0, 1), conf("128m", 4L << 20, 4), false,
        NOWHERE);
    assertThat(SplitPlanner.splitBytes(2 * (44L << 20), conf("128m", 4L << 20, 4))).isEqualTo(22L << 20);
    assertThat(layout(parts)).containsExactly("a[0,550)", "a[550,1000)", "b[0,550)", "b[550,1000)");
    // with one partition asked for, the split size is maxPartitionBytes and both shards share one partition
    assertThat(layout(SplitPlanner.plan(shards, List.of(0, 1), conf("128m", 4L << 20, 1), false, NOWHERE)))
        .containsExactly("a[0,1000) b[0,1000)");
  }

  @Test
  void aPackedPartitionPrefersTheHostsHoldingMostOfItsBytes() {
    List<DatasetInputs.Shard> shards = List.of(shard("big", 1000, 250_000, true), shard("s1", 100, 20_000, true),
        shard("s2", 100, 20_000, true));
    Map<String, Map<String, Long>> where = Map.of(
        "big", Map.of("hA", 50_000L),
        "s1", Map.of("hB", 20_000L, "hD", 15_000L),
        "s2", Map.of("hB", 20_000L, "hC", 1L));
    List<BetonInputPartition> parts = SplitPlanner.plan(shards, List.of(0, 1, 2), conf("100000", 1000, 1), false,
        (p, s, l) -> where.get(p));
    assertThat(layout(parts)).last().isEqualTo("big[800,1000) s1[0,100) s2[0,100)");
    // hA holds 50,000 of its bytes, hB 40,000, hD 15,000, hC 1; at most three hosts, as Spark's FilePartition
    assertThat(parts.get(2).preferredLocations()).containsExactly("hA", "hB", "hD");
  }
}
