package org.sparkbeton.it.bench;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.sparkbeton.it.bench.ChildResults.cpu;
import static org.sparkbeton.it.bench.ChildResults.ms;
import static org.sparkbeton.it.bench.ChildResults.result;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.sparkbeton.codec.testing.TestPhotos;
import org.sparkbeton.format.dataset.DatasetManifest;

/**
 * The scale of a job, not a test: an ImageNet-sized dataset (1,281,167 rows, a 32x24 JPEG each, label = row mod
 * 1,000) written by {@code df.write.format("beton")} from 1,000 partitions, then opened in fresh JVMs by the reader
 * (the label histogram) and by the loader ({@code build()} and the first batch). Prints what the driver spent on
 * the commit (the write's return minus the last task's end) and its heap, the manifest's size, and the open times
 * against the 1 s goal, each open measured from the moment the child JVM's {@code main} runs; beside them the same
 * first histogram over a 1,000-row, 1-shard dataset, which is Spark's own share of it.
 *
 * <p>Arguments: {@code dir [rows] [partitions] [rounds]}; {@code dir} is deleted at the end (kept with
 * {@code -Dscale.keep=true}; {@code --child reader|reader-extensions dataset}, or {@link LoaderOpenChild} with the
 * dataset, then opens it again). The loader's child runs on {@code -Dscale.loaderClasspath}'s class path (a file
 * holding one, the loader's own dependencies: a training process has no Spark) where given, else on this one. With
 * {@code -Dscale.reuse=true} a dataset kept there is opened without writing it again; {@code -Dscale.opens=reader,...}
 * picks the kinds of open (default: reader, reader-extensions, loader, reader-small; also reader-scan: the same
 * histogram computed by Spark over a scan of every shard, the driver's metadata answer turned off), and
 * {@code -Dscale.again=n} how many more histograms each reader child runs after the first (default 3). With
 * {@code -Dscale.baseline=<class path>} every reader open also runs in a child JVM on that class path (a build of
 * another commit), before this build's in odd rounds and after it in even ones, and the table gains the ratio of the
 * two per round; {@code -Dscale.loaderBaseline=<file>} does the same for the loader's open, on the class path that
 * file holds (another commit's loader-runtime and beton-core classes first). The command and the
 * figures are in BENCHMARKS.md.
 */
public final class ScaleBenchmark {
  private static final int CLASSES = 1000;

  private ScaleBenchmark() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("--child")) {
      child(args[1], Path.of(args[2]));
      return;
    }
    Path dir = Path.of(args.length > 0 ? args[0] : "/tmp/beton-scale");
    long rows = args.length > 1 ? Long.parseLong(args[1]) : 1_281_167L;
    int partitions = args.length > 2 ? Integer.parseInt(args[2]) : 1000;
    int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 3;
    Path dataset = dir.resolve("dataset");
    List<String> kinds = List.of(System.getProperty("scale.opens", "reader,reader-extensions,loader,reader-small")
        .split(","));
    String baseline = System.getProperty("scale.baseline");
    String loaderBaseline = System.getProperty("scale.loaderBaseline");
    try {
      List<String> table = new ArrayList<>();
      if (Boolean.getBoolean("scale.reuse") && Files.exists(dataset.resolve(DatasetManifest.FILE_NAME))) {
        System.out.println("Opening the dataset kept in " + dataset + " (scale.reuse)");
      } else {
        write(dataset, rows, partitions, table);
      }
      List<String> opens = new ArrayList<>();
      List<String> baselineOpens = new ArrayList<>();
      for (int round = 0; round < rounds; round++) {
        // each kind of open once per round, in a fresh JVM, so load from other processes falls on all alike;
        // reader-small is Spark's own cost of a first label histogram: the same query on 1,000 rows in 1 shard
        for (String kind : kinds) {
          Path target = kind.equals("reader-small") ? dir.resolve("small") : dataset;
          boolean loader = kind.equals("loader");
          boolean compare = loader ? loaderBaseline != null : baseline != null;
          String own = System.getProperty("java.class.path");
          String loaderOwn = System.getProperty("scale.loaderClasspath");
          // the baseline goes first in every other round, so neither build always opens after the other
          if (compare && round % 2 == 1) {
            baselineOpens.addAll(runChild(kind, target, baseline, loaderBaseline));
          }
          opens.addAll(runChild(kind, target, own, loaderOwn));
          if (compare && round % 2 == 0) {
            baselineOpens.addAll(runChild(kind, target, baseline, loaderBaseline));
          }
        }
      }
      table.addAll(summarise(opens));
      if (!baselineOpens.isEmpty()) {
        table.add(row("*baseline build (scale.baseline, scale.loaderBaseline), the same opens interleaved*", ""));
        table.addAll(summarise(baselineOpens));
        table.addAll(ratios(opens, baselineOpens));
      }
      System.out.printf(Locale.ROOT, "%n| %,d rows, %d partitions | value |%n|---|---:|%n", rows, partitions);
      table.forEach(System.out::println);
      System.out.printf(Locale.ROOT, "load average at end %.2f%n", loadAverage());
    } finally {
      if (!Boolean.getBoolean("scale.keep")) {
        deleteTree(dir);
      }
    }
  }

  // ---------------------------------------------------------------- the write

  private static void write(Path dataset, long rows, int partitions, List<String> table) throws IOException {
    byte[] jpeg = tinyJpeg();
    SparkSession spark = SparkSession.builder().master("local[2]").appName("ScaleBenchmark")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1").getOrCreate();
    try {
      AtomicLong lastTaskEnd = new AtomicLong();
      spark.sparkContext().addSparkListener(new SparkListener() {
        @Override
        public void onTaskEnd(SparkListenerTaskEnd end) {
          lastTaskEnd.accumulateAndGet(end.taskInfo().finishTime(), Math::max);
        }
      });
      // warm-up: a small write of the same shape, so the timed write's commit is not the first class loading
      spark.range(0, 20_000, 1, 20).select(lit(jpeg).as("image"), col("id").mod(CLASSES).as("label"))
          .write().format("beton").option("imageColumns", "image").option("writeMode", "jpg")
          .mode("overwrite").save(dataset.toString());
      spark.range(0, 1000, 1, 1).select(lit(jpeg).as("image"), col("id").mod(CLASSES).as("label"))
          .write().format("beton").option("imageColumns", "image").option("writeMode", "jpg")
          .mode("overwrite").save(dataset.resolveSibling("small").toString());
      long retainedBefore = retainedHeap();
      resetPeaks();
      long t0 = System.currentTimeMillis();
      spark.range(0, rows, 1, partitions).select(lit(jpeg).as("image"), col("id").mod(CLASSES).as("label"))
          .write().format("beton").option("imageColumns", "image").option("writeMode", "jpg")
          .mode("overwrite").save(dataset.toString());
      long done = System.currentTimeMillis();
      long peak = peakHeap();
      long retainedAfter = retainedHeap();
      long shardBytes;
      long shards;
      try (Stream<Path> files = Files.list(dataset)) {
        List<Path> all = files.filter(p -> p.getFileName().toString().endsWith(".beton")).toList();
        shards = all.size();
        shardBytes = 0;
        for (Path p : all) {
          shardBytes += Files.size(p);
        }
      }
      long manifest = Files.size(dataset.resolve("_manifest.json"));
      table.add(row("payload per row (a 32x24 JPEG, passed through), bytes", String.format("%,d", jpeg.length)));
      table.add(row("write wall time, s", secs(done - t0)));
      table.add(row("**driver's commit: write returned minus the last task's end, ms**",
          String.format("%,d", done - lastTaskEnd.get())));
      table.add(row("driver heap, retained after GC, before -> after the write, MiB",
          mib(retainedBefore) + " -> " + mib(retainedAfter)));
      table.add(row("driver heap, peak of all pools during the write (garbage included), MiB", mib(peak)));
      table.add(row("shards", String.format("%,d", shards)));
      table.add(row("shard bytes, MiB", mib(shardBytes)));
      table.add(row("**manifest size, KiB**", String.format(Locale.ROOT, "%.1f", manifest / 1024.0)));
    } finally {
      spark.stop();
    }
  }

  /** A 32x24 q90 JPEG cut from a test photo: real image content, ~1 KB. */
  static byte[] tinyJpeg() throws IOException {
    BufferedImage photo = ImageIO.read(new java.io.ByteArrayInputStream(TestPhotos.photo(7, 0)));
    BufferedImage small = new BufferedImage(32, 24, BufferedImage.TYPE_INT_RGB);
    small.getGraphics().drawImage(photo, 0, 0, 32, 24, null);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ImageIO.write(small, "jpg", out);
    return out.toByteArray();
  }

  // ---------------------------------------------------------------- the opens, each in a fresh JVM

  /**
   * One open in a child JVM: a reader's on {@code classPath}, the loader's on the class path held by the file
   * {@code loaderClassPathFile} (after this build's test classes, for {@link LoaderOpenChild}), or on
   * {@code classPath} where that is null.
   */
  private static List<String> runChild(String kind, Path dataset, String classPath, String loaderClassPathFile)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // the parent's JVM options (Spark's --add-opens among them), not its debugger or agent settings
    ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> !a.startsWith("-agentlib") && !a.startsWith("-javaagent")).forEach(cmd::add);
    if (kind.equals("loader")) {
      // the loader as a training process runs it: its own class path where given (no Spark, no Hadoop), else this one
      String own = loaderClassPathFile == null ? classPath
          : testClasses() + ":" + Files.readString(Path.of(loaderClassPathFile)).trim();
      cmd.addAll(List.of("-cp", own, LoaderOpenChild.class.getName(), dataset.toString()));
    } else {
      cmd.addAll(List.of("-cp", classPath, ScaleBenchmark.class.getName(), "--child", kind, dataset.toString()));
    }
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    List<String> out = new ArrayList<>();
    try (var r = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream()))) {
      String line;
      while ((line = r.readLine()) != null) {
        if (line.startsWith("RESULT ")) {
          out.add(line.substring(7));
        }
      }
    }
    if (p.waitFor() != 0 || out.isEmpty()) {
      throw new IllegalStateException("The " + kind + " child JVM failed (exit " + p.exitValue() + ")");
    }
    return out;
  }

  /** Where this class was loaded from: integration-tests' test classes, which hold the children's main classes. */
  private static String testClasses() {
    try {
      return Path.of(ScaleBenchmark.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Runs in the child JVM: prints {@code RESULT name<TAB>ms} lines. */
  private static void child(String kind, Path dataset) throws Exception {
    long mainStart = System.nanoTime();
    long mainCpu = cpu();
    long jvmUpMs = ManagementFactory.getRuntimeMXBean().getUptime();
    result(kind + ": JVM start to main", jvmUpMs);
    boolean extensions = kind.equals("reader-extensions");
    // reader-scan: Spark computes the histogram itself over a scan of every shard (the driver's metadata answer
    // turned off), as it does for a filtered histogram or a dataset over aggregatePushdownMaxSamples
    boolean scan = kind.equals("reader-scan");
    long t0 = System.nanoTime();
    SparkSession.Builder builder = SparkSession.builder().master("local[2]").appName("ScaleBenchmark-" + kind)
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1");
    if (extensions) {
      builder.config("spark.sql.extensions", "org.sparkbeton.spark.BetonSparkExtensions");
    }
    SparkSession spark = builder.getOrCreate();
    try {
      long up = System.nanoTime();
      result(kind + ": Spark session start", ms(up - t0));
      spark.range(0, 1, 1, 1).count(); // Spark's first job: its own class loading and start-up, not ours
      long floorStart = System.nanoTime();
      spark.range(0, 1, 1, 1).count();
      result(kind + ": Spark's floor, a one-task job reading nothing (second run)", ms(System.nanoTime() - floorStart));
      long q0 = System.nanoTime();
      long c0 = cpu();
      Map<Long, Long> histogram = histogram(spark, dataset, scan);
      long q1 = System.nanoTime();
      long c1 = cpu();
      long total = histogram.values().stream().mapToLong(Long::longValue).sum();
      if (histogram.size() != CLASSES || total < CLASSES) { // the small dataset has one row per label
        throw new IllegalStateException("histogram of " + histogram.size() + " labels, " + total + " rows");
      }
      String name = kind.equals("reader-small") ? "reader, 1,000 rows in 1 shard (Spark's share)"
          : extensions ? "reader with BetonSparkExtensions"
          : scan ? "reader, Spark aggregating a scan (aggregatePushdownMaxSamples=0)" : "reader";
      result("**" + name + ": label histogram, first query in the JVM**", ms(q1 - q0));
      result(name + ": process CPU of that query (all threads)", ms(c1 - c0));
      result(name + ": main to histogram, Spark session start and its first job included", ms(q1 - mainStart));
      result(name + ": process CPU from main to histogram (all threads)", ms(c1 - mainCpu));
      long[] again = new long[Integer.getInteger("scale.again", 3)];
      for (int i = 0; i < again.length; i++) {
        long s = System.nanoTime();
        histogram(spark, dataset, scan);
        again[i] = System.nanoTime() - s;
      }
      Arrays.sort(again);
      if (again.length > 0) {
        result(name + ": label histogram, median of the next " + again.length, ms(again[again.length / 2]));
      }
      if (scan) {
        result(name + ": input partitions (tasks) of the scan", reader(spark, dataset, true).select("label")
            .javaRDD().getNumPartitions());
      }
    } finally {
      spark.stop();
    }
  }

  private static org.apache.spark.sql.Dataset<Row> reader(SparkSession spark, Path dataset, boolean scan) {
    org.apache.spark.sql.DataFrameReader read = spark.read().format("beton");
    return (scan ? read.option("aggregatePushdownMaxSamples", "0") : read).load(dataset.toString());
  }

  private static Map<Long, Long> histogram(SparkSession spark, Path dataset, boolean scan) {
    Map<Long, Long> h = new TreeMap<>();
    for (Row r : reader(spark, dataset, scan).groupBy("label").count().collectAsList()) {
      h.put(((Number) r.get(0)).longValue(), r.getLong(1));
    }
    return h;
  }

  /** Each name's values over the rounds: median and range, with the 1 s goal where it applies. */
  private static List<String> summarise(List<String> results) {
    Map<String, List<Double>> byName = byName(results);
    List<String> rows = new ArrayList<>();
    byName.forEach((name, values) -> {
      List<Double> sorted = values.stream().sorted().toList();
      double median = sorted.get(sorted.size() / 2);
      String goal = name.startsWith("**") ? String.format(Locale.ROOT, " (%.2fx of the 1 s goal)", median / 1000) : "";
      String unit = name.contains("input partitions") ? "" : ", ms";
      rows.add(row(name + unit + ", median (range) of " + values.size(), String.format(Locale.ROOT, "%,.0f (%,.0f-%,.0f)%s",
          median, sorted.get(0), sorted.get(sorted.size() - 1), goal)));
    });
    return rows;
  }

  /** This build's figure over the baseline's, per round (the i-th value of each name), median and range. */
  private static List<String> ratios(List<String> opens, List<String> baselineOpens) {
    Map<String, List<Double>> mine = byName(opens);
    Map<String, List<Double>> base = byName(baselineOpens);
    List<String> rows = new ArrayList<>();
    mine.forEach((name, values) -> {
      List<Double> other = base.get(name);
      if (other == null || other.size() != values.size()) {
        return;
      }
      List<Double> r = new ArrayList<>();
      for (int i = 0; i < values.size(); i++) {
        r.add(values.get(i) / other.get(i));
      }
      List<Double> sorted = r.stream().sorted().toList();
      rows.add(row(name + ", this build / baseline, median (range) of " + r.size(), String.format(Locale.ROOT,
          "%.2f (%.2f-%.2f)", sorted.get(sorted.size() / 2), sorted.get(0), sorted.get(sorted.size() - 1))));
    });
    return rows;
  }

  private static Map<String, List<Double>> byName(List<String> results) {
    Map<String, List<Double>> byName = new java.util.LinkedHashMap<>();
    for (String r : results) {
      int tab = r.indexOf('\t');
      byName.computeIfAbsent(r.substring(0, tab), k -> new ArrayList<>()).add(Double.parseDouble(r.substring(tab + 1)));
    }
    return byName;
  }

  // ---------------------------------------------------------------- helpers

  private static long retainedHeap() {
    System.gc();
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static void resetPeaks() {
    ManagementFactory.getMemoryPoolMXBeans().forEach(MemoryPoolMXBean::resetPeakUsage);
  }

  private static long peakHeap() {
    long sum = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        sum += pool.getPeakUsage().getUsed();
      }
    }
    return sum;
  }

  /** CPU time of the whole process (every thread: Spark's, the JIT's, the GC's), ns. */

  private static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  private static String row(String what, String value) {
    return "| " + what + " | " + value + " |";
  }

  private static String secs(long millis) {
    return String.format(Locale.ROOT, "%.1f", millis / 1000.0);
  }

  private static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.1f", bytes / 1048576.0);
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
