package org.sparkbeton.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.TaskContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskStart;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.verify.BetonVerifier;

/**
 * {@code spark.speculation=true} on a real standalone cluster (two workers on distinct loopback
 * hosts) with one slow first attempt: the speculative copy wins, the original is killed mid-write,
 * and the dataset holds every row exactly once.
 */
class SpeculationTest {
  @TempDir Path tmp;

  @Test
  void speculativeWriteNeverDuplicatesOrLosesSamples() throws Exception {
    AtomicInteger speculative = new AtomicInteger();
    SparkDistribution distribution = SparkDistribution.create(tmp.resolve("spark-home"), Map.of());
    // the driver is this JVM, so the executors need what its tasks use (this test's UDF, the project's modules):
    // the test classpath, ahead of the cluster's own jars
    String testClasspath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    try (StandaloneCluster cluster = new StandaloneCluster(tmp, distribution, List.of("127.0.0.1", "127.0.0.2"), 1)) {
      SparkSession spark = SparkSession.builder().master(cluster.masterUrl()).appName("SpeculationTest")
          .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
          .config("spark.executor.memory", "512m").config("spark.executor.extraClassPath", testClasspath)
          .config("spark.speculation", "true").config("spark.speculation.interval", "100ms")
          .config("spark.speculation.multiplier", "2").config("spark.speculation.quantile", "0.5")
          .config("spark.speculation.minTaskRuntime", "500ms")
          .getOrCreate();
      try {
        spark.sparkContext().addSparkListener(new SparkListener() {
          @Override
          public void onTaskStart(SparkListenerTaskStart start) {
            if (start.taskInfo().speculative()) {
              speculative.incrementAndGet();
            }
          }
        });
        spark.udf().register("slowFirstAttempt", (UDF1<Long, Long>) id -> {
          TaskContext tc = TaskContext.get();
          if (tc.partitionId() == 3 && tc.attemptNumber() == 0 && id == 350) {
            Thread.sleep(60_000); // half-way through its rows; killed once the speculative copy commits
          }
          return id;
        }, DataTypes.LongType);
        Path dir = tmp.resolve("speculated");
        spark.range(0, 400, 1, 4).selectExpr("slowFirstAttempt(id) as id", "cast(id % 4 as int) as label")
            .write().format("beton").option("pageSize", "2M").option("spoolDir", tmp.toString()).save(dir.toString());

        assertThat(speculative.get()).as("speculative task launches").isGreaterThan(0);
        DatasetManifest m = DatasetManifest.parse(Files.readString(dir.resolve(DatasetManifest.FILE_NAME)));
        assertThat(m.totalSamples()).isEqualTo(400);
        long sum = 0;
        for (ShardEntry s : m.shards()) {
          try (BetonReader r = BetonReader.open(dir.resolve(s.path()))) {
            assertThat(BetonVerifier.verify(r).problems()).isEmpty();
            for (long k = 0; k < r.numSamples(); k++) {
              sum += r.intValue(k, 0);
            }
          }
        }
        assertThat(sum).isEqualTo(399L * 400 / 2); // every id exactly once
        assertThat(spark.read().format("beton").load(dir.toString()).count()).isEqualTo(400);
      } finally {
        spark.stop();
      }
    }
  }
}
