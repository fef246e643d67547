package org.sparkbeton.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskStart;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.codec.testing.TestPhotos;
import org.sparkbeton.format.dataset.DatasetManifest;

/**
 * Misconfiguration fails the query on the driver, before any task runs: an unknown write or read option (with
 * the nearest valid name), and image options on a write without an image column. A listener counts the tasks
 * that start; every write that fails leaves no directory.
 */
class BetonOptionsTest {
  @TempDir static Path tmp;
  static SparkSession spark;
  static final AtomicInteger tasks = new AtomicInteger();
  static Path dataset;

  @BeforeAll
  static void setUp() {
    spark = SparkTests.session("BetonOptionsTest");
    spark.sparkContext().addSparkListener(new SparkListener() {
      @Override
      public void onTaskStart(SparkListenerTaskStart start) {
        tasks.incrementAndGet();
      }
    });
    dataset = tmp.resolve("labels");
    spark.range(0, 20, 1, 2).selectExpr("id", "cast(id % 4 as int) as label").write().format("beton")
        .save(dataset.toString());
  }

  @AfterAll
  static void tearDown() {
    spark.stop();
  }

  @BeforeEach
  void resetTasks() throws Exception {
    spark.sparkContext().listenerBus().waitUntilEmpty();
    tasks.set(0);
  }

  private static int tasksStarted() throws Exception {
    spark.sparkContext().listenerBus().waitUntilEmpty();
    return tasks.get();
  }

  /** binaryFile's columns: real photos as encoded bytes, their paths, a label. */
  private static Dataset<Row> photos(int n) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      rows.add(RowFactory.create("file:/photos/p" + i + ".jpg", TestPhotos.photo(11, i), i % 3));
    }
    StructType schema = new StructType().add("path", DataTypes.StringType).add("content", DataTypes.BinaryType)
        .add("label", DataTypes.IntegerType);
    return spark.createDataFrame(rows, schema).coalesce(1);
  }

  @Test
  void aMisspelledWriteOptionFailsBeforeAnyTaskInEverySaveMode() throws Exception {
    Path fresh = tmp.resolve("misspelled");
    for (SaveMode mode : SaveMode.values()) {
      assertThatThrownBy(() -> photos(2).write().format("beton").mode(mode).option("imageColums", "content")
          .option("writeMode", "jpg").save(fresh.toString()))
          .as("%s", mode)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("Unknown option 'imageColums' for format(\"beton\") writes; did you mean"
              + " 'imageColumns'? Valid options (any case): imageColumns, maxResolution,");
      assertThat(fresh).as("%s", mode).doesNotExist();
    }
    // to an existing dataset too: Append and Overwrite leave it as it was, Ignore no longer hides the typo
    String before = Files.readString(dataset.resolve(DatasetManifest.FILE_NAME));
    for (SaveMode mode : SaveMode.values()) {
      assertThatThrownBy(() -> spark.range(3).write().format("beton").mode(mode).option("PageSise", "4M")
          .save(dataset.toString()))
          .as("%s", mode)
          .hasMessageStartingWith("Unknown option 'PageSise' for format(\"beton\") writes; did you mean 'pageSize'?");
    }
    assertThat(Files.readString(dataset.resolve(DatasetManifest.FILE_NAME))).isEqualTo(before);
    assertThat(tasksStarted()).isZero();
  }

  /** partitionBy is Spark's, not a misspelled option: the message says so, in every SaveMode, before any task. */
  @Test
  void partitionByFailsBeforeAnyTaskSayingWhatToDoInstead() throws Exception {
    Path fresh = tmp.resolve("partitioned");
    for (SaveMode mode : SaveMode.values()) {
      assertThatThrownBy(() -> photos(2).write().format("beton").mode(mode).partitionBy("label", "path")
          .option("imageColumns", "content").save(fresh.toString()))
          .as("%s", mode)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("format(\"beton\") writes take no partitionBy(label, path): a beton dataset is one directory"
              + " of shards under one manifest, opened as one by FFCV and the loader. Keep the column as a field (where()"
              + " and groupBy() on it are answered from the manifest and the metadata), or write a dataset per value,"
              + " e.g. df.where(\"label = 0\").write().format(\"beton\").save(path + \"/label=0\")");
      assertThat(fresh).as("%s", mode).doesNotExist();
    }
    assertThat(tasksStarted()).isZero();
  }

  @Test
  void aMisspelledReadOptionFailsBeforeAnyTask() throws Exception {
    assertThatThrownBy(() -> spark.read().format("beton").option("imageMod", "raw").load(dataset.toString()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Unknown option 'imageMod' for format(\"beton\") reads; did you mean 'imageMode'?"
            + " Valid options (any case): imageMode, ignoreCorruptFiles,");
    // a read given a schema skips inference: the scan is planned, and refused, on the driver
    assertThatThrownBy(() -> spark.read().schema("id long, label long").format("beton")
        .option("maxPartitionByte", "1m").load(dataset.toString()).collectAsList())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Unknown option 'maxPartitionByte' for format(\"beton\") reads; did you mean"
            + " 'maxPartitionBytes'?");
    assertThat(tasksStarted()).isZero();
  }

  /**
   * The options only streams act on were taken by batch reads and did nothing: startingPosition=latest read every
   * row. They are refused when the read is planned, a count answered from the manifest too; a table's options serve
   * its streams and its batch reads alike, so a batch read of a table leaves them out.
   */
  @Test
  void streamingOnlyReadOptionsAreRefusedByBatchReads() throws Exception {
    assertThatThrownBy(() -> spark.read().format("beton").option("startingPosition", "latest")
        .load(dataset.toString()).collectAsList())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Option startingPosition applies to streaming reads (spark.readStream().format(\"beton\")), not"
            + " to a batch read (spark.read()), which reads every shard the dataset lists whatever it says: leave it"
            + " out, or read the dataset as a stream");
    assertThatThrownBy(() -> spark.read().format("beton").option("MAXSHARDSPERTRIGGER", "1")
        .load(dataset.toString()).count())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Option maxShardsPerTrigger applies to streaming reads");
    assertThatThrownBy(() -> spark.read().format("beton").option("maxShardsPerTrigger", "1")
        .option("startingPosition", "earliest").load(dataset.toString()).groupBy("label").count().collectAsList())
        .hasMessageStartingWith("Options maxShardsPerTrigger and startingPosition apply to streaming reads");
    assertThat(tasksStarted()).isZero();

    spark.sql("create table streamed_labels using beton location '" + dataset.toUri() + "' options"
        + " (startingPosition 'latest', maxShardsPerTrigger '1')");
    try {
      assertThat(spark.table("streamed_labels").count()).isEqualTo(20);
    } finally {
      spark.sql("drop table streamed_labels");
    }
  }

  /** The positive control of the listener, and of the names Spark itself adds (path, paths), in any case. */
  @Test
  void validOptionsInAnyCaseReadAndWriteAsBefore() throws Exception {
    assertThat(spark.read().format("beton").option("MAXSAMPLESPERPARTITION", "5").option("fs.s3a.endpoint",
        "http://127.0.0.1:9000").load(dataset.toString()).selectExpr("sum(id)").first().getLong(0)).isEqualTo(190L);
    assertThat(spark.read().format("beton").option("path", dataset.toString()).load().count()).isEqualTo(20L);
    assertThat(tasksStarted()).isPositive();
    assertThatThrownBy(() -> spark.read().format("beton").load(dataset.toString(), dataset.toString()))
        .hasMessageStartingWith("Shard file:" + dataset).hasMessageEndingWith(": it would be read twice");
    Path out = tmp.resolve("photos-ok");
    photos(3).write().format("beton").option("IMAGECOLUMNS", "content").option("writeMode", "jpg")
        .option("maxResolution", "128").option("sourceIdColumn", "path").option("path", out.toString()).save();
    Row first = spark.read().format("beton").load(out.toString()).orderBy("label").first();
    assertThat(Math.max(first.<Integer>getAs("content_width"), first.<Integer>getAs("content_height"))).isEqualTo(128);
    assertThat(first.<String>getAs("content_mode")).isEqualTo("jpg");
  }

  @Test
  void imageOptionsWithoutAnImageColumnFailBeforeAnyTaskNamingThem() throws Exception {
    Path out = tmp.resolve("no-image-column");
    for (SaveMode mode : SaveMode.values()) {
      assertThatThrownBy(() -> photos(2).write().format("beton").mode(mode).option("writeMode", "jpg")
          .option("maxResolution", "256").option("sourceIdColumn", "path").save(out.toString()))
          .as("%s", mode)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Options writeMode, maxResolution apply to image columns, but no column is one, so they would do"
              + " nothing. Mark the columns of encoded images (binary) or of image file paths (string) with option"
              + " imageColumns, e.g. .option(\"imageColumns\", \"image\"); a Spark image struct"
              + " (spark.read.format(\"image\")) is one without being listed. Columns: path string, content binary,"
              + " label int");
    }
    assertThatThrownBy(() -> photos(2).write().format("beton").option("imageColumns", "contents")
        .option("writeMode", "jpg").save(out.toString()))
        .hasMessage("Option imageColumns names column 'contents', which the DataFrame does not have; did you mean"
            + " 'content'? Its columns: path string, content binary, label int");
    assertThat(out).doesNotExist();
    assertThat(tasksStarted()).isZero();
  }
}
