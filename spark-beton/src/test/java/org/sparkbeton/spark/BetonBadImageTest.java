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
 * A bad image (or a bad value: the last test) under the default policy: the save throws a {@link BadImageException} naming the column, row, source
 * and reason at the top of its failure, and the job stops at its first failed attempt although Spark would retry
 * the task (here {@code local[2,4]}: 4 attempts).
 */
class BetonBadImageTest {
  @TempDir static Path tmp;
  static SparkSession spark;
  static final int PHOTOS = 24;

  @BeforeAll
  static void setUp() {
    spark = SparkSession.builder().master("local[2,4]").appName("BetonBadImageTest")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1").getOrCreate();
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
    return spark.createDataFrame(rows, schema).coalesce(1);
  }

  @Test
  void aBadImageFailsOnceWithOneClearMessageOnTop() throws Exception {
    Dataset<Row> df = photosThenABadOne(tmp.resolve("photos"));
    AtomicInteger attempts = new AtomicInteger();
    AtomicInteger badImageFailures = new AtomicInteger();
    SparkListener counter = new SparkListener() {
      @Override
      public void onTaskStart(SparkListenerTaskStart start) {
        attempts.incrementAndGet();
      }

      @Override
      public void onTaskEnd(SparkListenerTaskEnd end) {
        if (end.reason() instanceof ExceptionFailure f && f.className().equals(BadImageException.class.getName())) {
          badImageFailures.incrementAndGet();
        }
      }
    };
    spark.sparkContext().addSparkListener(counter);
    Path out = tmp.resolve("dataset");
    Throwable thrown;
    try {
      thrown = catchThrowable(() -> df.write().format("beton").option("imageColumns", "image")
          .option("maxResolution", "64").save(out.toString()));
    } finally {
      spark.sparkContext().listenerBus().waitUntilEmpty();
      spark.sparkContext().removeSparkListener(counter);
    }

    assertThat(thrown).isInstanceOf(BadImageException.class);
    BadImageException bad = (BadImageException) thrown;
    String source = tmp.resolve("photos").resolve("cut.jpg").toUri().toString();
    assertThat(bad.detail()).matches("column 'image', row " + PHOTOS + " of partition 0 \\(source "
        + java.util.regex.Pattern.quote(source) + "\\): (Native|Java) JPEG [a-z ]+ failed: Premature end of JPEG file.*");
    assertThat(bad).hasMessage("Bad image in " + bad.detail() + " (set badImagePolicy=skip or quarantine to leave"
        + " such rows out)");
    // the retries Spark would make (4 attempts of the one task) are cancelled after the first bad image; the first
    // retry may have started before the cancellation reached it
    assertThat(badImageFailures.get()).isEqualTo(1);
    assertThat(attempts.get()).isBetween(1, 2);
    assertThat(out.resolve("_manifest.json")).doesNotExist();
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
      AtomicInteger attempts = new AtomicInteger();
      SparkListener counter = new SparkListener() {
        @Override
        public void onTaskStart(SparkListenerTaskStart start) {
          attempts.incrementAndGet();
        }
      };
      spark.sparkContext().addSparkListener(counter);
      Path out = tmp.resolve("values-" + Math.abs(c[0].hashCode()));
      Throwable thrown;
      try {
        thrown = catchThrowable(() -> spark.range(6).selectExpr("cast(id as int) as label", c[0]).coalesce(1).write()
            .format("beton").option("arrayShapes", "emb:3").option("pageSize", "2M").save(out.toString()));
      } finally {
        spark.sparkContext().listenerBus().waitUntilEmpty();
        spark.sparkContext().removeSparkListener(counter);
      }

      assertThat(thrown).as(c[0]).isInstanceOf(BadValueException.class).hasMessage("Bad value in " + c[1]);
      assertThat(attempts.get()).as(c[0]).isBetween(1, 2);
      assertThat(out.resolve("_manifest.json")).doesNotExist();
    }
  }
}
