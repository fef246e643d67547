package org.sparkbeton.spark;

import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import scala.collection.JavaConverters;

/** One local SparkSession per test class, and the scan metrics of an executed query. */
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
