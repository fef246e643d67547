package org.sparkbeton.spark.prepare;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.element_at;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.map;
import static org.apache.spark.sql.functions.regexp_extract;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.DataFrameWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.spark.write.DatasetPublisher;

/**
 * The dataset preparation job: an ImageFolder tree listed with Spark's {@code binaryFile} source (the
 * image files are read by the write tasks, by path),
 * labelled by the index of its sorted class folder (torchvision's rule), written with
 * {@code format("beton")} (decode, resize, re-encode on executors). Runs the same on an embedded
 * {@code local[*]} Spark or under {@code spark-submit}.
 */
public final class ImageFolderPrepare {
  private static final String IMAGE_GLOB = "*.{jpg,jpeg,JPG,JPEG,png,PNG,bmp,BMP,gif,GIF,tif,tiff,TIF,TIFF,webp,WEBP}";

  private ImageFolderPrepare() {}

  /** What one run produced. */
  public record Result(List<String> classes, Map<String, Long> samplesPerClass, long samples, long shards, long bytes,
      double seconds) {
  }

  /** The class folders of an ImageFolder root, sorted: a sample's label is its folder's index here. */
  public static List<String> classes(SparkSession spark, String input) throws IOException {
    Path root = new Path(input);
    FileSystem fs = root.getFileSystem(spark.sparkContext().hadoopConfiguration());
    if (!fs.exists(root)) {
      throw new IllegalArgumentException("Input " + input + " does not exist");
    }
    List<String> classes = new ArrayList<>();
    for (FileStatus s : fs.listStatus(root)) {
      if (s.isDirectory() && !s.getPath().getName().startsWith(".")) {
        classes.add(s.getPath().getName());
      }
    }
    if (classes.isEmpty()) {
      throw new IllegalArgumentException("Input " + input + " has no class folders; expected <input>/<class>/<image>");
    }
    classes.sort(null);
    return classes;
  }

  public static Result run(SparkSession spark, String input, String output, Map<String, String> options, int shards,
      boolean overwrite) throws IOException {
    long t0 = System.nanoTime();
    List<String> classes = classes(spark, input);
    List<Column> entries = new ArrayList<>();
    for (int i = 0; i < classes.size(); i++) {
      entries.add(lit(classes.get(i)));
      entries.add(lit(i));
    }
    Column labelOf = map(entries.toArray(new Column[0]));
    Dataset<Row> files = spark.read().format("binaryFile").option("recursiveFileLookup", "true")
        .option("pathGlobFilter", IMAGE_GLOB).load(input)
        .select(col("path"), col("path").as("image"),
            element_at(labelOf, regexp_extract(col("path"), "([^/]+)/[^/]+$", 1)).cast("int").as("label"))
        .where(col("label").isNotNull());
    // binaryFile makes many small partitions; each write task fills whole pages of its own, so they are
    // merged (a coalesce: no shuffle of image bytes) into one task per core unless a shard count is asked
    // for. More tasks balance the cores better (coalesce groups partitions by count, not bytes: in
    // WriterBenchmark 8 tasks on 2 cores wrote 577 images/s, 2 tasks 471), but every shard costs about
    // a page and a half of padding (the data region starts on a page boundary and pages are written
    // whole, as FFCV does): 8 shards of the 2,000-image demo took 130 MB for 18 MB of JPEGs.
    files = shards > 0 ? files.repartition(shards) : files.coalesce(spark.sparkContext().defaultParallelism());
    // binaryFile only lists the files here (its content column is not selected, so it reads none): the write
    // tasks read each image by path themselves, at a fraction of the content column's cost per row (a stream
    // copy into a growing array, then a copy into the row). The path also names bad images in errors and
    // quarantine records; it is not stored.
    DataFrameWriter<Row> writer = files.write().format("beton").option("imageColumns", "image")
        .option("sourceIdColumn", "path").options(options);
    writer.mode(overwrite ? SaveMode.Overwrite : SaveMode.ErrorIfExists).save(output);
    double seconds = (System.nanoTime() - t0) / 1e9;

    DatasetManifest manifest = manifest(spark, output);
    Map<String, Long> perClass = new LinkedHashMap<>();
    classes.forEach(c -> perClass.put(c, 0L));
    // a label-only query: reads the metadata of each shard, never an image page
    for (Row r : spark.read().format("beton").load(output).groupBy("label").count().collectAsList()) {
      perClass.put(classes.get((int) r.getLong(0)), r.getLong(1));
    }
    long bytes = manifest.shards().stream().mapToLong(s -> s.bytes()).sum();
    return new Result(classes, perClass, manifest.totalSamples(), manifest.shards().size(), bytes, seconds);
  }

  private static DatasetManifest manifest(SparkSession spark, String output) throws IOException {
    Path dir = new Path(output);
    DatasetManifest m = DatasetPublisher.read(dir.getFileSystem(spark.sparkContext().hadoopConfiguration()), dir);
    if (m == null) {
      throw new IOException("The write to " + output + " published no manifest");
    }
    return m;
  }

  static String summary(Result r, String output) {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format("%nwrote %s: %,d samples in %d shard(s), %.1f MB, %.1f s, %,.0f images/s%n", output,
        r.samples(), r.shards(), r.bytes() / 1e6, r.seconds(), r.samples() / r.seconds()));
    sb.append(String.format("%-6s %-24s %10s%n", "label", "class", "samples"));
    int label = 0;
    for (Map.Entry<String, Long> e : r.samplesPerClass().entrySet()) {
      sb.append(String.format("%-6d %-24s %,10d%n", label++, e.getKey(), e.getValue()));
    }
    return sb.toString();
  }

}
