package org.sparkbeton.spark;

import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import scala.collection.JavaConverters;

/** One local SparkSession per test class (one for catalog tables), and the scan metrics of an executed query. */
final class SparkTests {
  private SparkTests() {}

  static SparkSession session(String name) {
    return SparkSession.builder()
        .master("local[2]")
        .appName(name)
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2")
        // a plain executed plan, so the scan node and its metrics are easy to find
        .config("spark.sql.adaptive.enabled", "false")
        .getOrCreate();
  }

  /** A local session whose catalog keeps its managed tables under {@code warehouse}, for tests of catalog tables. */
  static SparkSession catalogSession(String name, java.nio.file.Path warehouse) {
    return SparkSession.builder().master("local[2]").appName(name)
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.warehouse.dir", warehouse.toUri().toString()).getOrCreate();
  }

  /** Drops every table of the session's current database. */
  static void dropTables(SparkSession spark) {
    for (Row t : spark.sql("show tables").collectAsList()) {
      spark.sql("drop table if exists " + t.getString(1));
    }
  }

  /** The rows of {@code sql}, each as its {@code toString()} ({@code [1,a]}). */
  static List<String> rows(SparkSession spark, String sql) {
    return spark.sql(sql).collectAsList().stream().map(Row::toString).toList();
  }

  /** Runs the query and returns its rows; the metrics are then readable with {@link #metric}. */
  static List<Row> run(Dataset<Row> df) {
    return df.collectAsList();
  }

  /** A custom metric of the (single) beton scan in {@code df}'s executed plan. */
  static long metric(Dataset<Row> df, String name) {
    BatchScanExec scan = scan(df.queryExecution().executedPlan());
    if (scan == null) {
      throw new AssertionError("No BatchScanExec in " + df.queryExecution().executedPlan());
    }
    return scan.metrics().apply(name).value();
  }

  private static BatchScanExec scan(SparkPlan plan) {
    if (plan instanceof BatchScanExec b) {
      return b;
    }
    for (SparkPlan child : JavaConverters.seqAsJavaList(plan.children())) {
      BatchScanExec found = scan(child);
      if (found != null) {
        return found;
      }
    }
    return null;
  }
}
