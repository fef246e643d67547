package org.sparkbeton.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.dataset.DatasetFiles;
import org.sparkbeton.format.dataset.DatasetManifest;

/**
 * The files of killed jobs (shards no manifest lists, empty files, quarantine records, a stale marker, a manifest
 * left half published) are removed by the next successful write to the dataset; those of a running job (its marker
 * fresh) and every file that is not this project's stay. A write keeps its own marker while its tasks run.
 */
class BetonOrphanCleanupTest {
  @TempDir static Path tmp;
  static SparkSession spark;
  /** Markers seen by the tasks in the directory {@link #watched} names (local mode: one JVM). */
  static final java.util.Set<String> MARKERS_SEEN = java.util.concurrent.ConcurrentHashMap.newKeySet();
  static volatile Path watched;

  @BeforeAll
  static void setUp() {
    spark = SparkTests.session("BetonOrphanCleanupTest");
    spark.udf().register("lookForMarkers", (UDF1<Long, Long>) id -> {
      Path dir = watched;
      if (dir != null && id == 100) {
        try (Stream<Path> files = Files.list(dir)) {
          files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("_job-")).forEach(MARKERS_SEEN::add);
        }
      }
      return id;
    }, DataTypes.LongType);
  }

  @AfterAll
  static void tearDown() {
    spark.stop();
  }

  static Dataset<Row> rows(long from, long to) {
    return spark.range(from, to, 1, 2).selectExpr("lookForMarkers(id) as id", "cast(id % 5 as int) as label");
  }

  static List<String> names(Path dir) throws Exception {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString()).sorted().toList();
    }
  }

  static Path aged(Path file, long minutes) throws Exception {
    Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() - minutes * 60_000));
    return file;
  }

  @Test
  void theNextWriteRemovesTheFilesOfKilledJobsAndNothingElse() throws Exception {
    Path dir = tmp.resolve("cleaned");
    rows(0, 100).write().format("beton").option("pageSize", "2M").save(dir.toString());
    String shard = names(dir).stream().filter(n -> n.endsWith(".beton")).findFirst().orElseThrow();
    // a job killed mid-write (no marker left): a whole shard, an empty one, quarantine records
    Files.copy(dir.resolve(shard), dir.resolve("part-00000-0badc0de-a0-000.beton"));
    Files.write(dir.resolve("part-00001-0badc0de-a0-000.beton"), new byte[0]);
    Files.createDirectories(dir.resolve("_quarantine"));
    Files.writeString(dir.resolve("_quarantine/part-00001-0badc0de-a0.jsonl"), "{\"source\":null}\n");
    // a job whose driver died 11 minutes ago: its marker went stale
    aged(Files.writeString(dir.resolve(DatasetFiles.jobMarker("1badc0de")), "{}"), 11);
    Files.write(dir.resolve("part-00003-1badc0de-a0-000.beton"), new byte[4096]);
    // a manifest left half published by a job that died holding no lock
    Files.writeString(dir.resolve("._manifest-5b0c8d8e-4a55-4b8e-9a1e-2f6c1b0f7a11.tmp"), "{");
    // a job that is running: its marker is fresh
    Files.writeString(dir.resolve(DatasetFiles.jobMarker("2badc0de")), "{}");
    Files.write(dir.resolve("part-00002-2badc0de-a0-000.beton"), new byte[100]);
    // the user's
    Files.writeString(dir.resolve("notes.txt"), "mine");
    Files.write(dir.resolve("part-00009-mine.beton"), new byte[10]);

    watched = dir;
    try {
      rows(100, 150).write().format("beton").mode(SaveMode.Append).option("pageSize", "2M").save(dir.toString());
    } finally {
      watched = null;
    }

    DatasetManifest m = BetonWriteTest.manifest(dir);
    assertThat(m.totalSamples()).isEqualTo(150);
    List<String> listed = m.shards().stream().map(s -> s.path()).toList();
    assertThat(names(dir).stream().filter(n -> n.endsWith(".beton")).toList()).containsExactlyInAnyOrderElementsOf(
        Stream.concat(listed.stream(), Stream.of("part-00002-2badc0de-a0-000.beton", "part-00009-mine.beton")).toList());
    assertThat(spark.read().format("beton").load(dir.toString()).count()).isEqualTo(150);
    assertThat(names(dir)).noneMatch(n -> n.contains("0badc0de") || n.contains("1badc0de") || n.endsWith(".tmp"))
        .contains("_job-2badc0de.live", "part-00002-2badc0de-a0-000.beton", "notes.txt", "part-00009-mine.beton");
    assertThat(dir.resolve("_quarantine")).doesNotExist();
    // the append's own marker was there while its tasks ran, and is gone
    assertThat(MARKERS_SEEN).containsExactlyInAnyOrder(DatasetFiles.jobMarker(m.recipe().get("job_id")),
        "_job-1badc0de.live", "_job-2badc0de.live");
    assertThat(names(dir)).filteredOn(n -> n.startsWith("_job-")).containsExactly("_job-2badc0de.live");
  }

  /**
   * The quarantine records a dataset keeps are named in its recipe, appends included: the records of a committed
   * job that stored no sample at all are not taken for a dead job's.
   */
  @Test
  void quarantineRecordsOfCommittedJobsAreKept() throws Exception {
    Path dir = tmp.resolve("quarantine");
    byte[] bad = {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, 0, 1, 2};
    spark.createDataFrame(List.of(org.apache.spark.sql.RowFactory.create(bad, 1)),
            new org.apache.spark.sql.types.StructType().add("image", DataTypes.BinaryType).add("label",
                DataTypes.IntegerType))
        .write().format("beton").option("imageColumns", "image").option("badImagePolicy", "quarantine")
        .save(dir.toString());
    DatasetManifest first = BetonWriteTest.manifest(dir);
    assertThat(first.totalSamples()).isZero();
    String job = first.recipe().get("job_id");
    assertThat(first.recipe()).containsEntry(DatasetFiles.QUARANTINE_JOBS, job);
    for (String n : names(dir)) {
      aged(dir.resolve(n), 60);
    }

    spark.createDataFrame(List.of(org.apache.spark.sql.RowFactory.create(
            org.sparkbeton.codec.testing.TestPhotos.photo(3, 0), 2)),
            new org.apache.spark.sql.types.StructType().add("image", DataTypes.BinaryType).add("label",
                DataTypes.IntegerType))
        .write().format("beton").mode(SaveMode.Append).option("imageColumns", "image").save(dir.toString());

    DatasetManifest second = BetonWriteTest.manifest(dir);
    assertThat(second.totalSamples()).isEqualTo(1);
    assertThat(second.recipe()).containsEntry(DatasetFiles.QUARANTINE_JOBS, job);
    assertThat(names(dir)).anyMatch(n -> n.startsWith("_quarantine/") && n.contains(job));
  }

  /**
   * Shards with no manifest and no marker of the job that wrote them (a dataset copied without its manifest) are not
   * a killed write's leftovers: a write there is refused and deletes nothing, except one asked to overwrite.
   */
  @Test
  void shardsWithoutTheirManifestAreNotDeletedByAWrite() throws Exception {
    Path source = tmp.resolve("whole");
    spark.range(0, 30, 1, 3).selectExpr("id").write().format("beton").save(source.toString());
    Path copied = Files.createDirectories(tmp.resolve("copied"));
    for (String n : names(source)) {
      if (n.endsWith(".beton")) {
        Files.copy(source.resolve(n), copied.resolve(n));
      }
    }
    List<String> shards = names(copied);
    assertThat(shards).hasSize(3);
    for (SaveMode mode : List.of(SaveMode.ErrorIfExists, SaveMode.Append)) {
      assertThatThrownBy(() -> spark.range(5).selectExpr("id").write().format("beton").mode(mode)
          .save(copied.toString())).as(mode.toString()).isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith(copied + " holds shards but no _manifest.json (" + shards.get(0) + ")")
          .hasMessageContaining("Nothing was written or deleted");
    }
    spark.range(5).selectExpr("id").write().format("beton").mode(SaveMode.Ignore).save(copied.toString());
    assertThat(names(copied)).isEqualTo(shards);
    assertThat(spark.read().format("beton").load(copied + "/*.beton").selectExpr("sum(id)").first().getLong(0))
        .isEqualTo(435);
    spark.range(5).selectExpr("id").write().format("beton").mode(SaveMode.Overwrite).save(copied.toString());
    assertThat(spark.read().format("beton").load(copied.toString()).selectExpr("sum(id)").first().getLong(0))
        .isEqualTo(10);
    assertThat(names(copied)).doesNotContainAnyElementsOf(shards);
  }
}
