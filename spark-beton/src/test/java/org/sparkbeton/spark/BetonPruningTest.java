package org.sparkbeton.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.fields.FloatField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.spark.read.BetonMetrics;
import org.sparkbeton.spark.read.BetonReadOptions;
import org.sparkbeton.spark.read.testing.TestDatasets;

/** Column pruning and filter pushdown, proved by the scan's bytes-read and shards-skipped metrics. */
class BetonPruningTest {
  private static final List<BetonField> FIELDS = List.of(new BetonField("image", RgbImageField.INSTANCE),
      new BetonField("label", IntField.INSTANCE), new BetonField("score", FloatField.INSTANCE));
  private static final int SHARDS = 3;
  private static final int PER_SHARD = 40;

  @TempDir static Path tmp;
  static SparkSession spark;
  static Path dataset;
  static DatasetManifest manifest;
  /** Per shard: header + descriptors + metadata records, and the allocation table's size. */
  static long metadataBytes;
  static long allocationTableBytes;
  static long dataRegionBytes;

  @BeforeAll
  static void setUp() throws Exception {
    spark = SparkTests.session("BetonPruningTest");
    dataset = tmp.resolve("photos");
    List<List<Object[]>> shards = new ArrayList<>();
    Random r = new Random(7);
    for (int s = 0; s < SHARDS; s++) {
      List<Object[]> samples = new ArrayList<>();
      for (int i = 0; i < PER_SHARD; i++) {
        byte[] rgb = new byte[64 * 48 * 3];
        r.nextBytes(rgb);
        long label = s * 100L + i % 4; // shard s holds labels s*100 .. s*100+3
        samples.add(new Object[] {RgbImage.raw(64, 48, rgb), label, s + i / 100.0});
      }
      shards.add(samples);
    }
    manifest = TestDatasets.writeDataset(dataset, FIELDS, shards);
    for (ShardEntry e : manifest.shards()) {
      try (BetonReader reader = BetonReader.open(dataset.resolve(e.path()))) {
        metadataBytes += reader.metadataEnd();
        allocationTableBytes += e.bytes() - reader.header().allocTablePtr();
        dataRegionBytes += reader.header().allocTablePtr() - reader.metadataEnd();
      }
    }
  }

  @AfterAll
  static void tearDown() {
    spark.stop();
  }

  private Dataset<Row> photos() {
    return spark.read().format("beton").load(dataset.toString());
  }

  /** The dataset with aggregates left to Spark, so that a scalar-only query runs as a scan with metrics. */
  private Dataset<Row> photosScannedBySpark() {
    return spark.read().format("beton").option(BetonReadOptions.AGGREGATE_PUSHDOWN_MAX_SAMPLES, "0")
        .load(dataset.toString());
  }

  @Test
  void scalarOnlyQueryReadsNoDataPage() {
    Dataset<Row> q = photosScannedBySpark().groupBy("label").count().orderBy("label");
    List<Row> rows = SparkTests.run(q);
    assertThat(rows).hasSize(SHARDS * 4);
    assertThat(rows.get(0).getLong(0)).isEqualTo(0L);
    assertThat(rows.get(0).getLong(1)).isEqualTo(PER_SHARD / 4);
    // header + descriptors + metadata records + allocation table of each shard, not one byte more
    assertThat(SparkTests.metric(q, BetonMetrics.BYTES_READ)).isEqualTo(metadataBytes + allocationTableBytes);
    assertThat(SparkTests.metric(q, BetonMetrics.SAMPLES_READ)).isEqualTo(SHARDS * PER_SHARD);
    assertThat(dataRegionBytes).isGreaterThan(10 * (metadataBytes + allocationTableBytes));
  }

  @Test
  void imageSizeColumnsAreMetadataToo() {
    Dataset<Row> q = photosScannedBySpark().selectExpr("sum(image_width * image_height) as pixels");
    assertThat(SparkTests.run(q).get(0).getLong(0)).isEqualTo(SHARDS * PER_SHARD * 64L * 48);
    assertThat(SparkTests.metric(q, BetonMetrics.BYTES_READ)).isEqualTo(metadataBytes + allocationTableBytes);
  }

  @Test
  void fullScanReadsEveryPayload() {
    Dataset<Row> q = photos().selectExpr("sum(length(image)) as payload");
    assertThat(SparkTests.run(q).get(0).getLong(0)).isEqualTo(SHARDS * PER_SHARD * 64L * 48 * 3);
    assertThat(SparkTests.metric(q, BetonMetrics.BYTES_READ))
        .isEqualTo(metadataBytes + allocationTableBytes + SHARDS * PER_SHARD * 64L * 48 * 3);
  }

  @Test
  void countIsAnsweredFromTheManifest() {
    assertThat(photos().count()).isEqualTo(SHARDS * PER_SHARD);
    Dataset<Row> q = photos().groupBy().count();
    assertThat(SparkTests.run(q).get(0).getLong(0)).isEqualTo(SHARDS * PER_SHARD);
    assertThat(q.queryExecution().executedPlan().toString()).contains("LocalTableScan").doesNotContain("BatchScan");
  }

  @Test
  void aCountSparkKeepsReadsNoMetadataRecords() {
    // a limit stops the aggregate pushdown: Spark counts rows of an empty schema
    Dataset<Row> q = photos().limit(1000).groupBy().count();
    assertThat(SparkTests.run(q).get(0).getLong(0)).isEqualTo(SHARDS * PER_SHARD);
    assertThat(q.queryExecution().executedPlan().toString()).contains("BatchScan");
    long headersAndDescriptors = SHARDS * (24 + 3 * 1041L);
    assertThat(SparkTests.metric(q, BetonMetrics.BYTES_READ)).isEqualTo(headersAndDescriptors + allocationTableBytes);
  }

  @Test
  void filteredCountsAreNotPushedAndStayExact() {
    Dataset<Row> q = photos().where("label >= 100").groupBy().count();
    assertThat(SparkTests.run(q).get(0).getLong(0)).isEqualTo(2 * PER_SHARD);
    assertThat(q.queryExecution().executedPlan().toString()).contains("BatchScan").doesNotContain("LocalTableScan");
    assertThat(SparkTests.metric(q, BetonMetrics.SHARDS_SKIPPED)).isEqualTo(1);
  }

  @Test
  void filtersSkipShardsByMinMaxAndRowsAreStillFilteredExactly() {
    Dataset<Row> q = photos().where("label >= 201 and label < 203").select("label", "score");
    List<Row> rows = SparkTests.run(q);
    assertThat(rows).extracting(r -> r.getLong(0)).containsOnly(201L, 202L).hasSize(PER_SHARD / 2);
    assertThat(SparkTests.metric(q, BetonMetrics.SHARDS_SKIPPED)).isEqualTo(2);
    assertThat(SparkTests.metric(q, BetonMetrics.SAMPLES_READ)).isEqualTo(PER_SHARD);

    Dataset<Row> none = photos().where("label = 50").select("label");
    assertThat(SparkTests.run(none)).isEmpty();
    assertThat(SparkTests.metric(none, BetonMetrics.SHARDS_SKIPPED)).isEqualTo(3);
    assertThat(SparkTests.metric(none, BetonMetrics.BYTES_READ)).isZero();

    Dataset<Row> floats = photos().where("score >= 1.0 and score < 2.0").select("label");
    assertThat(SparkTests.run(floats)).hasSize(PER_SHARD);
    assertThat(SparkTests.metric(floats, BetonMetrics.SHARDS_SKIPPED)).isEqualTo(2);

    Dataset<Row> or = photos().where("label = 1 or label = 201").select("label");
    assertThat(SparkTests.run(or)).hasSize(PER_SHARD / 4 * 2);
    assertThat(SparkTests.metric(or, BetonMetrics.SHARDS_SKIPPED)).isEqualTo(1);
  }

  @Test
  void pushedFiltersShowInThePlan() {
    String plan = photos().where("label > 150").select("label").queryExecution().executedPlan().toString();
    assertThat(plan).contains("shards=1/3").contains("GreaterThan(label,150)");
  }

  @Test
  void reportsRowsAndBytesOfTheShardsItWillRead() {
    var stats = photos().queryExecution().optimizedPlan().stats();
    assertThat(stats.rowCount().get().longValue()).isEqualTo(SHARDS * PER_SHARD);
    long bytes = manifest.shards().stream().mapToLong(ShardEntry::bytes).sum();
    assertThat(stats.sizeInBytes().longValue()).isEqualTo(bytes);
  }
}
