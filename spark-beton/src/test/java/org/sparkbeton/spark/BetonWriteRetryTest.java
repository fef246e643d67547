package org.sparkbeton.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A write task that fails half-way on its first attempt is retried; the dataset has every row once. */
class BetonWriteRetryTest {
  @TempDir static Path tmp;
  static SparkSession spark;

  @BeforeAll
  static void setUp() {
    spark = SparkSession.builder().master("local[2,4]").appName("BetonWriteRetryTest")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1").getOrCreate();
    spark.udf().register("failFirstAttempt", (UDF1<Long, Long>) id -> {
      TaskContext tc = TaskContext.get();
      if (tc.partitionId() == 1 && tc.attemptNumber() == 0 && id == 400) {
        throw new IllegalStateException("injected failure of the first attempt at row " + id);
      }
      return id;
    }, DataTypes.LongType);
  }

  @AfterAll
  static void tearDown() {
    spark.stop();
  }

  @Test
  void failedFirstAttemptIsRetriedWithoutDuplicatesOrLeftovers() throws Exception {
    Path dir = tmp.resolve("retried");
    spark.range(0, 1000, 1, 4).selectExpr("failFirstAttempt(id) as id", "cast(id % 7 as int) as label")
        .write().format("beton").option("pageSize", "2M").save(dir.toString());
    BetonWriteTest.assertConsistent(dir, 1000);
    assertThat(spark.read().format("beton").load(dir.toString()).selectExpr("count(distinct id)", "sum(id)").first()
        .toString()).isEqualTo("[1000,499500]");
  }
}
