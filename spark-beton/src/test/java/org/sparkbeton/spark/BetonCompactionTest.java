package org.sparkbeton.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.dataset.ColumnStats;
import org.sparkbeton.format.dataset.CompactionRecord;
import org.sparkbeton.format.dataset.DatasetFiles;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.DatasetVerifier;
import org.sparkbeton.format.dataset.Orphans;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.spark.write.BetonCompaction;

/**
 * {@link BetonCompaction}: many small appends merged into a few shards, the rows and their order unchanged, the
 * dataset's identity kept, the replaced shards left for readers and cleaned up later; options and paths refused
 * with reasons.
 */
class BetonCompactionTest {
  @TempDir static Path tmp;
  static SparkSession spark;

  @BeforeAll
  static void setUp() {
    spark = SparkTests.session("BetonCompactionTest");
  }

  @AfterAll
  static void tearDown() {
    spark.stop();
  }

  /** Eight appends of 25 rows, one shard each, with a payload of about 2 KB a row. */
  static Path smallAppends(String name) {
    Path dir = tmp.resolve(name);
    for (int i = 0; i < 8; i++) {
      spark.range(i * 25L, (i + 1) * 25L, 1, 1).selectExpr("id", "cast(id % 7 as int) as label",
          "repeat(cast(id as string), 2000 div length(cast(id as string))) as blob")
          .write().format("beton").mode("append").save(dir.toString());
    }
    return dir;
  }

  static DatasetManifest manifest(Path dir) throws Exception {
    return DatasetManifest.parse(Files.readString(dir.resolve(DatasetManifest.FILE_NAME)));
  }

  static List<String> shardFiles(Path dir) throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".beton")).sorted().toList();
    }
  }

  /**
   * A query planned before a compaction that deleted the shards it planned (keepReplacedFor passed before its tasks
   * ran: a long job, a stage retried later): each task reads its samples from the merged shard, the same rows in
   * the same order; a dataset overwritten meanwhile fails naming why.
   */
  @Test
  void aQueryPlannedBeforeACompactionThatDeletedItsShardsReadsTheSameRows() throws Exception {
    Path dir = smallAppends("planned-before");
    List<Row> rows = spark.read().format("beton").load(dir.toString()).collectAsList();
    org.apache.spark.sql.Dataset<Row> planned = spark.read().format("beton").load(dir.toString()).where("id % 3 = 0");
    int partitions = planned.queryExecution().toRdd().partitions().length; // planned: the shards' paths fixed

    BetonCompaction.compact(spark, dir.toString(), Map.of("keepReplacedFor", "0s"));
    assertThat(shardFiles(dir)).singleElement(); // the eight planned shards are gone

    assertThat(planned.collectAsList()).isEqualTo(rows.stream().filter(r -> r.getLong(0) % 3 == 0).toList());
    assertThat(partitions).isGreaterThan(1);

    org.apache.spark.sql.Dataset<Row> overwritten = spark.read().format("beton").load(dir.toString());
    overwritten.queryExecution().toRdd().partitions();
    spark.range(0, 10, 1, 1).selectExpr("id", "cast(id % 7 as int) as label", "'x' as blob").write().format("beton")
        .mode("overwrite").save(dir.toString());
    assertThatThrownBy(overwritten::collectAsList).hasStackTraceContaining("does not exist")
        .hasStackTraceContaining("Its samples are not in the dataset as it is now either: the dataset is ")
        .hasStackTraceContaining("this query planned: it was overwritten");
  }

  @Test
  void mergesRunsOfSmallShardsKeepingEveryRowInOrder() throws Exception {
    Path dir = smallAppends("small");
    DatasetManifest before = manifest(dir);
    List<Row> rows = spark.read().format("beton").load(dir.toString()).collectAsList();
    long third = before.shards().stream().mapToLong(ShardEntry::bytes).limit(3).sum();

    // room for three shards of these in each merged one: 8 shards become 3 (3, 3 and 2)
    BetonCompaction.Result r = BetonCompaction.compact(spark, dir.toString(),
        Map.of("targetShardSize", Long.toString(third)));

    assertThat(r).isEqualTo(new BetonCompaction.Result(dir.toString(), 8, 3, 3, 0, 200,
        before.shards().stream().mapToLong(ShardEntry::bytes).sum()));
    DatasetManifest after = manifest(dir);
    assertThat(after.shards()).extracting(ShardEntry::samples).containsExactly(75L, 75L, 50L);
    assertThat(after.shards().get(0).stats("id")).isEqualTo(ColumnStats.ofLongs(0, 74));
    assertThat(after.shards().get(2).stats("label")).isEqualTo(ColumnStats.ofLongs(0, 6));
    assertThat(after.fields()).isEqualTo(before.fields());
    assertThat(after.recipe().get(DatasetFiles.DATASET_ID)).isNotNull()
        .isEqualTo(before.recipe().get(DatasetFiles.DATASET_ID));
    assertThat(CompactionRecord.of(after.recipe())).singleElement().satisfies(c -> assertThat(c.replaced())
        .isEqualTo(before.shards().stream().map(ShardEntry::path).toList()));
    assertThat(DatasetVerifier.verify(dir, after)).allSatisfy(s -> assertThat(s.ok()).as(s.problems().toString())
        .isTrue());
    assertThat(spark.read().format("beton").load(dir.toString()).collectAsList()).isEqualTo(rows);

    // the replaced shards stay for readers that planned them: neither gc nor the next write deletes them yet
    assertThat(shardFiles(dir)).hasSize(11);
    assertThat(Orphans.find(dir).replaced()).hasSize(8);
    assertThat(Orphans.find(dir).orphans()).isEmpty();
    spark.range(200, 210, 1, 1).selectExpr("id", "cast(id % 7 as int) as label", "'x' as blob").write()
        .format("beton").mode("append").save(dir.toString());
    assertThat(shardFiles(dir)).hasSize(12);
    DatasetManifest appended = manifest(dir);
    assertThat(appended.recipe()).containsEntry(DatasetFiles.DATASET_ID, before.recipe().get(DatasetFiles.DATASET_ID));
    assertThat(CompactionRecord.of(appended.recipe())).isEqualTo(CompactionRecord.of(after.recipe()));

    // an hour later (keepReplacedFor's default) they are a killed job's leftovers, as any unlisted shard
    CompactionRecord record = CompactionRecord.of(appended.recipe()).get(0);
    assertThat(record.keepUntilMillis() - record.publishedMillis()).isEqualTo(3_600_000);
    long later = record.keepUntilMillis() + 1;
    assertThat(Orphans.find(Orphans.list(Orphans.local(dir)), appended, later).orphans()).hasSize(8);

    // the last merged shard (two of the old ones' size) and the appended one fit in one: merged again; the first
    // compaction's record is still fresh, so both are kept
    BetonCompaction.Result again = BetonCompaction.compact(spark, dir.toString(),
        Map.of("targetShardSize", Long.toString(third)));
    assertThat(again.groupsMerged()).isEqualTo(1);
    assertThat(again.shardsBefore()).isEqualTo(4);
    assertThat(again.shardsAfter()).isEqualTo(3);
    assertThat(manifest(dir).shards()).extracting(ShardEntry::samples).containsExactly(75L, 75L, 60L);
    assertThat(CompactionRecord.of(manifest(dir).recipe())).hasSize(2);
    assertThat(spark.read().format("beton").load(dir.toString()).count()).isEqualTo(210);

    // nothing left to merge: nothing published
    String published = Files.readString(dir.resolve(DatasetManifest.FILE_NAME));
    BetonCompaction.Result none = BetonCompaction.compact(spark, dir.toString(),
        Map.of("targetShardSize", Long.toString(third)));
    assertThat(none).isEqualTo(new BetonCompaction.Result(dir.toString(), 3, 3, 0, 0, 0, 0));
    assertThat(Files.readString(dir.resolve(DatasetManifest.FILE_NAME))).isEqualTo(published);
  }

  @Test
  void keepReplacedForSetsHowLongTheReplacedShardsStay() throws Exception {
    Path dir = smallAppends("kept");
    BetonCompaction.compact(spark, dir.toString(), Map.of("keepReplacedFor", "7d"));
    CompactionRecord record = CompactionRecord.of(manifest(dir).recipe()).get(0);
    assertThat(record.keepUntilMillis() - record.publishedMillis()).isEqualTo(7 * 86_400_000L);
    assertThat(manifest(dir).shards()).hasSize(1);
  }

  @Test
  void anOverwriteGivesTheDatasetANewIdentityAndAnAppendKeepsIt() throws Exception {
    Path dir = tmp.resolve("identity");
    spark.range(3).write().format("beton").save(dir.toString());
    String first = manifest(dir).recipe().get(DatasetFiles.DATASET_ID);
    spark.range(3, 5).write().format("beton").mode("append").save(dir.toString());
    assertThat(manifest(dir).recipe().get(DatasetFiles.DATASET_ID)).isEqualTo(first);
    spark.range(2).write().format("beton").mode("overwrite").save(dir.toString());
    assertThat(manifest(dir).recipe().get(DatasetFiles.DATASET_ID)).isNotNull().isNotEqualTo(first);
  }

  /** A shard that is not the one its manifest describes fails its task: nothing published, nothing left behind. */
  @Test
  void aFailedMergeChangesNothing() throws Exception {
    Path dir = smallAppends("failing");
    spark.range(0, 3, 1, 1).selectExpr("id", "cast(id as int) as label", "'x' as blob").write().format("beton")
        .mode("append").save(dir.toString());
    DatasetManifest before = manifest(dir);
    String published = Files.readString(dir.resolve(DatasetManifest.FILE_NAME));
    List<String> files = shardFiles(dir);
    // the second shard's file replaced by the last one's (3 samples, not 25)
    Files.copy(dir.resolve(before.shards().get(8).path()), dir.resolve(before.shards().get(1).path()),
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);

    // its size is not the manifest's: refused by the page checks before a byte is merged
    assertThatThrownBy(() -> BetonCompaction.compact(spark, dir.toString()))
        .hasStackTraceContaining(before.shards().get(1).path() + ": file at offset ")
        .hasStackTraceContaining("but the manifest says " + before.shards().get(1).bytes()
            + "; so nothing is merged (beton verify names every damaged shard)");
    assertThat(Files.readString(dir.resolve(DatasetManifest.FILE_NAME))).isEqualTo(published);
    assertThat(shardFiles(dir)).isEqualTo(files);
    try (Stream<Path> left = Files.list(dir)) {
      assertThat(left.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith("_job-"));
    }
  }

  /**
   * A byte changed in the data of a shard late in a run: the merge had written the run's earlier shards into its
   * merged file when the page check refused, and that part-written file stayed in the dataset (the job's failure
   * reaches the driver past its cleanup) until a later write or gc.
   */
  @Test
  void aMergeRefusedMidWayLeavesNoPartWrittenShard() throws Exception {
    Path dir = smallAppends("failing-late");
    DatasetManifest before = manifest(dir);
    String published = Files.readString(dir.resolve(DatasetManifest.FILE_NAME));
    List<String> files = shardFiles(dir);
    Path late = dir.resolve(before.shards().get(before.shards().size() - 1).path());
    long dataAt;
    try (org.sparkbeton.format.BetonReader r = org.sparkbeton.format.BetonReader.open(late)) {
      dataAt = r.metadataEnd() + 1;
    }
    try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(late.toFile(), "rw")) {
      f.seek(dataAt);
      int b = f.read();
      f.seek(dataAt);
      f.write(b ^ 0x40);
    }
    assertThatThrownBy(() -> BetonCompaction.compact(spark, dir.toString()))
        .hasStackTraceContaining(before.shards().get(before.shards().size() - 1).path() + ": page ")
        .hasStackTraceContaining("so nothing is merged");
    assertThat(Files.readString(dir.resolve(DatasetManifest.FILE_NAME))).isEqualTo(published);
    assertThat(shardFiles(dir)).isEqualTo(files);
  }

  /**
   * Appends from another thread while compactions run, and a stream that reads the dataset between them: every row
   * lands once in the dataset and once in the stream's copy.
   */
  @Test
  void appendsAndAStreamGoOnWhileCompactionsRun() throws Exception {
    Path dir = tmp.resolve("busy");
    spark.range(0, 10, 1, 2).selectExpr("id", "cast(id % 7 as int) as label").write().format("beton")
        .save(dir.toString());
    java.util.concurrent.ExecutorService appender = java.util.concurrent.Executors.newSingleThreadExecutor();
    java.util.concurrent.Future<?> appends = appender.submit(() -> {
      for (int i = 1; i <= 12; i++) {
        spark.range(i * 10L, (i + 1) * 10L, 1, 2).selectExpr("id", "cast(id % 7 as int) as label").write()
            .format("beton").mode("append").save(dir.toString());
      }
      return null;
    });
    Path copy = tmp.resolve("busy-copy");
    Path checkpoint = tmp.resolve("busy-checkpoint");
    int merged = 0;
    try {
      while (!appends.isDone()) {
        merged += BetonCompaction.compact(spark, dir.toString()).groupsMerged();
        drain(dir, copy, checkpoint);
      }
      appends.get();
    } finally {
      appender.shutdownNow();
    }
    merged += BetonCompaction.compact(spark, dir.toString()).groupsMerged();
    drain(dir, copy, checkpoint);

    assertThat(merged).as("compactions that merged something").isPositive();
    String all = "[130,130,8385]"; // rows 0..129, each once
    assertThat(sums(dir)).isEqualTo(all);
    assertThat(sums(copy)).isEqualTo(all);
    assertThat(manifest(dir).shards()).hasSize(1);
  }

  /** Reads the dataset at {@code dir} as a stream from its checkpoint into {@code copy}, up to what is there now. */
  static void drain(Path dir, Path copy, Path checkpoint) throws Exception {
    org.apache.spark.sql.streaming.StreamingQuery q = spark.readStream().format("beton").load(dir.toString())
        .writeStream().format("beton").option("checkpointLocation", checkpoint.toString())
        .trigger(org.apache.spark.sql.streaming.Trigger.AvailableNow()).start(copy.toString());
    assertThat(q.awaitTermination(120_000)).isTrue();
  }

  static String sums(Path dir) {
    return spark.read().format("beton").load(dir.toString()).selectExpr("count(*)", "count(distinct id)", "sum(id)")
        .first().toString();
  }

  @Test
  void refusesUnknownOptionsAndPathsWithoutADataset() {
    Path dir = smallAppends("refused");
    assertThatThrownBy(() -> BetonCompaction.compact(spark, dir.toString(), Map.of("targetShardSzie", "1G")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("targetShardSzie")
        .hasMessageContaining("targetShardSize");
    assertThatThrownBy(() -> BetonCompaction.compact(spark, dir.toString(), Map.of("targetShardSize", "big")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("targetShardSize");
    assertThatThrownBy(() -> BetonCompaction.compact(spark, dir.toString(), Map.of("manifestLockTimeout", "0")))
        .hasMessage("Option manifestLockTimeout must be a positive integer, got '0'");
    assertThatThrownBy(() -> BetonCompaction.compact(spark, dir.toString(), Map.of("keepReplacedFor", "90")))
        .hasMessage("Option keepReplacedFor must be a duration of 0 or more with its unit (0s, 90s, 30m, 12h, 7d),"
            + " got '90'");
    assertThatThrownBy(() -> BetonCompaction.compact(spark, dir.toString(), Map.of("keepReplacedFor", "2 fortnights")))
        .hasMessageStartingWith("Option keepReplacedFor must be a duration");
    // a negative one would record a keep-until before the compaction and delete the replaced shards at once
    assertThatThrownBy(() -> BetonCompaction.plan(spark, dir.toString(), Map.of("keepReplacedFor", "-1h")))
        .hasMessage("Option keepReplacedFor must be a duration of 0 or more with its unit (0s, 90s, 30m, 12h, 7d),"
            + " got '-1h'");
    assertThatThrownBy(() -> BetonCompaction.plan(spark, dir.toString(), Map.of("targetShardSzie", "1G")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("targetShardSize");
    Path none = tmp.resolve("none");
    assertThatThrownBy(() -> BetonCompaction.compact(spark, none.toString()))
        .hasMessage("No dataset at " + none + ": it has no _manifest.json (BetonCompaction.compact merges the shards"
            + " of a dataset a write published)");
    assertThatThrownBy(() -> BetonCompaction.plan(spark, none.toString(), Map.of()))
        .hasMessageStartingWith("No dataset at " + none);
  }

  /** A dry run: what the compaction with the same options then does, and nothing written meanwhile. */
  @Test
  void aPlanSaysWhatTheCompactionWillDoAndChangesNothing() throws Exception {
    Path dir = smallAppends("dry-run");
    DatasetManifest before = manifest(dir);
    long third = before.shards().stream().mapToLong(ShardEntry::bytes).limit(3).sum();
    Map<String, String> options = Map.of("targetShardSize", Long.toString(third));
    List<String> files;
    try (Stream<Path> listed = Files.list(dir)) {
      files = listed.map(p -> p.getFileName().toString()).sorted().toList();
    }

    BetonCompaction.Result plan = BetonCompaction.plan(spark, dir.toString(), options);

    assertThat(plan).isEqualTo(new BetonCompaction.Result(dir.toString(), 8, 3, 3, 0, 200,
        before.shards().stream().mapToLong(ShardEntry::bytes).sum()));
    assertThat(manifest(dir)).isEqualTo(before);
    try (Stream<Path> listed = Files.list(dir)) {
      assertThat(listed.map(p -> p.getFileName().toString()).sorted()).containsExactlyElementsOf(files);
    }
    assertThat(BetonCompaction.compact(spark, dir.toString(), options)).isEqualTo(plan);
    assertThat(BetonCompaction.plan(spark, dir.toString(), options))
        .isEqualTo(new BetonCompaction.Result(dir.toString(), 3, 3, 0, 0, 0, 0));
  }
}
