package org.sparkbeton.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.fields.FloatField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.spark.read.BetonReadOptions;
import org.sparkbeton.spark.read.testing.TestDatasets;

/**
 * Aggregates answered on the driver from metadata records: every pushed query must return exactly what
 * Spark computes itself over the same dataset (the oracle: the same query with pushdown turned off), and
 * must plan no scan of the shards (a {@code LocalTableScan} of the driver's rows instead of a
 * {@code BatchScan}); queries it cannot answer run as usual.
 */
class BetonAggregatePushdownTest {
  private static final List<BetonField> FIELDS = List.of(new BetonField("image", RgbImageField.INSTANCE),
      new BetonField("label", IntField.INSTANCE), new BetonField("score", FloatField.INSTANCE));
  /** Floats Spark groups and orders specially: -0.0 groups with 0.0, NaN is one group and the largest value. */
  private static final double[] SCORES = {0.5, -0.0, 0.0, Double.NaN, -3.25, 1e300, -1e-300, 0.5};

  @TempDir static Path tmp;
  static SparkSession spark;
  static Path dataset;
  static Path empty;

  @BeforeAll
  static void setUp() {
    spark = SparkTests.session("BetonAggregatePushdownTest");
    dataset = tmp.resolve("photos");
    Random r = new Random(11);
    List<List<Object[]>> shards = new ArrayList<>();
    int[] perShard = {37, 0, 53};
    for (int s = 0; s < perShard.length; s++) {
      List<Object[]> samples = new ArrayList<>();
      for (int i = 0; i < perShard[s]; i++) {
        int w = 4 + r.nextInt(3) * 4;
        int h = 2 + r.nextInt(2) * 3;
        byte[] rgb = new byte[w * h * 3];
        r.nextBytes(rgb);
        long label = r.nextInt(7) - 3 + (r.nextInt(10) == 0 ? Long.MIN_VALUE / 2 : 0);
        samples.add(new Object[] {RgbImage.raw(w, h, rgb), label, SCORES[r.nextInt(SCORES.length)]});
      }
      shards.add(samples);
    }
    TestDatasets.writeDataset(dataset, FIELDS, shards);
    empty = tmp.resolve("empty");
    TestDatasets.writeDataset(empty, FIELDS, List.of(List.of()));
  }

  @AfterAll
  static void tearDown() {
    spark.stop();
  }

  private static Dataset<Row> read(Path dir, long maxSamples) {
    return spark.read().format("beton").option(BetonReadOptions.AGGREGATE_PUSHDOWN_MAX_SAMPLES, maxSamples)
        .load(dir.toString());
  }

  /** Rows of {@code query} with pushdown, after checking they equal Spark's own answer and planned no shard scan. */
  private static List<Row> pushedAndEqualToSpark(Path dir, Function<Dataset<Row>, Dataset<Row>> query) {
    Dataset<Row> pushed = query.apply(read(dir, 1_000_000));
    assertThat(pushed.queryExecution().executedPlan().toString()).contains("LocalTableScan").doesNotContain("BatchScan");
    Dataset<Row> bySpark = query.apply(read(dir, 0));
    assertThat(bySpark.queryExecution().executedPlan().toString()).contains("BatchScan");
    List<Row> expected = sorted(bySpark.collectAsList());
    List<Row> actual = sorted(query.apply(read(dir, 1_000_000)).collectAsList());
    assertThat(actual).isEqualTo(expected);
    return actual;
  }

  private static List<Row> sorted(List<Row> rows) {
    List<Row> out = new ArrayList<>(rows);
    out.sort(Comparator.comparing(Row::toString));
    return out;
  }

  @Test
  void labelHistogram() {
    List<Row> rows = pushedAndEqualToSpark(dataset, d -> d.groupBy("label").count());
    assertThat(rows.stream().mapToLong(row -> row.getLong(1)).sum()).isEqualTo(90);
    assertThat(rows.size()).isGreaterThan(7); // the seven small labels plus some far-away ones
  }

  @Test
  void minMaxAndCountsPerLabel() {
    pushedAndEqualToSpark(dataset, d -> d.groupBy("label").agg(org.apache.spark.sql.functions.min("score"),
        org.apache.spark.sql.functions.max("score"), org.apache.spark.sql.functions.count("score"),
        org.apache.spark.sql.functions.count("*"), org.apache.spark.sql.functions.max("image_width")));
  }

  @Test
  void floatKeysGroupLikeSpark() {
    List<Row> rows = pushedAndEqualToSpark(dataset, d -> d.groupBy("score").count());
    // 0.5, 0.0 (with -0.0), NaN, -3.25, 1e300, -1e-300: six groups, as Spark makes them
    assertThat(rows).hasSize(6);
  }

  @Test
  void imageSizeHistogram() {
    List<Row> rows = pushedAndEqualToSpark(dataset, d -> d.groupBy("image_width", "image_height").count());
    assertThat(rows).hasSize(6);
  }

  @Test
  void globalMinMax() {
    List<Row> rows = pushedAndEqualToSpark(dataset, d -> d.selectExpr("min(label)", "max(label)", "max(score)",
        "min(image_height)", "count(label)"));
    assertThat(rows.get(0).getDouble(2)).isNaN();
    assertThat(rows.get(0).getLong(4)).isEqualTo(90);
  }

  @Test
  void emptyDatasetGivesOneRowWithNullsOrNoGroups() {
    List<Row> global = pushedAndEqualToSpark(empty, d -> d.selectExpr("count(*)", "min(label)", "max(score)"));
    assertThat(global).hasSize(1);
    assertThat(global.get(0).getLong(0)).isZero();
    assertThat(global.get(0).isNullAt(1)).isTrue();
    assertThat(pushedAndEqualToSpark(empty, d -> d.groupBy("label").count())).isEmpty();
  }

  @Test
  void queriesItCannotAnswerRunAsUsual() {
    List<Function<Dataset<Row>, Dataset<Row>>> others = List.of(
        d -> d.where("label > 0").groupBy("label").count(),
        d -> d.groupBy("label").agg(org.apache.spark.sql.functions.sum("label")),
        d -> d.selectExpr("count(distinct label)"),
        d -> d.groupBy("image_mode").count(),
        d -> d.groupBy("label").agg(org.apache.spark.sql.functions.max("image")));
    for (Function<Dataset<Row>, Dataset<Row>> q : others) {
      Dataset<Row> withPushdown = q.apply(read(dataset, 1_000_000));
      assertThat(withPushdown.queryExecution().executedPlan().toString()).contains("BatchScan");
      assertThat(sorted(withPushdown.collectAsList())).isEqualTo(sorted(q.apply(read(dataset, 0)).collectAsList()));
    }
  }

  @Test
  void datasetsOverTheLimitRunAsUsual() {
    Dataset<Row> q = read(dataset, 89).groupBy("label").count();
    assertThat(q.queryExecution().executedPlan().toString()).contains("BatchScan");
    Dataset<Row> atLimit = read(dataset, 90).groupBy("label").count();
    assertThat(atLimit.queryExecution().executedPlan().toString()).contains("LocalTableScan");
  }

  /**
   * The driver keeps answers for the whole JVM, keyed by what the aggregation computes: queries over the same
   * dataset that differ in one respect (grouping, its order, function, column, order of aggregates) each get
   * their own answer, the first time and again from the memo.
   */
  @Test
  void memoisedAnswersNeverServeAnotherQuery() {
    List<Function<Dataset<Row>, Dataset<Row>>> queries = List.of(
        d -> d.groupBy("label").count(),
        d -> d.groupBy("score").count(),
        d -> d.groupBy("label", "image_width").count(),
        d -> d.groupBy("image_width", "label").count(),
        d -> d.groupBy("label").agg(org.apache.spark.sql.functions.min("score")),
        d -> d.groupBy("label").agg(org.apache.spark.sql.functions.max("score")),
        d -> d.groupBy("label").agg(org.apache.spark.sql.functions.min("image_height")),
        d -> d.selectExpr("min(label)"),
        d -> d.selectExpr("max(label)"),
        d -> d.selectExpr("count(label)", "min(score)"),
        d -> d.selectExpr("min(score)", "count(label)"));
    List<List<Row>> bySpark = new ArrayList<>();
    for (Function<Dataset<Row>, Dataset<Row>> q : queries) {
      bySpark.add(sorted(q.apply(read(dataset, 0)).collectAsList()));
    }
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < queries.size(); i++) {
        Dataset<Row> pushed = queries.get(i).apply(read(dataset, 1_000_000));
        assertThat(pushed.queryExecution().executedPlan().toString()).contains("LocalTableScan");
        assertThat(sorted(pushed.collectAsList())).as("query %d, round %d", i, round).isEqualTo(bySpark.get(i));
      }
    }
  }
}
