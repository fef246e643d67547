package org.sparkbeton.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.dataset.DatasetManifest;

/**
 * {@code df.writeStream().format("beton")}: micro-batches appended (Append mode) or replacing the dataset (Complete
 * mode), each published by the driver; a batch run again after a restart whose checkpoint lost its commit publishes
 * nothing twice; what a stream cannot write fails before its first batch.
 */
class BetonStreamingWriteTest {
  @TempDir static Path tmp;
  static SparkSession spark;

  @BeforeAll
  static void setUp() {
    spark = SparkSession.builder().master("local[2]").appName("BetonStreamingWriteTest")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2").getOrCreate();
  }

  @AfterAll
  static void tearDown() {
    spark.stop();
  }

  /** A JSON file of rows {@code first..first+n-1} of the input stream, label = value % 3. */
  private static void input(Path dir, String name, int first, int n) throws Exception {
    Files.createDirectories(dir);
    StringBuilder lines = new StringBuilder();
    for (int i = first; i < first + n; i++) {
      lines.append("{\"label\": ").append(i % 3).append(", \"value\": ").append(i).append("}\n");
    }
    Path written = Files.writeString(dir.resolve("." + name + ".tmp"), lines);
    Files.move(written, dir.resolve(name)); // whole files only, as a file stream reads them
  }

  private static Dataset<Row> stream(Path in) {
    return spark.readStream().schema("label INT, value LONG").option("maxFilesPerTrigger", "1").json(in.toString());
  }

  /** Runs the stream over what its input holds now, one file per batch, to the end. */
  private static void drain(Dataset<Row> rows, Path out, Path checkpoint, String outputMode) throws Exception {
    StreamingQuery query = rows.writeStream().format("beton").outputMode(outputMode)
        .option("checkpointLocation", checkpoint.toString()).trigger(Trigger.AvailableNow()).start(out.toString());
    assertThat(query.awaitTermination(120_000)).as("the stream ran to the end of its input").isTrue();
  }

  private static DatasetManifest manifest(Path dataset) throws Exception {
    return DatasetManifest.parse(Files.readString(dataset.resolve(DatasetManifest.FILE_NAME)));
  }

  private static long shardFiles(Path dataset) throws Exception {
    try (Stream<Path> files = Files.list(dataset)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".beton")).count();
    }
  }

  /**
   * {@code compactEvery}: the dataset compacted after every third batch, the micro-batches' shards merged into one
   * (the replaced ones kept for readers); a batch write refuses the option.
   */
  @Test
  void compactEveryMergesTheBatchesShards() throws Exception {
    Path in = tmp.resolve("compacted-in");
    Path out = tmp.resolve("compacted-out");
    for (int f = 0; f < 7; f++) {
      input(in, "f" + f + ".json", f * 5, 5);
    }
    StreamingQuery query = stream(in).writeStream().format("beton").option("compactEvery", "3")
        .option("checkpointLocation", tmp.resolve("compacted-checkpoint").toString()).trigger(Trigger.AvailableNow())
        .start(out.toString());
    assertThat(query.awaitTermination(120_000)).isTrue();

    DatasetManifest m = manifest(out);
    // batches 0-2 merged after batch 2, that shard and batches 3-5 after batch 5; batch 6 after it
    assertThat(m.shards()).extracting(org.sparkbeton.format.dataset.ShardEntry::samples).containsExactly(30L, 5L);
    assertThat(m.totalSamples()).isEqualTo(35);
    assertThat(org.sparkbeton.format.dataset.CompactionRecord.of(m.recipe())).hasSize(2);
    assertThat(spark.read().format("beton").load(out.toString()).selectExpr("count(distinct value)", "sum(value)")
        .first().toString()).isEqualTo("[35,595]");
    assertThat(shardFiles(out)).as("7 batches' shards and the first merge, kept for readers; the 2 merged").isEqualTo(9);

    assertThatThrownBy(() -> spark.range(3).write().format("beton").option("compactEvery", "2")
        .save(tmp.resolve("compacted-batch").toString()))
        .hasMessageContaining("Option compactEvery applies to streaming writes (writeStream)");

    // keepReplacedFor 0s: the replaced shards are deleted by the compaction's own cleanup, not kept an hour
    Path unkept = tmp.resolve("compacted-unkept");
    StreamingQuery again = stream(in).writeStream().format("beton").option("compactEvery", "3")
        .option("keepReplacedFor", "0s").option("checkpointLocation", tmp.resolve("unkept-checkpoint").toString())
        .trigger(Trigger.AvailableNow()).start(unkept.toString());
    assertThat(again.awaitTermination(120_000)).isTrue();
    assertThat(manifest(unkept).shards()).extracting(org.sparkbeton.format.dataset.ShardEntry::samples)
        .containsExactly(30L, 5L);
    assertThat(shardFiles(unkept)).as("the merged shard and the last batch's").isEqualTo(2);
    assertThatThrownBy(() -> spark.range(3).write().format("beton").option("keepReplacedFor", "0s")
        .save(tmp.resolve("unkept-batch").toString()))
        .hasMessageContaining("Option keepReplacedFor is for the compactions of a streaming write with compactEvery");
  }

  @Test
  void appendsEachBatchAndPublishesNoBatchTwiceAfterARestart() throws Exception {
    Path in = tmp.resolve("append-in");
    Path out = tmp.resolve("append-out");
    Path checkpoint = tmp.resolve("append-checkpoint");
    input(in, "a.json", 0, 10);
    input(in, "b.json", 10, 7);
    drain(stream(in), out, checkpoint, "append");
    assertThat(manifest(out).totalSamples()).isEqualTo(17);
    String queryKey = manifest(out).recipe().keySet().stream().filter(k -> k.startsWith("stream_batch.")).findFirst()
        .orElseThrow();
    assertThat(manifest(out).recipe()).containsEntry(queryKey, "1"); // batches 0 and 1, a file each

    // the query goes on from its checkpoint: only the new file's rows
    input(in, "c.json", 17, 5);
    drain(stream(in), out, checkpoint, "append");
    assertThat(manifest(out).totalSamples()).isEqualTo(22);
    assertThat(manifest(out).recipe()).containsEntry(queryKey, "2");

    // the checkpoint loses batch 2's commit (a driver dying between the dataset's publish and the checkpoint's
    // write): Spark runs batch 2 again on restart, and the dataset, which has it, takes nothing
    Files.delete(checkpoint.resolve("commits").resolve("2"));
    Files.deleteIfExists(checkpoint.resolve("commits").resolve(".2.crc"));
    drain(stream(in), out, checkpoint, "append");
    DatasetManifest after = manifest(out);
    assertThat(after.totalSamples()).isEqualTo(22);
    assertThat(shardFiles(out)).isEqualTo(after.shards().size()); // the run again left no shard behind
    assertThat(spark.read().format("beton").load(out.toString())
        .selectExpr("count(*)", "count(distinct value)", "sum(value)").first().toString()).isEqualTo("[22,22,231]");

    // a batch overwrite (here keeping 5 rows) keeps the record: batch 2, run again, does not bring its rows back
    spark.read().format("beton").load(out.toString()).where("value < 5").write().format("beton").mode("overwrite")
        .save(out.toString());
    assertThat(manifest(out).recipe()).containsEntry(queryKey, "2");
    Files.delete(checkpoint.resolve("commits").resolve("2"));
    Files.deleteIfExists(checkpoint.resolve("commits").resolve(".2.crc"));
    drain(stream(in), out, checkpoint, "append");
    assertThat(manifest(out).totalSamples()).isEqualTo(5);
  }

  /**
   * A batch whose publish fails (the manifest's lock held by a job that died) is aborted, and the abort deletes its
   * shards: the commit had taken the batch, so the abort found none and threw ("batch 1 ends, but no batch of it
   * was started"), and each failed run left its shards unlisted in the dataset.
   */
  @Test
  void aBatchWhosePublishFailsLeavesNoShardBehind() throws Exception {
    Path in = tmp.resolve("abort-in");
    Path out = tmp.resolve("abort-out");
    Path checkpoint = tmp.resolve("abort-checkpoint");
    input(in, "a.json", 0, 6);
    drain(stream(in), out, checkpoint, "append");
    Files.writeString(out.resolve("_manifest.lock"), "{\"owner\":\"a job that died\"}\n");
    input(in, "b.json", 6, 4);
    StreamingQuery query = stream(in).writeStream().format("beton").option("checkpointLocation", checkpoint.toString())
        .option("manifestLockTimeout", "1").trigger(Trigger.AvailableNow()).start(out.toString());
    assertThatThrownBy(() -> query.awaitTermination(120_000)).isInstanceOf(StreamingQueryException.class)
        .hasStackTraceContaining("is locked by another job publishing to it");
    assertThat(manifest(out).totalSamples()).isEqualTo(6);
    assertThat(shardFiles(out)).as("the failed batch's shards are deleted").isEqualTo(manifest(out).shards().size());
    Files.delete(out.resolve("_manifest.lock"));
    drain(stream(in), out, checkpoint, "append");
    assertThat(manifest(out).totalSamples()).isEqualTo(10);
  }

  @Test
  void completeModeReplacesTheDatasetWithEachBatch() throws Exception {
    Path in = tmp.resolve("complete-in");
    Path out = tmp.resolve("complete-out");
    input(in, "a.json", 0, 9);
    input(in, "b.json", 9, 4);
    Dataset<Row> counts = stream(in).groupBy("label").count();
    drain(counts, out, tmp.resolve("complete-checkpoint"), "complete");
    assertThat(spark.read().format("beton").load(out.toString()).orderBy("label").collectAsList().stream()
        .map(Row::toString).toList()).containsExactly("[0,5]", "[1,4]", "[2,4]");
    assertThat(manifest(out).totalSamples()).isEqualTo(3);
    assertThat(shardFiles(out)).isEqualTo(manifest(out).shards().size());
  }

  @Test
  void refusesWhatAStreamCannotWriteBeforeItsFirstBatch() throws Exception {
    Path in = tmp.resolve("refused-in");
    input(in, "a.json", 0, 3);
    Path out = tmp.resolve("refused-out");
    assertThatThrownBy(() -> stream(in).writeStream().format("beton").option("pageSise", "4M")
        .option("checkpointLocation", tmp.resolve("refused-checkpoint").toString()).trigger(Trigger.AvailableNow())
        .start(out.toString()).awaitTermination(120_000)).hasStackTraceContaining("Unknown option 'pageSise'")
        .hasStackTraceContaining("pageSize");
    Path file = Files.writeString(tmp.resolve("a-file"), "not a dataset");
    assertThatThrownBy(() -> stream(in).writeStream().format("beton")
        .option("checkpointLocation", tmp.resolve("refused-checkpoint-2").toString()).trigger(Trigger.AvailableNow())
        .start(file.toString()).awaitTermination(120_000)).hasStackTraceContaining("it is a file");
    assertThatThrownBy(() -> stream(in).groupBy("label").count().writeStream().format("beton").outputMode("update")
        .option("checkpointLocation", tmp.resolve("refused-checkpoint-3").toString()).trigger(Trigger.AvailableNow())
        .start(out.toString()).awaitTermination(120_000)).hasStackTraceContaining("does not support Update mode");
    assertThat(out.resolve(DatasetManifest.FILE_NAME)).doesNotExist();
  }
}
