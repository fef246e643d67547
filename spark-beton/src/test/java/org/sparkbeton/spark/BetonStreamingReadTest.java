package org.sparkbeton.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.dataset.DatasetManifest;

/**
 * Datasets read as streams ({@code spark.readStream().format("beton")}): what the dataset holds, then each append,
 * once, across restarts from the checkpoint; a limit of shards per batch; a start after what is there; a dataset
 * replaced under the stream, or appended to with wider column types; and what cannot be read as a stream.
 */
class BetonStreamingReadTest {
  @TempDir static Path tmp;
  static SparkSession spark;

  @BeforeAll
  static void setUp() {
    spark = SparkSession.builder().master("local[2]").appName("BetonStreamingReadTest")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2").getOrCreate();
  }

  @AfterAll
  static void tearDown() {
    spark.stop();
  }

  /** Appends rows {@code first..first+n-1} (label = value % 3) to the dataset at {@code dir}, in two shards. */
  private static void append(Path dir, int first, int n) {
    spark.range(first, first + n, 1, 2).selectExpr("cast(id % 3 as int) as label", "id as value").write()
        .format("beton").mode("append").save(dir.toString());
  }

  private static Dataset<Row> stream(Path dir, String... options) {
    var reader = spark.readStream().format("beton");
    for (int i = 0; i < options.length; i += 2) {
      reader = reader.option(options[i], options[i + 1]);
    }
    return reader.load(dir.toString());
  }

  /**
   * Runs the stream of {@code rows} over what is there now, appending to the dataset {@code out} (a sink that, unlike
   * Spark's memory sink, goes on from a checkpoint); the progress of its batches that read rows.
   */
  private static List<StreamingQueryProgress> drain(Dataset<Row> rows, Path out, Path checkpoint) throws Exception {
    StreamingQuery query = rows.writeStream().format("beton").option("checkpointLocation", checkpoint.toString())
        .trigger(Trigger.AvailableNow()).start(out.toString());
    assertThat(query.awaitTermination(120_000)).as("the stream ran to the end of its input").isTrue();
    return Arrays.stream(query.recentProgress()).filter(p -> p.numInputRows() > 0).toList();
  }

  /** Rows, distinct values and their sum in the dataset at {@code dir}. */
  private static String sums(Path dir) {
    return spark.read().format("beton").load(dir.toString())
        .selectExpr("count(*)", "count(distinct value)", "sum(value)").first().toString();
  }

  @Test
  void readsTheDatasetThenEachAppendOnceAcrossRestarts() throws Exception {
    Path dir = tmp.resolve("appended");
    append(dir, 0, 10);
    Path out = tmp.resolve("appended-copy");
    Path checkpoint = tmp.resolve("appended-checkpoint");
    assertThat(drain(stream(dir), out, checkpoint)).hasSize(1);
    assertThat(sums(out)).isEqualTo("[10,10,45]");
    assertThat(stream(dir).schema().simpleString()).isEqualTo("struct<label:int,value:bigint>");

    // the query goes on from its checkpoint: only what was appended since, each row once
    append(dir, 10, 5);
    append(dir, 15, 3);
    assertThat(drain(stream(dir), out, checkpoint)).hasSize(1);
    assertThat(sums(out)).isEqualTo("[18,18,153]");
    assertThat(drain(stream(dir), out, checkpoint)).as("nothing new, no batch").isEmpty();
    assertThat(sums(out)).isEqualTo("[18,18,153]");
  }

  @Test
  void maxShardsPerTriggerSpreadsTheShardsOverBatches() throws Exception {
    Path dir = tmp.resolve("limited");
    append(dir, 0, 10);
    append(dir, 10, 10);
    int shards = DatasetManifest.parse(Files.readString(dir.resolve(DatasetManifest.FILE_NAME))).shards().size();
    assertThat(shards).isEqualTo(4);
    Path out = tmp.resolve("limited-copy");
    List<StreamingQueryProgress> batches = drain(stream(dir, "maxShardsPerTrigger", "3"), out,
        tmp.resolve("limited-checkpoint"));
    assertThat(batches).hasSize(2);
    assertThat(batches.get(0).numInputRows()).isEqualTo(15); // 3 of the 4 shards: 5, 5 and 5 rows
    assertThat(sums(out)).isEqualTo("[20,20,190]");
  }

  @Test
  void startingPositionLatestReadsOnlyWhatIsAppendedAfterTheStart() throws Exception {
    Path dir = tmp.resolve("latest");
    append(dir, 0, 10);
    Path out = tmp.resolve("latest-copy");
    Path checkpoint = tmp.resolve("latest-checkpoint");
    assertThat(drain(stream(dir, "startingPosition", "latest"), out, checkpoint)).isEmpty();
    append(dir, 10, 4);
    // from its checkpoint the query goes on where it was, whatever the option says now
    assertThat(drain(stream(dir), out, checkpoint)).hasSize(1);
    assertThat(sums(out)).isEqualTo("[4,4,46]");
  }

  @Test
  void aDatasetReplacedUnderTheStreamFailsItsQuery() throws Exception {
    Path dir = tmp.resolve("replaced");
    append(dir, 0, 6);
    Path out = tmp.resolve("replaced-copy");
    Path checkpoint = tmp.resolve("replaced-checkpoint");
    drain(stream(dir), out, checkpoint);
    spark.range(3).selectExpr("cast(id as int) as label", "id as value").write().format("beton").mode("overwrite")
        .save(dir.toString());
    assertThatThrownBy(() -> drain(stream(dir), out, checkpoint))
        .hasStackTraceContaining("was replaced after this stream read it")
        .hasStackTraceContaining("start a new query (a new checkpointLocation)");
    assertThat(sums(out)).isEqualTo("[6,6,15]");
    Path fresh = tmp.resolve("replaced-fresh-copy");
    drain(stream(dir), fresh, tmp.resolve("replaced-checkpoint-2"));
    assertThat(sums(fresh)).isEqualTo("[3,3,3]");
  }

  /**
   * A compaction under a stream changes nothing it reads: a batch planned before it and run again after it (its
   * commit lost) reads the same rows out of the merged shard, and the next batch starts inside that shard where the
   * stream stood; every row once.
   */
  @Test
  void aCompactionUnderTheStreamChangesNothingItReads() throws Exception {
    Path dir = tmp.resolve("compacted");
    append(dir, 0, 10);
    append(dir, 10, 10); // 4 shards of 5 rows
    Path out = tmp.resolve("compacted-copy");
    Path checkpoint = tmp.resolve("compacted-checkpoint");
    assertThat(drain(stream(dir, "maxShardsPerTrigger", "3"), out, checkpoint)).extracting(
        StreamingQueryProgress::numInputRows).containsExactly(15L, 5L);
    // the checkpoint loses batch 1's commit: the query runs it again, from the offsets it planned it with
    Files.delete(checkpoint.resolve("commits").resolve("1"));
    Files.deleteIfExists(checkpoint.resolve("commits").resolve(".1.crc"));

    append(dir, 20, 10); // 6 shards
    List<String> before;
    try (Stream<Path> files = Files.list(dir)) {
      before = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".beton")).sorted().toList();
    }
    org.sparkbeton.spark.write.BetonCompaction.Result r =
        org.sparkbeton.spark.write.BetonCompaction.compact(spark, dir.toString());
    assertThat(r.shardsBefore()).isEqualTo(6);
    assertThat(r.shardsAfter()).isEqualTo(1);
    assertThat(r.samplesMoved()).isEqualTo(30);
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".beton")).toList())
          .as("the replaced shards stay for readers that planned them").containsAll(before).hasSize(7);
    }

    // batch 1 again (rows 15..19, now inside the merged shard; the sink had published it, so it adds nothing), then
    // rows 20..29 from inside the merged shard
    assertThat(drain(stream(dir, "maxShardsPerTrigger", "3"), out, checkpoint)).extracting(
        StreamingQueryProgress::numInputRows).containsExactly(5L, 10L);
    assertThat(sums(out)).isEqualTo("[30,30,435]");
    append(dir, 30, 4);
    assertThat(drain(stream(dir), out, checkpoint)).extracting(StreamingQueryProgress::numInputRows)
        .containsExactly(4L);
    assertThat(sums(out)).isEqualTo("[34,34,561]");
  }

  @Test
  void anAppendThatWidensAColumnUnderARunningStreamFailsItsQuery() throws Exception {
    Path dir = tmp.resolve("widened");
    append(dir, 0, 4);
    StreamingQuery query = stream(dir).writeStream().format("beton")
        .option("checkpointLocation", tmp.resolve("widened-checkpoint").toString())
        .trigger(Trigger.ProcessingTime(100)).start(tmp.resolve("widened-copy").toString());
    try {
      query.processAllAvailable();
      // bigint labels appended to int ones: the dataset's label is bigint now, beyond the stream's int
      spark.range(4, 6, 1, 1).selectExpr("id * 10000000000 as label", "id as value").write().format("beton")
          .mode("append").save(dir.toString());
      assertThatThrownBy(query::processAllAvailable).hasStackTraceContaining("changed after this stream read it")
          .hasStackTraceContaining("{label=INT}").hasStackTraceContaining("Restart the query");
    } finally {
      query.stop();
    }
    assertThat(sums(tmp.resolve("widened-copy"))).isEqualTo("[4,4,6]");
  }

  /**
   * Each progress says how far the query is behind the dataset: the shards, and their samples, published after what it
   * has read; the same through the V1 source a stream given its columns runs on.
   */
  @Test
  void eachProgressSaysHowManyShardsAndSamplesAreLeft() throws Exception {
    Path dir = tmp.resolve("lag");
    append(dir, 0, 6); // two shards of 3 samples
    append(dir, 6, 4); // two of 2
    for (boolean given : List.of(false, true)) {
      Dataset<Row> rows = given
          ? spark.readStream().format("beton").schema("label int, value bigint").option("maxShardsPerTrigger", "1")
              .load(dir.toString())
          : stream(dir, "maxShardsPerTrigger", "1");
      List<StreamingQueryProgress> progress = drain(rows, tmp.resolve("lag-copy-" + given),
          tmp.resolve("lag-checkpoint-" + given));
      assertThat(progress).as("given columns: %s", given)
          .extracting(p -> p.sources()[0].metrics().get("shardsBehindLatest")).containsExactly("3", "2", "1", "0");
      assertThat(progress).as("given columns: %s", given)
          .extracting(p -> p.sources()[0].metrics().get("samplesBehindLatest")).containsExactly("7", "4", "2", "0");
    }
  }

  /**
   * A stream given its columns runs on the V1 source, whose batches are plain RDDs: their tasks still count the rows
   * and bytes they read in their input metrics (the Stages tab's Input column).
   */
  @Test
  void theV1SourcesTasksCountTheirInput() throws Exception {
    Path dir = tmp.resolve("input-metrics");
    append(dir, 0, 12);
    java.util.concurrent.atomic.AtomicLong records = new java.util.concurrent.atomic.AtomicLong();
    java.util.concurrent.atomic.AtomicLong bytes = new java.util.concurrent.atomic.AtomicLong();
    org.apache.spark.scheduler.SparkListener listener = new org.apache.spark.scheduler.SparkListener() {
      @Override
      public void onTaskEnd(org.apache.spark.scheduler.SparkListenerTaskEnd end) {
        if (end.taskMetrics() != null) {
          records.addAndGet(end.taskMetrics().inputMetrics().recordsRead());
          bytes.addAndGet(end.taskMetrics().inputMetrics().bytesRead());
        }
      }
    };
    spark.sparkContext().addSparkListener(listener);
    try {
      drain(spark.readStream().format("beton").schema("label int, value bigint").load(dir.toString()),
          tmp.resolve("input-metrics-copy"), tmp.resolve("input-metrics-checkpoint"));
      spark.sparkContext().listenerBus().waitUntilEmpty();
    } finally {
      spark.sparkContext().removeSparkListener(listener);
    }
    assertThat(records).hasValue(12);
    assertThat(bytes.get()).as("bytes read").isPositive();
  }

  /**
   * A stream given its columns ({@code readStream().schema(...)}) reads them as a table's declared columns: a subset,
   * each as its given type; over a directory not yet written it waits for the first write there and reads all of it,
   * then each append, and goes on from its checkpoint after a restart. A given column the dataset lacks is named.
   */
  @Test
  void aStreamGivenItsColumnsWaitsForTheFirstWriteAndReadsThoseColumns() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("given"));
    Path out = tmp.resolve("given-copy");
    Path checkpoint = tmp.resolve("given-checkpoint");
    Dataset<Row> rows = spark.readStream().format("beton").schema("value bigint, label bigint")
        .option("startingPosition", "latest").load(dir.toString());
    assertThat(rows.schema().simpleString()).isEqualTo("struct<value:bigint,label:bigint>");
    StreamingQuery query = rows.writeStream().format("beton").option("checkpointLocation", checkpoint.toString())
        .trigger(Trigger.ProcessingTime(100)).start(out.toString());
    try {
      query.processAllAvailable();
      assertThat(Files.exists(out.resolve(DatasetManifest.FILE_NAME))).as("no batch with rows yet").isFalse();
      append(dir, 0, 6); // label int, value bigint
      query.processAllAvailable();
      assertThat(sums(out)).isEqualTo("[6,6,15]");
      append(dir, 6, 2);
      query.processAllAvailable();
      assertThat(sums(out)).isEqualTo("[8,8,28]");
    } finally {
      query.stop();
    }
    assertThat(spark.read().format("beton").load(out.toString()).schema().simpleString())
        .isEqualTo("struct<value:bigint,label:bigint>");

    append(dir, 8, 2);
    Dataset<Row> again = spark.readStream().format("beton").schema("value bigint, label bigint").load(dir.toString());
    assertThat(drain(again, out, checkpoint)).hasSize(1);
    assertThat(sums(out)).isEqualTo("[10,10,45]");

    assertThatThrownBy(() -> spark.readStream().format("beton").schema("value bigint, caption string")
        .load(dir.toString())).hasMessageContaining("Column 'caption' is not a field of the beton dataset at ")
        .hasMessageContaining("(its fields: label, value)");
  }

  @Test
  void refusesWhatCannotBeReadAsAStream() throws Exception {
    Path dir = tmp.resolve("refused");
    append(dir, 0, 4);
    Path shard;
    try (Stream<Path> files = Files.list(dir)) {
      shard = files.filter(p -> p.toString().endsWith(".beton")).findFirst().orElseThrow();
    }
    assertThatThrownBy(() -> drain(stream(shard), tmp.resolve("refused-copy"), tmp.resolve("refused-checkpoint")))
        .hasStackTraceContaining("reads a dataset directory").hasStackTraceContaining("Read it with spark.read()");
    assertThatThrownBy(() -> stream(dir, "maxShardsPerTrigger", "0"))
        .hasStackTraceContaining("maxShardsPerTrigger must be positive");
    assertThatThrownBy(() -> stream(dir, "startingPosition", "newest"))
        .hasStackTraceContaining("startingPosition must be earliest or latest, got 'newest'");
    assertThatThrownBy(() -> stream(dir, "maxShardPerTrigger", "2"))
        .hasStackTraceContaining("did you mean 'maxShardsPerTrigger'");
    assertThatThrownBy(() -> stream(tmp.resolve("missing")))
        .hasStackTraceContaining("Path does not exist");
    assertThatThrownBy(() -> stream(Files.createDirectories(tmp.resolve("nothing-yet"))))
        .hasMessageContaining("No beton dataset at").hasMessageContaining("start it once the first write to the path"
            + " has committed");
  }
}
