package org.sparkbeton.spark.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.sparkbeton.codec.testing.BenchPhotos;

/**
 * Issue 5's read benchmark: label-only queries versus a full scan of every image payload, on a photo
 * dataset written by the Spark writer, and the same full scan on Parquet written by Spark from the same
 * rows, all in one run.
 *
 * <p>The dataset: the JPEG photos under {@code photos} (written by {@link BenchPhotos} when the directory holds none),
 * written with {@code df.write.format("beton")} in {@code jpg} mode without resizing (each photo's bytes
 * are passed through unchanged), label = file number mod 1,000, 4 shards. Each query runs once to warm
 * up, then {@value #REPEATS} times on fresh Datasets; the best time is reported (noise only adds).
 *
 * <p>Arguments: {@code [photoDir=/tmp/photos] [workDir=/tmp/beton-read-benchmark]}. The command and the current
 * figures are in BENCHMARKS.md.
 */
public final class BetonReadBenchmark {
  private static final int SHARDS = 4;
  private static final int LABELS = 1000;
  private static final int REPEATS = 9;

  public static void main(String[] args) throws Exception {
    Path photos = BenchPhotos.directory(Path.of(args.length > 0 ? args[0] : "/tmp/photos"));
    Path dir = Path.of(args.length > 1 ? args[1] : "/tmp/beton-read-benchmark");
    deleteRecursively(dir);
    Files.createDirectories(dir);

    SparkSession spark = SparkSession.builder().master("local[2]").appName("BetonReadBenchmark")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2").getOrCreate();
    spark.sparkContext().setLogLevel("WARN");

    Dataset<Row> rows = spark.read().format("binaryFile").option("pathGlobFilter", "*.jpg").load(photos.toString())
        .selectExpr("content as image",
            "cast(regexp_extract(path, '(\\\\d+)\\\\.jpg$', 1) as bigint) % " + LABELS + " as label")
        .repartition(SHARDS);
    long t0 = System.nanoTime();
    Path beton = dir.resolve("beton");
    rows.write().format("beton").option("imageColumns", "image").option("writeMode", "jpg").save(beton.toString());
    double writeBeton = seconds(t0);

    // Parquet gets the same payload bytes and labels, written by Spark (snappy, the default)
    long t1 = System.nanoTime();
    Path parquet = dir.resolve("parquet");
    spark.read().format("beton").load(beton.toString()).select("image", "label").write().parquet(parquet.toString());
    double writeParquet = seconds(t1);

    Dataset<Row> b = spark.read().format("beton").load(beton.toString());
    Dataset<Row> p = spark.read().parquet(parquet.toString());
    long samples = b.count();
    long payloadBytes = b.selectExpr("sum(length(image))").first().getLong(0);

    // a fresh Dataset per run: re-running one plan would reuse its shuffle files and skip the scan
    Timing bCount = time(() -> b.groupBy().count());
    Timing bGroup = time(() -> b.groupBy("label").count());
    Timing bFull = time(() -> b.selectExpr("sum(length(image))"));
    Timing pCount = time(() -> p.groupBy().count());
    Timing pGroup = time(() -> p.groupBy("label").count());
    Timing pFull = time(() -> p.selectExpr("sum(length(image))"));
    // Spark's fixed cost of planning and running a one-task job that reads nothing: the floor under any query
    // that runs a job (the label-only one runs one over the driver's answer)
    Timing floor = time(() -> spark.range(0, 1, 1, 1).selectExpr("id + 1"));
    // the same metadata answers with the source's optional session extension: planned as a bare LocalTableScan,
    // collected with no job at all
    org.sparkbeton.spark.BetonSparkExtensions.install(spark);
    Timing bCountExt = time(() -> b.groupBy().count());
    // each run reading the metadata again (a first query), then answered from the driver's memo (a repeated one)
    Dataset<Row> unmemoised = spark.read().format("beton").option("memoizeAggregates", "false").load(beton.toString());
    Timing bGroupExtCold = time(() -> unmemoised.groupBy("label").count());
    Timing bGroupExt = time(() -> b.groupBy("label").count());
    spark.stop();

    System.out.printf("%nBetonReadBenchmark -- %d photos from %s written by df.write.format(\"beton\") (jpg, passed"
        + " through): %d shards, %.1f MiB of JPEG payload, %d labels%n", samples, photos, SHARDS,
        payloadBytes / 1048576.0, LABELS);
    System.out.printf("write: beton %.2f s, parquet %.2f s (Spark, reading the beton dataset)%n", writeBeton,
        writeParquet);
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
    row("count(), BetonSparkExtensions", bCountExt, pCount,
        String.format("full scan / count = %.1fx", bFull.seconds / bCountExt.seconds));
    row("label only, BetonSparkExtensions", bGroupExtCold, pGroup,
        String.format("full scan / label-only = %.1fx (goal >= 20x)", bFull.seconds / bGroupExtCold.seconds));
    row("label only, extensions, memoised", bGroupExt, pGroup,
        String.format("full scan / label-only = %.1fx (goal >= 20x)", bFull.seconds / bGroupExt.seconds));
    System.out.printf("%nSpark's floor, a one-task job reading nothing (spark.range(0, 1, 1, 1)): %.3f s;"
        + " full scan / floor = %.1fx, the most any query running a job can reach on this dataset%n",
        floor.seconds, bFull.seconds / floor.seconds);
  }

  private static void row(String query, Timing beton, Timing parquet, String ratio) {
    System.out.printf("| %-37s | %9.3f | %15s | %9.3f | %-45s |%n", query, beton.seconds, human(beton.bytesRead),
        parquet.seconds, ratio);
  }

  /** Best seconds of a query, and the beton bytesRead of its last run (-1 for Parquet, or answered on the driver). */
  private record Timing(double seconds, long bytesRead) {}

  private static String human(long bytes) {
    if (bytes < 0) {
      return "on the driver";
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
