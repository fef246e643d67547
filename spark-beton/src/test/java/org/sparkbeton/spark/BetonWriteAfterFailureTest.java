package org.sparkbeton.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
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

/**
 * A write that failed or was killed before publishing leaves files of its own (at least an empty directory); the
 * same save with the default mode then succeeds and removes them. A directory holding anything else still counts as
 * existing, and that file is never deleted.
 */
class BetonWriteAfterFailureTest {
  @TempDir static Path tmp;
  static SparkSession spark;
  /** While set, every row fails its task (all of Spark's attempts): the job fails. */
  static final AtomicBoolean BROKEN = new AtomicBoolean();

  @BeforeAll
  static void setUp() {
    spark = SparkTests.session("BetonWriteAfterFailureTest");
    spark.udf().register("breakable", (UDF1<Long, Long>) id -> {
      if (BROKEN.get() && id == 150) {
        throw new IllegalStateException("injected failure at row " + id);
      }
      return id;
    }, DataTypes.LongType);
  }

  @AfterAll
  static void tearDown() {
    spark.stop();
  }

  static Dataset<Row> rows() {
    return spark.range(0, 200, 1, 2).selectExpr("breakable(id) as id", "cast(id % 5 as int) as label");
  }

  static java.util.List<String> names(Path dir) throws Exception {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString()).sorted().toList();
    }
  }

  @Test
  void aFailedFirstWriteDoesNotBlockItsRetry() throws Exception {
    Path dir = tmp.resolve("failed-first");
    BROKEN.set(true);
    try {
      assertThatThrownBy(() -> rows().write().format("beton").option("pageSize", "2M").save(dir.toString()))
          .hasStackTraceContaining("injected failure at row 150");
    } finally {
      BROKEN.set(false);
    }
    assertThat(dir).isDirectory(); // the tasks made it: it used to make the retry fail with "already exists"
    assertThat(dir.resolve("_manifest.json")).doesNotExist();

    rows().write().format("beton").option("pageSize", "2M").save(dir.toString());

    BetonWriteTest.assertConsistent(dir, 200);
  }

  /** The marker a killed job leaves, last rewritten an hour ago. */
  private static void deadJobsMarker(Path dir, String job) throws java.io.IOException {
    Path marker = Files.writeString(dir.resolve(org.sparkbeton.format.dataset.DatasetFiles.jobMarker(job)), "{}");
    Files.setLastModifiedTime(marker, java.nio.file.attribute.FileTime.fromMillis(
        System.currentTimeMillis() - 3_600_000));
  }

  @Test
  void aKilledFirstWritesFilesAreReplaced() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("killed-first").resolve("_quarantine"));
    dir = dir.getParent();
    // what a job killed mid-write leaves: shards of two attempts (one with its local checksum file), a quarantine
    // file, a manifest that never moved into place
    Files.write(dir.resolve("part-00000-0badc0de-a3-000.beton"), new byte[] {2, 0, 1});
    Files.write(dir.resolve("part-00001-0badc0de-a4-000.beton"), new byte[4096]);
    Files.write(dir.resolve(".part-00001-0badc0de-a4-000.beton.crc"), new byte[12]);
    Files.writeString(dir.resolve("_quarantine").resolve("part-00001-0badc0de-a4.jsonl"), "{\"source\":null}\n");
    Files.writeString(dir.resolve("._manifest-5b0c8d8e-4a55-4b8e-9a1e-2f6c1b0f7a11.tmp"), "{");
    deadJobsMarker(dir, "0badc0de");

    rows().write().format("beton").option("pageSize", "2M").save(dir.toString());

    BetonWriteTest.assertConsistent(dir, 200);
    assertThat(names(dir)).noneMatch(n -> n.contains("0badc0de") || n.endsWith(".tmp")).contains("_manifest.json");
    assertThat(dir.resolve("_quarantine")).doesNotExist();
  }

  @Test
  void anEmptyDirectoryIsNoDatasetForIgnoreEither() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("empty"));

    rows().write().format("beton").mode(SaveMode.Ignore).option("pageSize", "2M").save(dir.toString());

    BetonWriteTest.assertConsistent(dir, 200);
  }

  @Test
  void aUsersFileKeepsTheDirectoryExistingAndSurvives() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("users"));
    Path notes = Files.writeString(dir.resolve("notes.txt"), "my notes");
    Path leftover = Files.write(dir.resolve("part-00000-0badc0de-a3-000.beton"), new byte[] {2, 0, 1});
    deadJobsMarker(dir, "0badc0de");

    assertThatThrownBy(() -> rows().write().format("beton").save(dir.toString()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Path " + dir + " already exists and holds files that are not part of a beton dataset"
            + " (notes.txt). Write to another path, or set mode \"overwrite\" or \"append\" to write the dataset beside"
            + " them (they are never deleted).");
    rows().write().format("beton").mode(SaveMode.Ignore).save(dir.toString());

    assertThat(names(dir)).containsExactly("_job-0badc0de.live", "notes.txt", "part-00000-0badc0de-a3-000.beton");
    assertThat(notes).hasContent("my notes");
    assertThat(leftover).exists();
  }

  @Test
  void aUsersFileInTheQuarantineFolderCounts() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("users-quarantine").resolve("_quarantine")).getParent();
    Files.writeString(dir.resolve("_quarantine").resolve("README"), "keep");

    assertThatThrownBy(() -> rows().write().format("beton").save(dir.toString()))
        .hasMessageContaining("holds files that are not part of a beton dataset (_quarantine/README)");
    assertThat(names(dir)).containsExactly("_quarantine/README");
  }
}
