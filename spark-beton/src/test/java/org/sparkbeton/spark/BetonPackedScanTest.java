package org.sparkbeton.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.spark.read.BetonMetrics;
import org.sparkbeton.spark.read.testing.TestDatasets;

/**
 * A dataset of many tiny shards (as a write from many small partitions leaves it) scans in few input partitions,
 * packed as Spark's file sources pack small files, every row once and in dataset order.
 */
class BetonPackedScanTest {
  /** 40 shards of 1 to 4 samples. */
  static final int SHARDS = 40;
  @TempDir static Path tmp;
  static SparkSession spark;
  static Path dataset;
  static int total;
  /** First sample of each shard, and the total at the end. */
  static final int[] STARTS = new int[SHARDS + 1];

  @BeforeAll
  static void setUp() {
    spark = SparkTests.session("BetonPackedScanTest");
    dataset = tmp.resolve("tiny");
    List<List<Object[]>> shards = new ArrayList<>();
    for (int s = 0; s < SHARDS; s++) {
      int n = 1 + s % 4;
      shards.add(TestDatasets.everyFieldSamples(total, total + n));
      STARTS[s] = total;
      total += n;
    }
    STARTS[SHARDS] = total;
    TestDatasets.writeDataset(dataset, TestDatasets.EVERY_FIELD, shards);
  }

  @AfterAll
  static void tearDown() {
    spark.stop();
  }

  private static List<Double> weights(int from, int to) {
    return IntStream.range(from, to).mapToObj(i -> i / 4.0).toList();
  }

  private static List<Double> weightsOf(Dataset<Row> df) {
    return df.collectAsList().stream().map(r -> r.<Double>getAs("weight")).toList();
  }

  @Test
  void manyTinyShardsReadEveryRowOnceInOrderInFewPartitions() {
    Dataset<Row> df = spark.read().format("beton").load(dataset.toString());
    // local[2]: Spark's rule aims at 2 partitions; each shard counts 4 MiB to open, 20 fit in the split size
    assertThat(df.javaRDD().getNumPartitions()).isEqualTo(2);
    List<Row> rows = df.collectAsList();
    assertThat(rows).hasSize(total);
    BetonReadTest.assertEveryFieldRows(rows, 0);
    Dataset<Row> labels = spark.read().format("beton").load(dataset.toString()).select("label", "weight");
    assertThat(labels.javaRDD().getNumPartitions()).as("a metadata-only scan").isEqualTo(2);
    assertThat(weightsOf(labels)).containsExactlyElementsOf(weights(0, total));
    // a histogram Spark computes itself (driver-side answers off) scans the shards in 2 tasks
    Dataset<Row> histogram = spark.read().format("beton").option("aggregatePushdownMaxSamples", "0")
        .load(dataset.toString()).groupBy("label").count();
    assertThat(histogram.collectAsList()).hasSize(10);
    assertThat(SparkTests.metric(histogram, BetonMetrics.SAMPLES_READ)).isEqualTo(total);
  }

  @Test
  void prunedShardsLeaveTheRestPackedInOrder() {
    // weight = sample / 4: shards holding only samples >= 40 are skipped by their min/max
    Dataset<Row> df = spark.read().format("beton").load(dataset.toString()).where("weight < 10");
    assertThat(weightsOf(df)).containsExactlyElementsOf(weights(0, 40));
    long kept = IntStream.range(0, SHARDS).filter(s -> STARTS[s] < 40).count();
    assertThat(SparkTests.metric(df, BetonMetrics.SHARDS_SKIPPED)).isEqualTo(SHARDS - kept);
    assertThat(df.javaRDD().getNumPartitions()).isEqualTo(2);
    assertThat(SparkTests.metric(df, BetonMetrics.SAMPLES_READ)).isEqualTo(STARTS[(int) kept]);
  }

  @Test
  void theSessionsOpenCostAndMinimumPartitionsSizeTheScanAsForSparksFileSources() {
    try {
      spark.conf().set("spark.sql.files.openCostInBytes", Long.toString(1L << 30));
      Dataset<Row> apart = spark.read().format("beton").load(dataset.toString()).select("weight");
      assertThat(apart.javaRDD().getNumPartitions()).as("an open cost above the split size packs nothing")
          .isEqualTo(SHARDS);
      assertThat(weightsOf(apart)).containsExactlyElementsOf(weights(0, total));
      spark.conf().unset("spark.sql.files.openCostInBytes");
      spark.conf().set("spark.sql.files.minPartitionNum", "8");
      Dataset<Row> eight = spark.read().format("beton").load(dataset.toString()).select("weight");
      assertThat(eight.javaRDD().getNumPartitions()).as("40 shards of 4 MiB open cost over 8 partitions").isEqualTo(8);
      assertThat(weightsOf(eight)).containsExactlyElementsOf(weights(0, total));
    } finally {
      spark.conf().unset("spark.sql.files.openCostInBytes");
      spark.conf().unset("spark.sql.files.minPartitionNum");
    }
  }

  @Test
  void aCorruptShardAmongPackedOnesFailsNamingItOrIsSkippedWhileTheRestIsRead() throws Exception {
    Path copy = tmp.resolve("one-corrupt");
    List<List<Object[]>> shards = new ArrayList<>();
    for (int s = 0; s < SHARDS; s++) {
      shards.add(TestDatasets.everyFieldSamples(STARTS[s], STARTS[s + 1]));
    }
    TestDatasets.writeDataset(copy, TestDatasets.EVERY_FIELD, shards);
    Path bad = copy.resolve("part-00007.beton");
    long metadataStart;
    try (BetonReader r = BetonReader.open(bad)) {
      metadataStart = r.metadataStart();
    }
    try (RandomAccessFile f = new RandomAccessFile(bad.toFile(), "rw")) {
      f.seek(metadataStart + 1);
      f.write(0x3c ^ f.read());
    }
    assertThatThrownBy(() -> weightsOf(spark.read().format("beton").load(copy.toString())))
        .hasStackTraceContaining("part-00007.beton: page ")
        .hasStackTraceContaining("CRC32C is ");
    Dataset<Row> lenient = spark.read().format("beton").option("ignoreCorruptFiles", "true").load(copy.toString())
        .select("weight");
    assertThat(lenient.javaRDD().getNumPartitions()).isEqualTo(2);
    List<Double> expected = new ArrayList<>(weights(0, STARTS[7]));
    expected.addAll(weights(STARTS[8], total));
    assertThat(weightsOf(lenient)).containsExactlyElementsOf(expected);
    assertThat(SparkTests.metric(lenient, BetonMetrics.CORRUPT_SHARDS_SKIPPED)).isEqualTo(1);
  }
}
