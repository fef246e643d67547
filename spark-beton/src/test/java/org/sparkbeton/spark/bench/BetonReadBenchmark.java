package org.sparkbeton.spark.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.spark.read.testing.TestDatasets;

/**
 * Read benchmark: label-only queries versus a full scan of every image payload, and the same full
 * scan on Parquet written by Spark in the same run.
 *
 * <p>SYNTHETIC DATA until the Spark writer (issue 4) exists: 5,000 "photos" whose payloads are random
 * bytes of realistic JPEG size (stored as jpg-mode images; nothing decodes them), 1,000 labels,
 * written by the core BetonWriter into 4 shards plus a manifest. Run with
 * {@code java -cp <test classpath> org.sparkbeton.spark.bench.BetonReadBenchmark [dir] [samples] [meanKiB]}.
 */
public final class BetonReadBenchmark {
  private static final int SHARDS = 4;
  private static final int LABELS = 1000;
  private static final int REPEATS = 7;

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args.length > 0 ? args[0] : "/tmp/beton-read-benchmark");
    int samples = args.length > 1 ? Integer.parseInt(args[1]) : 5000;
    int meanKiB = args.length > 2 ? Integer.parseInt(args[2]) : 110;
    deleteRecursively(dir);
    Files.createDirectories(dir);

    long t0 = System.nanoTime();
    List<List<Object[]>> shards = generate(samples, meanKiB);
    Path beton = dir.resolve("beton");
    TestDatasets.writeDataset(beton, List.of(new BetonField("image", RgbImageField.INSTANCE),
        new BetonField("label", IntField.INSTANCE)), shards);
    double writeBeton = seconds(t0);

    SparkSession spark = SparkSession.builder().master("local[2]").appName("BetonReadBenchmark")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2").getOrCreate();
    spark.sparkContext().setLogLevel("WARN");

    // Parquet gets the same payload bytes and labels, written by Spark (snappy, the default)
    long t1 = System.nanoTime();
    Path parquet = dir.resolve("parquet");
    spark.read().format("beton").load(beton.toString()).select("image", "label").write().parquet(parquet.toString());
    double writeParquet = seconds(t1);
    shards.clear();

    Dataset<Row> b = spark.read().format("beton").load(beton.toString());
    Dataset<Row> p = spark.read().parquet(parquet.toString());
    long payloadBytes = b.selectExpr("sum(length(image))").first().getLong(0);

    // a fresh Dataset per run: re-running one plan would reuse its shuffle files and skip the scan
    Timing bCount = time(() -> b.groupBy().count());
    Timing bGroup = time(() -> b.groupBy("label").count());
    Timing bFull = time(() -> b.selectExpr("sum(length(image))"));
    Timing pCount = time(() -> p.groupBy().count());
    Timing pGroup = time(() -> p.groupBy("label").count());
    Timing pFull = time(() -> p.selectExpr("sum(length(image))"));
    spark.stop();

    System.out.printf("%nBetonReadBenchmark -- SYNTHETIC dataset (core BetonWriter, not the Spark writer): %d samples,"
        + " %d shards, %.1f MiB of payload (random bytes of JPEG-like size, mean %d KiB), %d labels%n",
        samples, SHARDS, payloadBytes / 1048576.0, meanKiB, LABELS);
    System.out.printf("write: beton %.2f s (core writer), parquet %.2f s (Spark, reading the beton dataset)%n", writeBeton, writeParquet);
    System.out.printf("best of %d runs after one warm-up, local[2], files in the OS page cache%n%n", REPEATS);
    System.out.printf("| %-37s | %9s | %15s | %9s | %-45s |%n", "query", "beton s", "beton bytesRead", "parquet s",
        "ratio");
    System.out.printf("|%s|%s|%s|%s|%s|%n", "-".repeat(39), "-".repeat(11), "-".repeat(17), "-".repeat(11),
        "-".repeat(47));
    row("count()", bCount, pCount, String.format("full scan / count = %.1fx", bFull.seconds / bCount.seconds));
    row("groupBy(label).count() (label only)", bGroup, pGroup,
        String.format("full scan / label-only = %.1fx (goal >= 20x)", bFull.seconds / bGroup.seconds));
    row("sum(length(image)) (every payload)", bFull, pFull,
        String.format("beton / parquet = %.2fx (goal <= 2x)", bFull.seconds / pFull.seconds));
  }

  private static void row(String query, Timing beton, Timing parquet, String ratio) {
    System.out.printf("| %-37s | %9.3f | %15s | %9.3f | %-45s |%n", query, beton.seconds, human(beton.bytesRead),
        parquet.seconds, ratio);
  }

  /** Best seconds of a query, and the beton bytesRead of its last run (-1 for Parquet). */
  private record Timing(double seconds, long bytesRead) {}

  private static String human(long bytes) {
    if (bytes < 0) {
      return "-";
    }
    return bytes >= 1 << 20 ? String.format("%.1f MiB", bytes / 1048576.0) : String.format("%.1f KiB", bytes / 1024.0);
  }

  /** The beton scan's bytesRead metric after the query last ran. */
  private static long bytesRead(Dataset<Row> q) {
    org.apache.spark.sql.execution.SparkPlan plan = q.queryExecution().executedPlan();
    java.util.ArrayDeque<org.apache.spark.sql.execution.SparkPlan> todo = new java.util.ArrayDeque<>(List.of(plan));
    while (!todo.isEmpty()) {
      org.apache.spark.sql.execution.SparkPlan p = todo.pop();
      if (p instanceof org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec adaptive) {
        todo.add(adaptive.executedPlan());
      } else if (p instanceof org.apache.spark.sql.execution.adaptive.QueryStageExec stage) {
        todo.add(stage.plan());
      }
      if (p instanceof org.apache.spark.sql.execution.datasources.v2.BatchScanExec scan) {
        return scan.metrics().contains(org.sparkbeton.spark.read.BetonMetrics.BYTES_READ)
            ? scan.metrics().apply(org.sparkbeton.spark.read.BetonMetrics.BYTES_READ).value() : -1;
      }
      todo.addAll(scala.collection.JavaConverters.seqAsJavaList(p.children()));
    }
    return -1;
  }

  private static List<List<Object[]>> generate(int samples, int meanKiB) {
    Random r = new Random(42);
    List<List<Object[]>> shards = new ArrayList<>();
    for (int s = 0; s < SHARDS; s++) {
      shards.add(new ArrayList<>());
    }
    for (int i = 0; i < samples; i++) {
      int size = (int) Math.max(2048, (meanKiB * 1024) * (0.5 + r.nextDouble()));
      byte[] jpeg = new byte[size];
      r.nextBytes(jpeg);
      jpeg[0] = (byte) 0xff;
      jpeg[1] = (byte) 0xd8;
      shards.get(i * SHARDS / samples).add(new Object[] {RgbImage.jpeg(500, 375, jpeg), (long) r.nextInt(LABELS)});
    }
    return shards;
  }

  private static Timing time(Supplier<Dataset<Row>> query) {
    query.get().collectAsList();
    double[] runs = new double[REPEATS];
    Dataset<Row> last = null;
    for (int i = 0; i < REPEATS; i++) {
      last = query.get();
      long t = System.nanoTime();
      last.collectAsList();
      runs[i] = seconds(t);
    }
    java.util.Arrays.sort(runs);
    // the best run: on a shared machine, noise only ever adds time
    return new Timing(runs[0], bytesRead(last));
  }

  private static double seconds(long start) {
    return (System.nanoTime() - start) / 1e9;
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
