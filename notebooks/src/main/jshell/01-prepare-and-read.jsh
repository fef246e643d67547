// # 01 · Prepare an image folder with Spark, then read it back
//
// The data-preparation path of spark-beton on one machine: draw a small labelled image set, write it
// as a sharded `.beton` dataset with `df.write().format("beton")` on an embedded Spark, look at the
// manifest that defines the dataset, and read it back with `spark.read().format("beton")`.
// Run: `bin/beton-notebook 01-prepare-and-read.jsh` (about a minute; notebook 02 trains on its output).

import java.nio.file.*;
import java.util.stream.*;
import org.apache.spark.sql.*;
import static org.apache.spark.sql.functions.*;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.notebooks.Notebook;
import static org.sparkbeton.notebooks.Notebook.check;
import org.sparkbeton.spark.prepare.DemoImageFolder;
import org.sparkbeton.spark.prepare.ImageFolderPrepare;

// ## 1. A labelled image folder
// `DemoImageFolder` draws shapes as JPEGs, one folder per class (circle, square, ...): the layout
// torchvision's `ImageFolder` reads. Image i of a seed is always the same picture, so reruns are cheap.
Path work = Notebook.workDir();
Path images = DemoImageFolder.ensure(work.resolve("shapes"), 400, 42);
List<Path> jpegs;
try (Stream<Path> files = Files.walk(images)) { jpegs = files.filter(p -> p.toString().endsWith(".jpg")).sorted().toList(); }
System.out.printf("image folder: %s, %d JPEGs%n", images, jpegs.size());
System.out.println("per folder: " + jpegs.stream().
    collect(Collectors.groupingBy(p -> p.getParent().getFileName().toString(), TreeMap::new, Collectors.counting())));
check(jpegs.size() == 400, "400 JPEGs drawn");

// ## 2. An embedded Spark
// `local[2]`: two executor threads in this JVM. On a cluster the same code runs under spark-submit.
SparkSession spark = SparkSession.builder().master("local[2]").appName("notebook 01").
    config("spark.ui.enabled", "false").
    config("spark.sql.shuffle.partitions", "2").
    config("spark.sql.warehouse.dir", work.resolve("spark-warehouse").toString()).
    getOrCreate();
System.out.println("Spark " + spark.version());

// ## 3. One row per image: its path, its bytes, its label
// Spark's `binaryFile` source reads every JPEG as bytes. The label is the index of the image's folder
// among the sorted folder names (torchvision's rule), so "circle" is 0 whatever order files come in.
List<String> classes = ImageFolderPrepare.classes(spark, images.toString());
Column folder = regexp_extract(col("path"), "([^/]+)/[^/]+$", 1);
Dataset<Row> rows = spark.read().format("binaryFile").
    option("recursiveFileLookup", "true").option("pathGlobFilter", "*.jpg").
    load(images.toString()).
    select(col("path"), col("content").as("image"),
            array_position(lit(classes.toArray(new String[0])), folder).minus(1).cast("int").as("label"));
rows.printSchema();

// ## 4. Write the dataset
// Executors decode each image, resize its longer side to at most 256 px (FFCV's `max_resolution`),
// re-encode it as JPEG q90 and append it to a shard. `coalesce(2)`: one write task, so one shard, per
// core (binaryFile makes many small partitions). The driver writes `_manifest.json` last.
Path dataset = work.resolve("shapes-beton");
long t0 = System.nanoTime();
rows.coalesce(2).write().format("beton").
    option("imageColumns", "image").      // binary columns holding encoded images
    option("sourceIdColumn", "path").     // names a bad image in errors; not stored
    option("writeMode", "jpg").option("maxResolution", "256").option("jpegQuality", "90").
    mode(SaveMode.Overwrite).
    save(dataset.toString());
double writeSeconds = (System.nanoTime() - t0) / 1e9;
System.out.printf("wrote %d images in %.1f s (%.0f images/s; Spark's first job in this JVM, class loading included)%n",
    jpegs.size(), writeSeconds, jpegs.size() / writeSeconds);
// Each shard is whole 8 MiB pages (FFCV's layout); the hidden `.crc` files are Hadoop's local checksums.
try (Stream<Path> files = Files.list(dataset)) {
  files.filter(p -> !p.getFileName().toString().startsWith(".")).sorted().
      forEach(p -> System.out.printf("  %-40s %,12d bytes%n", p.getFileName(), p.toFile().length()));
}

// ## 5. The manifest is the dataset
// Shards (each a complete `.beton` FFCV opens on its own) with sample counts, sizes, SHA-256 and
// per-shard min/max of the label; the fields; and the recipe (how it was written: codec, sizes, versions).
String manifestJson = Files.readString(dataset.resolve("_manifest.json"));
System.out.println(manifestJson);
DatasetManifest manifest = DatasetManifest.parse(manifestJson);
check(manifest.totalSamples() == jpegs.size(), "manifest total_samples " + manifest.totalSamples() + " = JPEGs written");

// ## 6. Read it back
// Images come back as the stored JPEG plus width, height and mode columns; the label as a long.
// `count()` is answered from the manifest's sample counts: no shard is opened.
Dataset<Row> df = spark.read().format("beton").load(dataset.toString());
df.printSchema();
long count = df.count();
check(count == jpegs.size(), "count() = " + count);

// ## 7. A label histogram without reading an image
// Spark offers the aggregate to the source; the driver answers it from the shards' fixed-size metadata
// records (about 40 bytes a sample), so the plan is a `LocalTableScan`: no scan task, no image page read.
Dataset<Row> histogram = df.groupBy("label").count();
List<Row> bins = histogram.collectAsList().stream().sorted(Comparator.comparingLong(r -> r.getLong(0))).toList();
for (Row r : bins) System.out.printf("  label %d %-9s %4d%n", r.getLong(0), classes.get((int) r.getLong(0)), r.getLong(1));
histogram.explain();
long histogramTotal = bins.stream().mapToLong(r -> r.getLong(1)).sum();
check(histogramTotal == jpegs.size(), "histogram sums to " + histogramTotal + " = JPEGs written");
String plan = histogram.queryExecution().executedPlan().toString();
check(plan.contains("LocalTableScan") && !plan.contains("BatchScan"), "histogram answered on the driver (no BatchScan)");
// For contrast, a query that needs the image bytes plans a `BatchScan` of the shards, run as tasks.
Dataset<Row> jpegBytes = df.agg(sum(length(col("image"))).as("jpeg_bytes"));
jpegBytes.explain();
System.out.printf("JPEG bytes stored: %,d%n", jpegBytes.head().getLong(0));

// ## 8. Decode one image
// `imageMode=raw` decodes JPEGs on the executors (beton-codec, FFCV's fast IDCT) into H x W x 3 RGB bytes.
Row one = spark.read().format("beton").option("imageMode", "raw").load(dataset.toString()).
    where("label = 0").select("image", "image_width", "image_height", "label").head();
byte[] rgb = one.getAs("image");
int w = one.getInt(1), h = one.getInt(2);
System.out.printf("a %s, %dx%d, %,d RGB bytes:%n%s", classes.get(0), w, h, rgb.length, Notebook.ascii(rgb, w, h, 48));
check(rgb.length == 3 * w * h && Math.max(w, h) <= 256, "decoded " + w + "x" + h + "x3, longer side <= 256");

spark.stop();
// Each check above must have run and passed: a step that failed to compile or threw skips its check.
/exit Notebook.exitCode(6)
