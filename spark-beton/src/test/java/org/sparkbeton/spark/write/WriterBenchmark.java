package org.sparkbeton.spark.write;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.sparkbeton.codec.jpeg.Idct;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.codec.jpeg.JpegHeader;
import org.sparkbeton.codec.testing.BenchPhotos;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.format.write.BetonWriter;
import org.sparkbeton.spark.prepare.ImageFolderListing;

/**
 * Issue 4's benchmark: JPEG photos → .beton, {@code jpg} at maxResolution 256, q90, through
 * {@code df.write.format("beton")} on Spark {@code local[2]}, next to a plain-Java loop doing the same work
 * with the same per-image step ({@link ImageEncoder}: read file, decode, area resize, encode, write) on 1 and
 * 2 threads, in the same run. Each measured Spark write sits between two measurements of two limits and is
 * reported as a fraction of their means: the writer's own limit ({@link WriterLimit}, issue 24's yardstick: bare
 * libjpeg-turbo doing each photo's decode at the writer's DCT scale and the encode of its output, on 2 threads) and
 * the older full-resolution decode limit. (In the writer's package for that access.)
 *
 * <p>Arguments: {@code [photoDir=/tmp/photos] [workDir=/tmp/writer-bench]}; {@code -DwriterBench.pairs=N} times
 * each path (3 unless set). A photo directory without JPEGs gets
 * {@link BenchPhotos}' test photos. The command and the current figures are in BENCHMARKS.md.
 */
public final class WriterBenchmark {
  private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();

  public static void main(String[] args) throws Exception {
    Path photos = BenchPhotos.directory(Path.of(args.length > 0 ? args[0] : "/tmp/photos"));
    Path out = Path.of(args.length > 1 ? args[1] : "/tmp/writer-bench");
    List<Path> files = photoFiles(photos);
    Files.createDirectories(out);
    System.out.printf("%d photos from %s, native JPEG codec: %s%n", files.size(), photos, JpegCodecs.nativeAvailable());

    List<byte[]> jpegs = readAll(files);
    WriterLimit writerLimit = new WriterLimit(jpegs, BetonWriteConf.parse(java.util.Map.of("writeMode", "jpg",
        "maxResolution", "256", "jpegQuality", "90")));
    System.out.printf("the writer's limit (its own decode and encode per photo, nothing else): %s%n",
        writerLimit.describe());
    decodeLimit(jpegs, 2); // warms the codec up
    double[] listing = listingSeconds(photos, 7);
    double[] creating = creationSeconds(out.resolve("creates"), 15);
    writerLimit.seconds(2);
    // the image step against bare decoding on one thread, each beside the other: what any framework around
    // the step could reach at best
    double limit1Before = decodeLimit(jpegs, 1);
    long[] plainCpu = new long[1];
    double plain = plainJava(files, out.resolve("plain"), 1, plainCpu, "ycbcr");
    double limit1Mid = decodeLimit(jpegs, 1);
    double plainRgb = plainJava(files, out.resolve("plain"), 1, new long[1], "rgb");
    double limit1After = decodeLimit(jpegs, 1);
    double writerLimit2Before = writerLimit.seconds(2);
    double plain2 = plainJava(files, out.resolve("plain"), 2, new long[1], "ycbcr");
    double writerLimit2After = writerLimit.seconds(2);
    SparkSession spark = SparkSession.builder().master("local[2]").appName("WriterBenchmark")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1").getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    java.util.Map<String, Long> metrics = new java.util.concurrent.ConcurrentHashMap<>();
    spark.listenerManager().register(new org.apache.spark.sql.util.QueryExecutionListener() {
      @Override
      public void onSuccess(String funcName, org.apache.spark.sql.execution.QueryExecution qe, long durationNs) {
        collect(qe.executedPlan(), metrics);
      }

      @Override
      public void onFailure(String funcName, org.apache.spark.sql.execution.QueryExecution qe, Exception e) {}
    });
    TaskTimes taskTimes = new TaskTimes();
    spark.sparkContext().addSparkListener(taskTimes);
    // Warm-up writes (the first is reported: class loading and most of the JIT's work), then write runs
    // alternating the two paths, each between two measurements of the limits: the machine's speed drifts
    // 20-30% within minutes, so a ratio is only meaningful against a limit measured right beside it.
    // 8 write tasks (4 per core: binaryFile's partitions are balanced by bytes but coalesce groups them by
    // count, so with one task per core the task with the larger photos decides), the image column the files'
    // paths (the writer reads them; what beton prepare does), the JPEGs resized as YCbCr planes (the default) or,
    // for comparison, in RGB (jpegResizeSpace=rgb).
    // The input of the by-path writes is listed as beton prepare lists a class folder (ImageFolderListing's walk);
    // a third job, alternating with the two, takes its input from Spark's binaryFile source as this benchmark did
    // before (Hadoop statuses listed on the driver, and each file's status read again in the tasks), a fourth spools
    // every page to a file (spoolMemory 0) as the writer did before that option.
    // -DwriterBench.pairs=N: N measured writes of each job (3 unless set); -DwriterBench.warmUps=N writes first,
    // cycling through the jobs (8 unless set, two of each: with 2 writes of one job, the JIT was still compiling Spark's
    // and the writer's code through the timed writes, whose ratios rose from one to the next, 0.55x, 0.63x, 0.67x; with
    // 4 of the planes job only, the first timed writes of the other jobs compiled their code while the planes writes
    // ran, the compiler threads taking 8% of the 2 cores through them)
    int tasks = 8;
    Job[] jobKinds = Job.values();
    int warmUps = Integer.getInteger("writerBench.warmUps", 2 * jobKinds.length);
    Job[] planar = new Job[warmUps + jobKinds.length * Integer.getInteger("writerBench.pairs", 3)];
    for (int run = 0; run < planar.length; run++) {
      planar[run] = jobKinds[(run < warmUps ? run : run - warmUps) % jobKinds.length];
    }
    double[] seconds = new double[planar.length];
    // both limits, measured side by side before and after each timed write: the writer's own (decode at its scale
    // plus encode, the yardstick) and the older full-resolution decode alone
    double[] limits = new double[planar.length + 1];
    double[] writerLimits = new double[planar.length + 1];
    List<TaskTimes.Job> jobs = new ArrayList<>();
    List<TaskTimes.Job> binaryFileJobs = new ArrayList<>();
    java.util.Map<String, Double> threadCpu = new java.util.TreeMap<>(); // over the timed path writes
    double pathWallMs = 0;
    for (int run = 0; run < planar.length; run++) {
      if (run >= warmUps) {
        if (limits[run] == 0) {
          limits[run] = decodeLimit(jpegs, 2);
          writerLimits[run] = writerLimit.seconds(2);
        }
      }
      spark.sparkContext().listenerBus().waitUntilEmpty();
      metrics.clear();
      taskTimes.clear();
      ThreadCpu.Snapshot cpuBefore = ThreadCpu.take();
      long startMs = System.currentTimeMillis();
      long t0 = System.nanoTime();
      write(spark, photos, tasks, out.resolve("spark"), 1, planar[run]);
      long t1 = System.nanoTime();
      seconds[run] = (t1 - t0) / 1e9;
      long endMs = System.currentTimeMillis();
      // each write's window on both clocks, to cut a profile to it: wall (JFR's event times) and monotonic
      // (System.nanoTime, which perf record -k CLOCK_MONOTONIC stamps its samples with)
      System.out.printf("write window: run %d (%s%s), epoch ms %d-%d, monotonic ns %d-%d%n", run + 1, planar[run].label,
          run < warmUps ? ", warm-up" : "", startMs, endMs, t0, t1);
      ThreadCpu.Snapshot cpuAfter = ThreadCpu.take();
      if (run >= warmUps && planar[run] == Job.PLANES) {
        ThreadCpu.between(cpuBefore, cpuAfter).forEach((group, ms) -> threadCpu.merge(group, ms, Double::sum));
        pathWallMs += seconds[run] * 1000;
      }
      if (run >= warmUps) {
        limits[run + 1] = decodeLimit(jpegs, 2);
        writerLimits[run + 1] = writerLimit.seconds(2);
      }
      spark.sparkContext().listenerBus().waitUntilEmpty();
      if (run >= warmUps && planar[run] == Job.PLANES) {
        jobs.add(taskTimes.job(startMs, endMs));
      } else if (run >= warmUps && planar[run] == Job.BINARY_FILE) {
        binaryFileJobs.add(taskTimes.job(startMs, endMs));
      }
      System.out.printf("Spark, %d write tasks, " + planar[run].label + ", run %d: %.2f s; tasks spent decode %,d ms, resize %,d ms, encode %,d ms"
              + " (both cores)%n", tasks, run + 1, seconds[run], metrics.getOrDefault("betonDecodeMs", 0L),
          metrics.getOrDefault("betonResizeMs", 0L), metrics.getOrDefault("betonEncodeMs", 0L));
    }
    // one job over the photos 4 times (32 tasks): the per-job costs (planning, listing, the last task's tail,
    // the JIT still compiling Spark's code) spread over 4x the rows, closer to the large jobs the writer is for
    int copies = 4;
    spark.sparkContext().listenerBus().waitUntilEmpty();
    long tLong = System.nanoTime();
    write(spark, photos, tasks * copies, out.resolve("spark"), copies, Job.PLANES);
    double longSeconds = (System.nanoTime() - tLong) / 1e9;
    double longLimit = (limits[planar.length] + decodeLimit(jpegs, 2)) / 2;
    double longWriterLimit = (writerLimits[planar.length] + writerLimit.seconds(2)) / 2;
    spark.stop();

    int n = files.size();
    System.out.printf("%n%-74s %9s %14s %14s%n", "what (" + n + " photos, jpg, maxResolution 256, q90)", "images/s",
        "writer limit", "decode limit");
    System.out.printf("%-74s %9s%n", String.format("listing the %d photos: java.nio walk %.1f ms, Hadoop's listStatus"
        + " %.1f ms", n, listing[0] * 1e3, listing[1] * 1e3), String.format("%.2fx", listing[1] / listing[0]));
    System.out.printf("%-74s %9s%n", String.format("a driver's file (job marker, manifest): RawFileSystems.create %.2f ms,"
        + " Hadoop's local create %.2f ms", creating[0] * 1e3, creating[1] * 1e3),
        String.format("%.2fx", creating[1] / creating[0]));
    System.out.printf("%-74s %,9.0f %14s %13.2fx%n", "plain Java loop, 1 thread (vs the 1-thread decode limit beside it)",
        n / plain, "", (limit1Before + limit1Mid) / 2 / plain);
    System.out.printf("%-74s %,9.0f %14s %13.2fx%n", "plain Java loop, 1 thread, jpegResizeSpace=rgb", n / plainRgb, "",
        (limit1Mid + limit1After) / 2 / plainRgb);
    System.out.printf("%-74s %,9.0f %13.2fx%n", "plain Java loop, 2 threads (no Spark: the image step's ceiling)",
        n / plain2, (writerLimit2Before + writerLimit2After) / 2 / plain2);
    System.out.printf("%-74s %,9.0f%n", "Spark local[2] df.write.format(\"beton\"), first run", n / seconds[0]);
    int pairs = planar.length - warmUps;
    double[][] vsWriter = new double[jobKinds.length][pairs];
    double[][] vsDecode = new double[jobKinds.length][pairs];
    int[] counted = new int[jobKinds.length];
    for (int run = warmUps; run < planar.length; run++) {
      // the limits beside a run: the means of the measurements right before and right after it
      double limit = (limits[run] + limits[run + 1]) / 2;
      double wLimit = (writerLimits[run] + writerLimits[run + 1]) / 2;
      int k = planar[run].ordinal();
      vsWriter[k][counted[k]] = wLimit / seconds[run];
      vsDecode[k][counted[k]++] = limit / seconds[run];
      System.out.printf("%-74s %,9.0f %13.2fx %13.2fx%n", "Spark local[2], " + planar[run].label + ", run "
          + (run + 1) + " (limits beside it " + String.format("%,.0f / %,.0f", n / wLimit, n / limit) + "/s)",
          n / seconds[run], wLimit / seconds[run], limit / seconds[run]);
    }
    for (Job j : jobKinds) {
      int k = j.ordinal();
      System.out.printf("%-74s %9s %13.2fx %13.2fx%n", "Spark local[2], by path, " + j.label + ", median of "
          + counted[k] + " runs", "", median(vsWriter[k], counted[k]), median(vsDecode[k], counted[k]));
    }
    System.out.printf("%-74s %,9.0f %13.2fx %13.2fx%n", "Spark local[2], by path, planes, one job over the photos " + copies
        + " times (" + tasks * copies + " tasks)", copies * n / longSeconds, copies * longWriterLimit / longSeconds,
        copies * longLimit / longSeconds);
    System.out.printf("%-74s %9s %13.2fx%n", "(issue 24's goal against the writer's own limit)", "", 0.85);
    TaskTimes.print("image-path (planes)", jobs, n, plainCpu[0] / 1e6 / n);
    TaskTimes.print("binaryFile-input (planes)", binaryFileJobs, n, plainCpu[0] / 1e6 / n);
    printQuality(jpegs.subList(0, Math.min(500, jpegs.size())));
    printThreadCpu(threadCpu, pathWallMs);
  }

  /** Each thread group's CPU over the timed path writes, as a share of both cores for their wall time. */
  private static void printThreadCpu(java.util.Map<String, Double> groups, double wallMs) {
    System.out.printf("%nwho used the 2 cores during the timed image-path writes (share of 2 cores x %.0f ms; Linux ticks)%n",
        wallMs);
    double total = groups.values().stream().mapToDouble(Double::doubleValue).sum();
    groups.entrySet().stream().sorted(java.util.Map.Entry.<String, Double>comparingByValue().reversed())
        .filter(e -> e.getValue() >= 0.002 * 2 * wallMs)
        .forEach(e -> System.out.printf("  %-64s %10.3f%n", e.getKey(), e.getValue() / (2 * wallMs)));
    System.out.printf("  %-64s %10.3f%n", "all threads of the process", total / (2 * wallMs));
  }

  /**
   * What resizing as YCbCr planes costs in quality: both paths' stored JPEGs against the uncompressed RGB resize
   * of the same photos (raw mode), and against each other, as mean PSNR.
   */
  private static void printQuality(List<byte[]> jpegs) {
    java.util.function.Function<String, ImageEncoder> encoder = space -> new ImageEncoder(BetonWriteConf.parse(
        java.util.Map.of("writeMode", "jpg", "maxResolution", "256", "jpegQuality", "90", "jpegResizeSpace", space)), 0);
    double planesDb = 0;
    double rgbDb = 0;
    double betweenDb = 0;
    int compared = 0;
    try (ImageEncoder planes = encoder.apply("ycbcr"); ImageEncoder rgb = encoder.apply("rgb");
         ImageEncoder raw = new ImageEncoder(BetonWriteConf.parse(java.util.Map.of("maxResolution", "256")), 0);
         JpegCodec codec = JpegCodecs.fastest()) {
      for (int i = 0; i < jpegs.size(); i++) {
        byte[] reference = raw.fromEncoded(jpegs.get(i), i).payloadBytes();
        byte[] a = pixels(codec, planes.fromEncoded(jpegs.get(i), i));
        byte[] b = pixels(codec, rgb.fromEncoded(jpegs.get(i), i));
        if (java.util.Arrays.equals(a, b)) {
          continue; // passed through (no resize needed): the same bytes either way
        }
        planesDb += psnr(a, reference);
        rgbDb += psnr(b, reference);
        betweenDb += psnr(a, b);
        compared++;
      }
    }
    System.out.printf("%nquality of the stored JPEGs (%d resized photos, mean PSNR)%n", compared);
    System.out.printf("%-66s %10.2f%n", "YCbCr planes vs the uncompressed RGB resize, dB", planesDb / compared);
    System.out.printf("%-66s %10.2f%n", "jpegResizeSpace=rgb vs the uncompressed RGB resize, dB", rgbDb / compared);
    System.out.printf("%-66s %10.2f%n", "the two paths' JPEGs against each other, dB", betweenDb / compared);
  }

  private static byte[] pixels(JpegCodec codec, RgbImage image) {
    ByteBuffer out = ByteBuffer.allocate(image.width() * image.height() * 3);
    codec.decode(image.payload(), 8, Idct.ACCURATE, out, 0);
    return out.array();
  }

  private static double psnr(byte[] a, byte[] b) {
    double squares = 0;
    for (int i = 0; i < a.length; i++) {
      int d = (a[i] & 0xFF) - (b[i] & 0xFF);
      squares += d * d;
    }
    return 10 * Math.log10(255.0 * 255.0 / (squares / a.length));
  }

  /** The JPEGs under {@code photos}, in path order. */
  static List<Path> photoFiles(Path photos) throws java.io.IOException {
    try (Stream<Path> s = Files.walk(photos)) {
      return s.filter(p -> p.toString().toLowerCase().endsWith(".jpg")).sorted(Comparator.naturalOrder()).toList();
    }
  }

  /** The bytes of each of {@code files}. */
  static List<byte[]> readAll(List<Path> files) throws java.io.IOException {
    List<byte[]> bytes = new ArrayList<>();
    for (Path f : files) {
      bytes.add(Files.readAllBytes(f));
    }
    return bytes;
  }

  /** The median of the first {@code n} of {@code values} (the mean of the middle two for an even count). */
  static double median(double[] values, int n) {
    double[] sorted = java.util.Arrays.copyOf(values, n);
    java.util.Arrays.sort(sorted);
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  /** The timed jobs, alternating. */
  enum Job {
    /** The default: JPEGs resized as YCbCr planes; the input listed as beton prepare lists a class folder. */
    PLANES("planes"),
    /** {@code jpegResizeSpace=rgb}; the input as {@link #PLANES}. */
    RGB("rgb"),
    /** As {@link #PLANES}, the input from Spark's binaryFile source (the paths only; the writer reads the files). */
    BINARY_FILE("planes, binaryFile input"),
    /** As {@link #PLANES}, every page spooled to a file ({@code spoolMemory} 0) as before that option. */
    SPOOL_FILE("planes, spoolMemory 0");

    final String label;

    Job(String label) {
      this.label = label;
    }
  }

  /**
   * Writes the photos ({@code copies} times over, in one job) by path as jpg at maxResolution 256, q90, the JPEGs
   * resized as YCbCr planes (or, for {@link Job#RGB}, in RGB). The paths come from beton prepare's listing of a
   * class folder ({@link ImageFolderListing#images}, on the driver, in {@code tasks} partitions of equal counts), or
   * for {@link Job#BINARY_FILE} from Spark's binaryFile source, partitioned by bytes, then coalesced to {@code tasks}.
   */
  private static void write(SparkSession spark, Path photos, int tasks, Path target, int copies, Job job)
      throws java.io.IOException {
    Dataset<Row> files;
    if (job == Job.BINARY_FILE) {
      files = spark.read().format("binaryFile").option("recursiveFileLookup", "true")
          .option("pathGlobFilter", "*.jpg").load(photos.toString());
    } else {
      org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path(photos.toString());
      org.apache.hadoop.fs.FileSystem fs = dir.getFileSystem(spark.sparkContext().hadoopConfiguration());
      List<Row> paths = ImageFolderListing.images(fs, fs.makeQualified(dir)).stream()
          .map(p -> org.apache.spark.sql.RowFactory.create(p)).toList();
      files = spark.createDataFrame(org.apache.spark.api.java.JavaSparkContext.fromSparkContext(spark.sparkContext())
          .parallelize(paths, tasks), new org.apache.spark.sql.types.StructType().add("path", "string", false));
    }
    Dataset<Row> one = files.selectExpr("path as image",
        "cast(substring(regexp_extract(path, '(\\\\d+)\\\\.jpg$', 1), -1) as int) as label");
    Dataset<Row> rows = one;
    for (int c = 1; c < copies; c++) {
      rows = rows.union(one);
    }
    rows.coalesce(tasks).write().format("beton").mode(SaveMode.Overwrite).option("imageColumns", "image")
        .option("writeMode", "jpg").option("maxResolution", "256").option("jpegQuality", "90")
        .option("jpegResizeSpace", job == Job.RGB ? "rgb" : "ycbcr")
        .option("spoolMemory", job == Job.SPOOL_FILE ? "0" : "32M").save(target.toString());
  }

  /** Sums the writer's task metrics (betonDecodeMs, ...) over a finished query's plan. */
  private static void collect(org.apache.spark.sql.execution.SparkPlan plan, java.util.Map<String, Long> into) {
    scala.collection.JavaConverters.mapAsJavaMap(plan.metrics()).forEach((name, m) -> {
      if (name.startsWith("beton")) {
        into.merge(name, m.value(), Long::sum);
      }
    });
    for (org.apache.spark.sql.execution.SparkPlan child : scala.collection.JavaConverters.seqAsJavaList(plan.children())) {
      collect(child, into);
    }
  }

  /**
   * Medians of {@code rounds} alternations (after as many untimed): seconds to list the photo directory with
   * beton prepare's local walk (java.nio) and with Hadoop's {@code listStatus} (what other file systems get, and what
   * the local walk was before); same paths, checked.
   */
  private static double[] listingSeconds(Path photos, int rounds) throws java.io.IOException {
    org.apache.hadoop.fs.FileSystem fs = org.apache.hadoop.fs.FileSystem.getLocal(new org.apache.hadoop.conf.Configuration());
    org.apache.hadoop.fs.Path dir = fs.makeQualified(new org.apache.hadoop.fs.Path(photos.toString()));
    // the same local file system behind a filter: not seen as local, so walked through listStatus
    org.apache.hadoop.fs.FileSystem generic = new org.apache.hadoop.fs.FilterFileSystem(fs);
    double[] nio = new double[rounds];
    double[] hadoop = new double[rounds];
    for (int r = -rounds; r < rounds; r++) {
      long t0 = System.nanoTime();
      List<String> a = ImageFolderListing.images(fs, dir);
      long t1 = System.nanoTime();
      List<String> b = ImageFolderListing.images(generic, dir);
      long t2 = System.nanoTime();
      if (!a.equals(b)) {
        throw new IllegalStateException("the two walks differ");
      }
      if (r >= 0) {
        nio[r] = (t1 - t0) / 1e9;
        hadoop[r] = (t2 - t1) / 1e9;
      }
    }
    return new double[] {median(nio, rounds), median(hadoop, rounds)};
  }

  /**
   * Medians of {@code rounds} alternations (after as many untimed): seconds to create, write and close a small file on
   * the raw local file system as the writer's driver does (the job marker, the manifest: {@link RawFileSystems#create})
   * and through Hadoop's own {@code create}, which sets the file's mode by forking {@code chmod} when Hadoop's native
   * library is not loaded (as here, and in a plain Spark download).
   */
  private static double[] creationSeconds(Path dir, int rounds) throws java.io.IOException {
    Files.createDirectories(dir);
    org.apache.hadoop.fs.FileSystem raw = RawFileSystems.withoutChecksums(
        org.apache.hadoop.fs.FileSystem.getLocal(new org.apache.hadoop.conf.Configuration()));
    byte[] json = "{\"job\":\"bench\"}\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    double[] ours = new double[rounds];
    double[] hadoop = new double[rounds];
    for (int r = -rounds; r < rounds; r++) {
      org.apache.hadoop.fs.Path a = new org.apache.hadoop.fs.Path(dir.resolve("ours-" + r).toUri());
      org.apache.hadoop.fs.Path b = new org.apache.hadoop.fs.Path(dir.resolve("hadoop-" + r).toUri());
      long t0 = System.nanoTime();
      try (java.io.OutputStream o = RawFileSystems.create(raw, a, true)) {
        o.write(json);
      }
      long t1 = System.nanoTime();
      try (java.io.OutputStream o = raw.create(b, true)) {
        o.write(json);
      }
      long t2 = System.nanoTime();
      if (r >= 0) {
        ours[r] = (t1 - t0) / 1e9;
        hadoop[r] = (t2 - t1) / 1e9;
      }
    }
    return new double[] {median(ours, rounds), median(hadoop, rounds)};
  }

  /**
   * Seconds for {@code threads} threads to decode every photo at full size (accurate IDCT, as the writer),
   * nothing else: the machine's JPEG decode limit, which bounds any writer that must decode each photo.
   */
  private static double decodeLimit(List<byte[]> jpegs, int threads) throws Exception {
    return inParallel(threads, first -> {
      try (JpegCodec codec = JpegCodecs.fastest()) {
        JpegHeader header = new JpegHeader();
        ByteBuffer pixels = ByteBuffer.allocateDirect(1 << 20);
        for (int i = first; i < jpegs.size(); i += threads) {
          ByteBuffer src = ByteBuffer.wrap(jpegs.get(i));
          codec.probe(src, header);
          int bytes = header.width() * header.height() * 3;
          if (pixels.capacity() < bytes) {
            pixels = ByteBuffer.allocateDirect(bytes);
          }
          codec.decode(src, 8, Idct.ACCURATE, pixels, 0);
        }
      }
    });
  }

  /**
   * Seconds for {@code threads} threads to run the writer's image step over every photo into one file each;
   * their CPU time (ns, summed over the threads) into {@code cpuNanos[0]}.
   */
  private static double plainJava(List<Path> files, Path prefix, int threads, long[] cpuNanos, String resizeSpace)
      throws Exception {
    List<BetonField> fields = List.of(new BetonField("image", RgbImageField.INSTANCE), new BetonField("label", IntField.INSTANCE));
    BetonWriteConf conf = BetonWriteConf.parse(java.util.Map.of("writeMode", "jpg", "maxResolution", "256",
        "jpegQuality", "90", "jpegResizeSpace", resizeSpace));
    return inParallel(threads, first -> {
      try (ImageEncoder images = new ImageEncoder(conf, first);
           BetonWriter w = BetonWriter.builder(fields).expectedSamples(files.size() / threads + 1)
               .open(Path.of(prefix + "-" + first + ".beton"))) {
        long cpu0 = THREADS.getCurrentThreadCpuTime();
        for (int i = first; i < files.size(); i += threads) {
          RgbImage image = images.fromEncoded(Files.readAllBytes(files.get(i)), i);
          w.append(image, (long) (i % 10));
        }
        w.finish();
        long cpu = THREADS.getCurrentThreadCpuTime() - cpu0;
        synchronized (cpuNanos) {
          cpuNanos[0] += cpu;
        }
      }
    });
  }

  interface Part {
    void run(int first) throws Exception;
  }

  /** Seconds until {@code threads} threads have each run {@code part} (given their index). */
  static double inParallel(int threads, Part part) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      long t0 = System.nanoTime();
      List<Future<?>> parts = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int first = t;
        parts.add(pool.submit(() -> {
          part.run(first);
          return null;
        }));
      }
      for (Future<?> p : parts) {
        p.get();
      }
      return (System.nanoTime() - t0) / 1e9;
    } finally {
      pool.shutdown();
    }
  }
}
