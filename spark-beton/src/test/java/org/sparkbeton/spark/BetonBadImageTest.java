package org.sparkbeton.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.ExceptionFailure;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.SparkListenerTaskStart;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.codec.testing.TestPhotos;
import org.sparkbeton.spark.write.BadImageException;
import org.sparkbeton.spark.write.BadValueException;

/**
 * A bad image (or a bad value) under the default policy: the save throws a {@link BadImageException} naming the
 * column, row, source and reason at the top of its failure, and the job stops at its first failed attempt although
 * Spark would retry the task (here {@code local[2,4]}: 4 attempts); no retry reads the partition again.
 */
class BetonBadImageTest {
  @TempDir static Path tmp;
  static SparkSession spark;
  static final int PHOTOS = 24;
  /** Rows the tasks have read, over all attempts: {@code seen(x)} counts one and returns x (one JVM in local mode). */
  static final AtomicInteger SEEN = new AtomicInteger();

  @BeforeAll
  static void setUp() {
    spark = SparkSession.builder().master("local[2,4]").appName("BetonBadImageTest")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1").getOrCreate();
    spark.udf().register("seen", (org.apache.spark.sql.api.java.UDF1<Integer, Integer>) x -> {
      SEEN.incrementAndGet();
      return x;
    }, DataTypes.IntegerType);
  }

  /**
   * Counts a save's task attempts and its failures by bad rows. It hears each failure before the save's own listener
   * (registered later) and holds it there for {@code delayMillis}: the driver's cancellation then comes after Spark has
   * started the retry, as it can on a busy driver, so that each test meets that case every time.
   */
  static final class Attempts extends SparkListener {
    final AtomicInteger started = new AtomicInteger();
    final List<String> badRowFailures = java.util.Collections.synchronizedList(new ArrayList<>());
    private final long delayMillis;

    Attempts(long delayMillis) {
      this.delayMillis = delayMillis;
    }

    @Override
    public void onTaskStart(SparkListenerTaskStart start) {
      started.incrementAndGet();
    }

    @Override
    public void onTaskEnd(SparkListenerTaskEnd end) {
      if (end.reason() instanceof ExceptionFailure f && (f.className().equals(BadImageException.class.getName())
          || f.className().equals(BadValueException.class.getName()))) {
        badRowFailures.add(f.description());
        try {
          Thread.sleep(delayMillis);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  /** Runs {@code save} with {@code attempts} listening; what it threw. */
  static Throwable saveWith(Attempts attempts, org.assertj.core.api.ThrowableAssert.ThrowingCallable save)
      throws java.util.concurrent.TimeoutException {
    spark.sparkContext().addSparkListener(attempts);
    SEEN.set(0);
    try {
      return catchThrowable(save);
    } finally {
      spark.sparkContext().listenerBus().waitUntilEmpty();
      spark.sparkContext().removeSparkListener(attempts);
    }
  }

  /** The bad-row notes left in {@code dir} (none once a failed write has cleaned up). */
  static List<String> badRowNotes(Path dir) throws java.io.IOException {
    if (!Files.exists(dir)) {
      return List.of();
    }
    try (var files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString()).filter(n -> n.contains("bad-row")).toList();
    }
  }

  @AfterAll
  static void tearDown() {
    spark.stop();
  }

  /** Photos by path, then a truncated JPEG last, in one partition: each attempt reads every photo first. */
  static Dataset<Row> photosThenABadOne(Path dir) throws Exception {
    List<Row> rows = new ArrayList<>();
    for (Path p : TestPhotos.writeFlat(dir, PHOTOS, 17)) {
      rows.add(RowFactory.create(p.toUri().toString(), rows.size()));
    }
    Path bad = dir.resolve("cut.jpg");
    byte[] photo = TestPhotos.photo(17, 99);
    Files.write(bad, java.util.Arrays.copyOf(photo, photo.length / 3));
    rows.add(RowFactory.create(bad.toUri().toString(), rows.size()));
    StructType schema = new StructType().add("image", DataTypes.StringType).add("label", DataTypes.IntegerType);
    return spark.createDataFrame(rows, schema).coalesce(1).withColumn("label",
        org.apache.spark.sql.functions.callUDF("seen", org.apache.spark.sql.functions.col("label")));
  }

  @Test
  void aBadImageFailsOnceWithOneClearMessageOnTop() throws Exception {
    Dataset<Row> df = photosThenABadOne(tmp.resolve("photos"));
    Attempts attempts = new Attempts(1000);
    Path out = tmp.resolve("dataset");
    Throwable thrown = saveWith(attempts, () -> df.write().format("beton").option("imageColumns", "image")
        .option("maxResolution", "64").save(out.toString()));

    assertThat(thrown).isInstanceOf(BadImageException.class);
    BadImageException bad = (BadImageException) thrown;
    String source = tmp.resolve("photos").resolve("cut.jpg").toUri().toString();
    assertThat(bad.detail()).matches("column 'image', row " + PHOTOS + " of partition 0 \\(source "
        + java.util.regex.Pattern.quote(source) + "\\): (Native|Java) JPEG [a-z ]+ failed: Premature end of JPEG file.*");
    assertThat(bad).hasMessage("Bad image in " + bad.detail() + " (set badImagePolicy=skip or quarantine to leave"
        + " such rows out)");
    // of the 4 attempts Spark would make, the first meets the bad image; the retry Spark starts before the
    // cancellation finds the first one's note and waits for the cancellation without reading a row
    assertThat(attempts.badRowFailures).hasSize(1);
    assertThat(attempts.started.get()).isEqualTo(2);
    assertThat(SEEN.get()).isEqualTo(PHOTOS + 1);
    assertThat(out.resolve("_manifest.json")).doesNotExist();
    assertThat(badRowNotes(out)).isEmpty();
  }

  /**
   * A value that cannot be stored fails every attempt alike too: a null under nullPolicy=fail, an array not of its
   * shape or holding a null, a sample of no image larger than a page. Each stops the job at its first failure with
   * a {@link BadValueException} on top naming the column, the row and the reason.
   */
  @Test
  void aBadValueFailsOnceNamingItsColumnAndRow() throws Exception {
    String[][] cases = {
        {"if(id = 3, null, id) as n", "column 'n', row 3 of partition 0: null; .beton has no nulls (filter them, or set"
            + " nullPolicy=skip)"},
        {"if(id = 3, array(1.0f, 2.0f), array(1.0f, 2.0f, 3.0f)) as emb", "column 'emb', row 3 of partition 0: 2"
            + " elements, but its shape (option arrayShapes) is 3, 3 elements"},
        {"if(id = 3, array(1.0f, null, 2.0f), array(1.0f, 2.0f, 3.0f)) as emb", "column 'emb', row 3 of partition 0:"
            + " null element at index 1; .beton arrays have no nulls"},
        {"if(id = 3, unhex(repeat('00', 3000000)), unhex('00')) as blob", "row 3 of partition 0: Sample needs 3000000"
            + " bytes of payload (label=0, blob=3000000) but a page holds 2097152; all of a sample's payloads must share"
            + " one page: use a larger page size (option pageSize)"}};
    for (String[] c : cases) {
      Attempts attempts = new Attempts(1000);
      Path out = tmp.resolve("values-" + Math.abs(c[0].hashCode()));
      Throwable thrown = saveWith(attempts, () -> spark.range(6).selectExpr("seen(cast(id as int)) as label", c[0])
          .coalesce(1).write().format("beton").option("arrayShapes", c[0].endsWith(" as emb") ? "emb:3" : "")
          .option("pageSize", "2M")
          .save(out.toString()));

      assertThat(thrown).as(c[0]).isInstanceOf(BadValueException.class).hasMessage("Bad value in " + c[1]);
      assertThat(attempts.badRowFailures).as(c[0]).hasSize(1);
      assertThat(attempts.started.get()).as(c[0]).isEqualTo(2);
      // row 3 fails the first attempt (rows 4 and 5 may have been read ahead of the write); the retry reads none
      assertThat(SEEN.get()).as(c[0]).isBetween(4, 6);
      assertThat(out.resolve("_manifest.json")).doesNotExist();
      assertThat(badRowNotes(out)).as(c[0]).isEmpty();
    }
  }

  /**
   * Where no driver watches for bad rows (a write that goes to the data source's batch write directly, past the
   * provider), Spark makes all its attempts; the retries fail at once with the first attempt's bad row, from its note,
   * without reading the partition again.
   */
  @Test
  void withoutTheDriversWatchTheRetriesFailAtOnceOnTheNote() throws Exception {
    Attempts attempts = new Attempts(0);
    Path out = tmp.resolve("unwatched");
    Throwable thrown = saveWith(attempts, () -> spark.range(6)
        .selectExpr("seen(cast(id as int)) as label", "if(id = 3, null, id) as n").coalesce(1).write().format("beton")
        .option(BetonProvider.V2_WRITE, "true").mode(org.apache.spark.sql.SaveMode.Append).save(out.toString()));

    String message = "Bad value in column 'n', row 3 of partition 0: null; .beton has no nulls (filter them, or set"
        + " nullPolicy=skip)";
    assertThat(org.sparkbeton.spark.write.BadRow.in(thrown)).isNotNull().extracting(b -> b.getMessage())
        .isEqualTo(message);
    assertThat(attempts.started.get()).isEqualTo(4);
    assertThat(attempts.badRowFailures).containsExactly(message, message, message, message);
    assertThat(SEEN.get()).isBetween(4, 6);
    assertThat(out.resolve("_manifest.json")).doesNotExist();
    assertThat(badRowNotes(out)).isEmpty();
  }
}
