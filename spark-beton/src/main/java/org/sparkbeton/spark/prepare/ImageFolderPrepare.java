package org.sparkbeton.spark.prepare;

import static org.apache.spark.sql.functions.col;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.DataFrameWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.spark.write.BetonWriteOptions;
import org.sparkbeton.spark.write.DatasetPublisher;
import scala.Tuple2;

/**
 * The dataset preparation job: an ImageFolder tree listed as torchvision's {@code ImageFolder} lists it (nested
 * folders and empty files included; hidden names and the extensions differ, {@link ImageFolderListing}; what is left
 * out is counted, {@link ListingReport}; the image files are read by the write tasks, by
 * path), labelled by the index of its sorted class folder (torchvision's rule), written with
 * {@code format("beton")} (decode, resize, re-encode on executors). An empty file is bad input like a corrupt
 * image: {@code empty file (0 bytes)}. Runs the same on an embedded {@code local[*]} Spark or under
 * {@code spark-submit}.
 */
public final class ImageFolderPrepare {
  /** How long to wait for the listener events of the write's last tasks after the write returned. */
  private static final Duration LISTENER_WAIT = Duration.ofSeconds(30);
  /** The local properties {@code SparkContext.setJobGroup} sets. */
  private static final String[] JOB_GROUP_PROPERTIES =
      {"spark.jobGroup.id", "spark.job.description", "spark.job.interruptOnCancel"};
  /** Write tasks per core at most, when no shard count is given: the last tasks of a job balance the cores. */
  static final int TASKS_PER_CORE = 4;
  /** Images per write task at least: a task's own cost (a shard file, its commit) stays small beside its images. */
  static final int MIN_IMAGES_PER_TASK = 256;

  private ImageFolderPrepare() {}

  /**
   * What one run produced.
   *
   * @param output the dataset directory, qualified ({@code file:/...}, {@code hdfs://...})
   * @param mode the save mode asked for
   * @param appended whether the run added to a dataset that was there (an append to a folder holding none writes a
   *     new dataset)
   * @param samples the dataset's samples, shards and bytes (after an append, the old shards' included)
   * @param seconds the whole run, from listing the input to the per-class counts
   * @param writeSeconds the write itself, from its start to its manifest
   * @param listing what the listing found: the images it listed (the rows of the write, {@link #listed()}) and what
   *     it left out of the input's class folders
   * @param shardsAsked the write tasks asked for (0: none asked; more than {@link #listed()}: one task per image ran)
   * @param written what this run's tasks did (from their metrics); {@code countsFinal} false if Spark's listener
   *     events for the last tasks did not arrive in time
   * @param quarantine where this run's quarantine records are ({@code null} when it quarantined nothing)
   * @param codec the JPEG codec the executors used (the manifest's recipe)
   */
  public record Result(String output, SaveMode mode, boolean appended, List<String> classes,
      Map<String, Long> samplesPerClass, long samples, long shards, long bytes, double seconds, double writeSeconds,
      ListingReport listing, int shardsAsked, WriteCounts written, boolean countsFinal,
      String quarantine, String codec) {
    /** The images the run listed: the rows of its write. */
    public long listed() {
      return listing.images();
    }
  }

  /** How to show the write's progress: where, whether that is a terminal, seconds between plain lines. */
  public record Progress(PrintStream out, boolean terminal, double intervalSeconds) {
  }

  /**
   * Write tasks of a run of {@code images} images on {@code cores} cores with no shard count given: up to
   * {@value #TASKS_PER_CORE} per core, each of at least {@value #MIN_IMAGES_PER_TASK} images, and never fewer
   * tasks than cores.
   */
  static int writeTasks(long images, int cores) {
    long byImages = images / MIN_IMAGES_PER_TASK;
    return (int) Math.max(cores, Math.min(byImages, (long) TASKS_PER_CORE * cores));
  }

  /**
   * The images to write as rows {@code (path, label)} in the partitions the write runs as its tasks, and what the
   * listing found (their count, what it left out); {@code persisted} is the listing kept for the write by Spark, if any, released by
   * {@link #release()}.
   */
  record ListedImages(Dataset<Row> rows, ListingReport report, Dataset<Row> persisted) {
    void release() {
      if (persisted != null) {
        persisted.unpersist();
      }
    }
  }

  /**
   * Lists the images of {@code root}'s class folders (its own left-out files counted in the report) and partitions them into the write's tasks: {@code shards} of them if
   * positive (at most one per image: a task with no image writes no shard, and thousands of them took minutes of
   * scheduling for nothing), else {@link #writeTasks(long, int)}. A few class folders ({@link ImageFolderListing#listsOnDriver})
   * holding up to {@code driverMaxImages} images are listed by the driver and cut into tasks of equal image counts
   * (a slice of the listing each, in label and path order). Others are listed by Spark tasks, one per few class
   * folders, kept for the write (the same job brings each folder's image count and what it left out to the
   * driver); their partitions are merged (a coalesce: no shuffle) into the
   * write's tasks, whose image counts then differ as the folders' do, or repartitioned into {@code shards}. Either
   * way a shard costs no padding beyond its last page's tail (the compact page layout).
   */
  static ListedImages list(SparkSession spark, String input, ImageFolderRoot root, int shards, int driverMaxImages)
      throws IOException {
    List<String> classes = root.classes();
    int cores = spark.sparkContext().defaultParallelism();
    ImageFolderListing.ListedHere listedHere = ImageFolderListing.listsOnDriver(spark, classes.size())
        ? ImageFolderListing.listHere(spark, input, classes, driverMaxImages) : null;
    if (listedHere != null) {
      List<Row> here = listedHere.rows();
      ListingReport report = listedHere.report().withRoot(root.leftOut());
      checkNotEmpty(report, input);
      int tasks = shards > 0 ? (int) Math.min(shards, here.size()) : writeTasks(here.size(), cores);
      // the slices travel in Spark's serializer: as (path, label) pairs, which Kryo knows even where it requires
      // registration (it does not know Row's class); tasks make the rows
      List<Tuple2<String, Integer>> pairs = new ArrayList<>(here.size());
      here.forEach(r -> pairs.add(new Tuple2<>(r.getString(0), r.getInt(1))));
      JavaRDD<Row> rows = JavaSparkContext.fromSparkContext(spark.sparkContext()).parallelize(pairs, tasks)
          .map(ImageFolderPrepare::row);
      return new ListedImages(spark.createDataFrame(rows, ImageFolderListing.SCHEMA), report, null);
    }
    ImageFolderListing.ListedByTasks byTasks = ImageFolderListing.listByTasks(spark, input, classes);
    ListingReport report = byTasks.report().withRoot(root.leftOut());
    long listed = report.images();
    if (listed == 0) {
      byTasks.persisted().unpersist();
    }
    checkNotEmpty(report, input);
    Dataset<Row> rows = shards > 0 ? byTasks.rows().repartition((int) Math.min(shards, listed))
        : byTasks.rows().coalesce(writeTasks(listed, cores));
    return new ListedImages(rows, report, byTasks.persisted());
  }

  private static Row row(Tuple2<String, Integer> pathAndLabel) {
    return RowFactory.create(pathAndLabel._1(), pathAndLabel._2());
  }

  /** Refuses an input without images, saying what its class folders hold instead, if anything. */
  private static void checkNotEmpty(ListingReport report, String input) {
    if (report.images() == 0) {
      throw new IllegalArgumentException("Input " + input + " has no images in its class folders ("
          + ImageFolderListing.IMAGE_GLOB + ")" + (report.leftOut().isEmpty() ? ""
          : "; left out " + report.leftOut().describe()));
    }
  }

  /** The class folders of an ImageFolder root, sorted: a sample's label is its folder's index here. */
  public static List<String> classes(SparkSession spark, String input) throws IOException {
    return ImageFolderRoot.of(spark.sparkContext().hadoopConfiguration(), input).classes();
  }

  /** {@link #run(SparkSession, String, String, Map, int, SaveMode, Progress)} with no progress display. */
  public static Result run(SparkSession spark, String input, String output, Map<String, String> options, int shards,
      boolean overwrite) throws IOException {
    return run(spark, input, output, options, shards, overwrite ? SaveMode.Overwrite : SaveMode.ErrorIfExists, null);
  }

  /**
   * Prepares {@code input} into {@code output}. {@code mode} is the DataFrame save mode (ErrorIfExists refuses an
   * existing dataset); {@code progress} null shows none.
   */
  public static Result run(SparkSession spark, String input, String output, Map<String, String> options, int shards,
      SaveMode mode, Progress progress) throws IOException {
    long t0 = System.nanoTime();
    InputOutputOverlap.refuse(spark.sparkContext().hadoopConfiguration(), input, output);
    ImageFolderRoot root = ImageFolderRoot.of(spark.sparkContext().hadoopConfiguration(), input);
    List<String> classes = root.classes();
    DatasetManifest existing = mode == SaveMode.Append ? existingManifest(spark, output) : null;
    ClassLabels labels = existing == null ? ClassLabels.of(classes) : ClassLabels.appendedTo(existing, output, classes);
    ListedImages images = list(spark, input, root, shards, ImageFolderListing.DRIVER_LISTING_MAX_IMAGES);
    Dataset<Row> files = images.rows().select(col("path"), col("path").as("image"), labels.label(col("label")));
    long listed = images.report().images();
    // the write tasks read each image by path themselves, at a fraction of the cost per row of binaryFile's content
    // column (a stream copy into a growing array, then a copy into the row). The path also names bad images in
    // errors and quarantine records; it is not stored.
    DataFrameWriter<Row> writer = files.write().format("beton").option("imageColumns", "image")
        .option("sourceIdColumn", "path").options(options)
        .option(BetonWriteOptions.CLASS_NAMES, BetonWriteOptions.classNames(labels.names()));
    ProgressModel model = new ProgressModel(listed, System::nanoTime);
    SparkContext sc = spark.sparkContext();
    String group = "beton-prepare-" + UUID.randomUUID();
    WriteProgressListener listener = new WriteProgressListener(model, group);
    sc.addSparkListener(listener);
    ProgressReporter reporter = progress == null ? null
        : ProgressReporter.start(model, progress.out(), progress.terminal(), progress.intervalSeconds());
    boolean countsFinal;
    try {
      // the write's jobs are told apart by their group; the caller's own group, if any, is put back afterwards
      String[] callers = new String[JOB_GROUP_PROPERTIES.length];
      for (int i = 0; i < callers.length; i++) {
        callers[i] = sc.getLocalProperty(JOB_GROUP_PROPERTIES[i]);
      }
      sc.setJobGroup(group, "beton prepare: write " + output, false);
      try {
        writer.mode(mode).save(output);
      } finally {
        for (int i = 0; i < callers.length; i++) {
          sc.setLocalProperty(JOB_GROUP_PROPERTIES[i], callers[i]);
        }
      }
      countsFinal = listener.awaitJobsEnded(LISTENER_WAIT);
      if (reporter != null) {
        reporter.finish(true);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted while waiting for the write's last task events", e);
    } finally {
      if (reporter != null) {
        reporter.close();
      }
      sc.removeSparkListener(listener);
      images.release();
    }
    double writeSeconds = model.snapshot().seconds();

    Path dir = new Path(output);
    FileSystem fs = dir.getFileSystem(sc.hadoopConfiguration());
    DatasetManifest manifest = manifest(fs, dir, output);
    Map<String, Long> perClass = new LinkedHashMap<>();
    labels.names().forEach(c -> perClass.put(c, 0L));
    // a label-only query: reads the metadata of each shard, never an image page
    // the label reads as the int it was written as, or as bigint after an append to a dataset written before types
    for (Row r : spark.read().format("beton").load(output).groupBy("label").count().collectAsList()) {
      perClass.put(labels.name(((Number) r.get(0)).longValue()), r.getLong(1));
    }
    long bytes = manifest.shards().stream().mapToLong(s -> s.bytes()).sum();
    WriteCounts written = model.finished();
    return new Result(fs.makeQualified(dir).toString(), mode, existing != null, labels.names(), perClass,
        manifest.totalSamples(), manifest.shards().size(), bytes, (System.nanoTime() - t0) / 1e9, writeSeconds,
        images.report(), shards, written, countsFinal,
        written.quarantined() > 0 ? quarantine(fs, dir, manifest.recipe().get("job_id")) : null,
        manifest.recipe().get("jpeg_codec"));
  }

  /**
   * The manifest of the dataset an append adds to, or null where there is none (the append writes a new one). Its
   * class names give the input's class folders their labels ({@link ClassLabels#appendedTo}); a new dataset labels
   * them by their sorted index.
   */
  private static DatasetManifest existingManifest(SparkSession spark, String output) throws IOException {
    Path dir = new Path(output);
    return DatasetPublisher.read(dir.getFileSystem(spark.sparkContext().hadoopConfiguration()), dir);
  }

  /** Where the run {@code jobId}'s quarantine records are: its one file, or a glob of its files (one per task). */
  private static String quarantine(FileSystem fs, Path dir, String jobId) throws IOException {
    Path q = new Path(dir, "_quarantine");
    List<String> ours = new ArrayList<>();
    if (jobId != null && fs.exists(q)) {
      for (FileStatus f : fs.listStatus(q)) {
        if (f.getPath().getName().contains("-" + jobId + "-")) {
          ours.add(f.getPath().getName());
        }
      }
    }
    String qualified = fs.makeQualified(q).toString();
    return ours.size() == 1 ? qualified + "/" + ours.get(0)
        : qualified + "/*-" + jobId + "-*.jsonl (" + ours.size() + " files)";
  }

  private static DatasetManifest manifest(FileSystem fs, Path dir, String output) throws IOException {
    DatasetManifest m = DatasetPublisher.read(fs, dir);
    if (m == null) {
      throw new IOException("The write to " + output + " published no manifest");
    }
    return m;
  }

}
