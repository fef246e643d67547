package org.sparkbeton.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.LocalTableScanExec;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.fields.FloatField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.spark.read.BetonReadOptions;
import org.sparkbeton.spark.read.testing.TestDatasets;

/**
 * {@link BetonSparkExtensions}: with it, a query answered from metadata plans as a bare LocalTableScan and
 * collects without a single Spark job, returning exactly what Spark computes itself (pushdown off).
 */
class BetonLocalAnswerTest {
  private static final List<BetonField> FIELDS = List.of(new BetonField("label", IntField.INSTANCE),
      new BetonField("score", FloatField.INSTANCE));

  @TempDir static Path tmp;
  static SparkSession spark;
  static Path dataset;
  static final AtomicInteger jobs = new AtomicInteger();

  @BeforeAll
  static void setUp() {
    spark = SparkSession.builder().master("local[2]").appName("BetonLocalAnswerTest")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.extensions", BetonSparkExtensions.class.getName()).getOrCreate();
    spark.sparkContext().addSparkListener(new SparkListener() {
      @Override
      public void onJobStart(SparkListenerJobStart jobStart) {
        jobs.incrementAndGet();
      }
    });
    dataset = tmp.resolve("scores");
    Random r = new Random(3);
    List<List<Object[]>> shards = new ArrayList<>();
    for (int n : new int[] {41, 0, 29}) {
      List<Object[]> samples = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        samples.add(new Object[] {(long) r.nextInt(5), r.nextInt(100) / 4.0});
      }
      shards.add(samples);
    }
    TestDatasets.writeDataset(dataset, FIELDS, shards);
  }

  @AfterAll
  static void tearDown() {
    spark.stop();
  }

  @Test
  void labelHistogramCollectsWithoutAJob() throws Exception {
    List<Row> rows = answeredLocally(d -> d.groupBy("label").count());
    assertThat(rows.stream().mapToLong(row -> row.getLong(1)).sum()).isEqualTo(70);
    assertThat(rows).hasSize(5);
  }

  @Test
  void minMaxPerLabelAndAGlobalCountToo() throws Exception {
    answeredLocally(d -> d.groupBy("label").agg(functions.min("score"), functions.max("score").as("top")));
    List<Row> count = answeredLocally(d -> d.groupBy().count());
    assertThat(count.get(0).getLong(0)).isEqualTo(70);
  }

  /** The driver memoises answers per shard list: an append publishes new shards, so the next answer sees them. */
  @Test
  void aHistogramAfterAnAppendCountsTheNewRows() throws Exception {
    String dir = tmp.resolve("appended").toString();
    spark.range(0, 30).selectExpr("id % 3 as label").write().format("beton").save(dir);
    assertThat(counts(spark.read().format("beton").load(dir))).containsExactly(10L, 10L, 10L);
    assertThat(counts(spark.read().format("beton").load(dir))).containsExactly(10L, 10L, 10L); // memoised
    spark.range(30, 36).selectExpr("id % 3 as label").write().format("beton").mode("append").save(dir);
    assertThat(counts(spark.read().format("beton").load(dir))).containsExactly(12L, 12L, 12L);
    spark.range(0, 3).selectExpr("id as label").write().format("beton").mode("overwrite").save(dir);
    assertThat(counts(spark.read().format("beton").load(dir))).containsExactly(1L, 1L, 1L);
  }

  /** Counts of the label histogram of {@code df}, by label, through the local answer. */
  private static List<Long> counts(Dataset<Row> df) {
    Dataset<Row> q = df.groupBy("label").count().orderBy("label");
    return q.collectAsList().stream().map(r -> r.getLong(1)).toList();
  }

  /** Also the listener's positive control: a query that reads the shards runs jobs. */
  @Test
  void queriesThatNeedTheShardsStillRunAsUsual() throws Exception {
    Dataset<Row> df = read(1_000_000).groupBy("label").agg(functions.sum(functions.col("score").multiply(2)));
    assertThat(df.queryExecution().executedPlan().toString()).contains("BatchScan");
    spark.sparkContext().listenerBus().waitUntilEmpty();
    int before = jobs.get();
    assertThat(df.collectAsList()).hasSize(5);
    spark.sparkContext().listenerBus().waitUntilEmpty();
    assertThat(jobs.get()).isGreaterThan(before);
  }

  private static Dataset<Row> read(long maxSamples) {
    return spark.read().format("beton").option(BetonReadOptions.AGGREGATE_PUSHDOWN_MAX_SAMPLES, maxSamples)
        .load(dataset.toString());
  }

  /** Rows of {@code query}: planned as a bare LocalTableScan, no job while collecting, equal to Spark's answer. */
  private static List<Row> answeredLocally(Function<Dataset<Row>, Dataset<Row>> query) throws Exception {
    Dataset<Row> pushed = query.apply(read(1_000_000));
    assertThat(pushed.queryExecution().executedPlan()).isInstanceOf(LocalTableScanExec.class);
    spark.sparkContext().listenerBus().waitUntilEmpty();
    int before = jobs.get();
    List<Row> actual = sorted(pushed.collectAsList());
    spark.sparkContext().listenerBus().waitUntilEmpty();
    assertThat(jobs.get()).as("Spark jobs run while collecting").isEqualTo(before);
    List<Row> expected = sorted(query.apply(read(0)).collectAsList());
    assertThat(actual).isEqualTo(expected);
    assertThat(pushed.columns()).containsExactly(query.apply(read(0)).columns());
    return actual;
  }

  private static List<Row> sorted(List<Row> rows) {
    List<Row> out = new ArrayList<>(rows);
    out.sort(Comparator.comparing(Row::toString));
    return out;
  }
}
