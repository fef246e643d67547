package org.sparkbeton.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskStart;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writes and reads under {@code spark.serializer=KryoSerializer}, which many clusters set in spark-defaults.conf:
 * a task's result travels in it. Each case runs its own SparkContext, since the serializer is fixed when one
 * starts.
 */
class BetonKryoTest {
  private static final String KRYO = "org.apache.spark.serializer.KryoSerializer";

  @TempDir Path tmp;

  private static SparkSession session(Map<String, String> conf) {
    SparkSession.Builder b = SparkSession.builder().master("local[2]").appName("BetonKryoTest")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1").config("spark.serializer", KRYO);
    conf.forEach(b::config);
    return b.getOrCreate();
  }

  /**
   * Writes 1,000 rows in 4 tasks, compacts them into one shard (its tasks' results travel as a write's do) and reads
   * them back: the count, the distinct ids, their sum.
   */
  private static void writeAndReadBack(SparkSession spark, Path dir) throws Exception {
    spark.range(0, 1000, 1, 4).selectExpr("id", "cast(id % 7 as int) as label").write().format("beton")
        .save(dir.toString());
    // keepReplacedFor 0s: the replaced shards go at once, so the directory holds what the manifest lists only
    assertThat(org.sparkbeton.spark.write.BetonCompaction.compact(spark, dir.toString(),
        Map.of("keepReplacedFor", "0s")).shardsAfter()).isEqualTo(1);
    assertThat(spark.read().format("beton").load(dir.toString())
        .selectExpr("count(*)", "count(distinct id)", "sum(id)", "sum(label)").first().toString())
        .isEqualTo("[1000,1000,499500," + sumOfLabels() + "]");
  }

  private static long sumOfLabels() {
    long sum = 0;
    for (int i = 0; i < 1000; i++) {
      sum += i % 7;
    }
    return sum;
  }

  /** In a session of its own with {@code conf}: writes, reads back and checks the dataset. */
  private void writesAndReadsBackWith(Map<String, String> conf, String name) throws Exception {
    SparkSession spark = session(conf);
    try {
      writeAndReadBack(spark, tmp.resolve(name));
      BetonWriteTest.assertConsistent(tmp.resolve(name), 1000);
    } finally {
      spark.stop();
    }
  }

  @Test
  void writesAndReadsUnderKryo() throws Exception {
    writesAndReadsBackWith(Map.of(), "kryo");
  }

  @Test
  void registrationRequiredWithOurRegistrator() throws Exception {
    writesAndReadsBackWith(Map.of("spark.kryo.registrationRequired", "true",
        "spark.kryo.registrator", BetonKryoRegistrator.class.getName()), "registered");
  }

  @Test
  void registrationRequiredWithoutItFailsBeforeAnyTaskNamingTheSetting() throws Exception {
    SparkSession spark = session(Map.of("spark.kryo.registrationRequired", "true"));
    AtomicInteger tasks = new AtomicInteger();
    spark.sparkContext().addSparkListener(new SparkListener() {
      @Override
      public void onTaskStart(SparkListenerTaskStart start) {
        tasks.incrementAndGet();
      }
    });
    Path dir = tmp.resolve("unregistered");
    try {
      assertThatThrownBy(() -> spark.range(0, 100, 1, 2).selectExpr("id").write().format("beton").save(dir.toString()))
          .hasMessageContaining("Spark's serializer (" + KRYO + ") cannot carry a beton write task's result")
          .hasMessageContaining("spark.kryo.registrationRequired is true: add org.sparkbeton.spark.BetonKryoRegistrator"
              + " to spark.kryo.registrator")
          .satisfies(e -> assertThat(e.getMessage()).as("one line").doesNotContain("\n"))
          .rootCause().hasMessageContaining("Class is not registered");
      spark.sparkContext().listenerBus().waitUntilEmpty();
      assertThat(tasks).as("tasks started").hasValue(0);
      if (Files.exists(dir)) {
        try (Stream<Path> left = Files.list(dir)) {
          assertThat(left).as("files left in " + dir).isEmpty();
        }
      }
    } finally {
      spark.stop();
    }
  }
}
