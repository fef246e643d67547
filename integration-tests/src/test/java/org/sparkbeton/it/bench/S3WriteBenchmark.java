package org.sparkbeton.it.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.sparkbeton.testsupport.S3ProxyServer;

/**
 * Images on S3, not a test: the photos of a directory uploaded to a local S3Proxy (in its own JVM, on the same cores),
 * then written from a table of their {@code s3a://} paths by {@code df.write.format("beton")} (jpg at 256, q90,
 * {@code local[2]}, 2 partitions) to {@code s3a://}, with each task reading its image files one after the other
 * ({@code imageReadAhead=0}) and reading them ahead (the default, 16), alternating, after one untimed write of each.
 * Prints each write and the medians' ratio. Arguments: {@code photoDir scratchDir [photos] [rounds]}. The command and
 * the figures are in BENCHMARKS.md.
 */
public final class S3WriteBenchmark {
  private S3WriteBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path photos = Path.of(args[0]);
    Path scratch = Files.createDirectories(Path.of(args[1]));
    int count = args.length > 2 ? Integer.parseInt(args[2]) : 1000;
    int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 5;
    try (S3ProxyServer s3 = S3ProxyServer.start(scratch.resolve("s3"))) {
      SparkSession.Builder b = SparkSession.builder().master("local[2]").appName("S3WriteBenchmark")
          .config("spark.ui.enabled", "false");
      s3.s3aSettings().forEach((k, v) -> b.config("spark.hadoop." + k, v));
      SparkSession spark = b.getOrCreate();
      spark.sparkContext().setLogLevel("WARN");
      FileSystem fs = FileSystem.get(s3.uri(""), spark.sparkContext().hadoopConfiguration());
      List<Path> files;
      try (Stream<Path> s = Files.list(photos)) {
        files = s.filter(p -> p.toString().endsWith(".jpg")).sorted().limit(count).toList();
      }
      long t0 = System.nanoTime();
      List<Row> rows = new ArrayList<>();
      for (int i = 0; i < files.size(); i++) {
        String key = "photos/" + files.get(i).getFileName();
        fs.copyFromLocalFile(new org.apache.hadoop.fs.Path(files.get(i).toUri()),
            new org.apache.hadoop.fs.Path(s3.uri(key)));
        rows.add(RowFactory.create(s3.uri(key).toString(), i % 10));
      }
      System.out.printf(Locale.ROOT, "uploaded %d photos to S3Proxy in %.1f s%n", files.size(),
          (System.nanoTime() - t0) / 1e9);
      Dataset<Row> table = spark.createDataFrame(rows, new StructType().add("image", "string").add("label", "int"))
          .repartition(2).cache();
      table.count();
      Map<String, List<Double>> seconds = new TreeMap<>();
      System.out.println("| round | imageReadAhead | seconds | images/s |");
      System.out.println("|---:|---:|---:|---:|");
      for (int round = 0; round <= rounds; round++) {
        for (String depth : round % 2 == 0 ? List.of("0", "16") : List.of("16", "0")) {
          long start = System.nanoTime();
          table.write().format("beton").mode("overwrite").option("imageColumns", "image").option("writeMode", "jpg")
              .option("maxResolution", "256").option("imageReadAhead", depth).save(s3.uri("out-" + depth).toString());
          double s = (System.nanoTime() - start) / 1e9;
          if (round > 0) {
            seconds.computeIfAbsent(depth, k -> new ArrayList<>()).add(s);
            System.out.printf(Locale.ROOT, "| %d | %s | %.2f | %.0f |%n", round, depth, s, files.size() / s);
          }
        }
      }
      double inPlace = median(seconds.get("0"));
      double ahead = median(seconds.get("16"));
      System.out.printf(Locale.ROOT, "medians of %d writes: in place %.2f s, read ahead %.2f s: %.2fx the images/s%n",
          rounds, inPlace, ahead, inPlace / ahead);
      spark.stop();
    }
  }

  static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}
