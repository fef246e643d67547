package org.sparkbeton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.dataset.DatasetFiles;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.ManifestField;
import org.sparkbeton.format.dataset.ShardChecksum;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.fields.IntField;

/** {@code beton gc DIR}: the files of jobs that died, listed, and deleted on request; nothing else touched. */
class GcCommandTest {
  @TempDir Path tmp;

  Path dataset() throws Exception {
    return dataset(tmp);
  }

  /**
   * A dataset of one listed shard, a killed job's files, a running job's, and the user's, in {@code tmp/ds}: every
   * file an hour old but the running job's marker.
   */
  static Path dataset(Path tmp) throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("ds").resolve("_quarantine")).getParent();
    List<org.sparkbeton.format.BetonField> fields = List.of(new org.sparkbeton.format.BetonField("x", IntField.INSTANCE));
    Path shard = dir.resolve("part-00000-aaaaaaaa-a0-000.beton");
    try (org.sparkbeton.format.write.BetonWriter w = org.sparkbeton.format.write.BetonWriter.builder(fields)
        .pageSize(1 << 21).open(shard)) {
      w.append(7L);
      w.finish();
    }
    Files.writeString(dir.resolve(DatasetManifest.FILE_NAME), new DatasetManifest(
        fields.stream().map(ManifestField::of).toList(),
        List.of(new ShardEntry(shard.getFileName().toString(), 1, Files.size(shard), new ShardChecksum(
            ShardChecksum.SHA256, org.sparkbeton.format.dataset.DatasetVerifier.checksum(shard, ShardChecksum.SHA256)),
            Map.of())), Map.of(DatasetFiles.QUARANTINE_JOBS, ""), "test").toJson());
    Files.write(dir.resolve("part-00001-0badc0de-a0-000.beton"), new byte[44_040_192]); // 42 MiB
    Files.write(dir.resolve("part-00002-0badc0de-a0-000.beton"), new byte[0]);
    Files.writeString(dir.resolve("_quarantine/part-00002-0badc0de-a0.jsonl"), "{}\n");
    Files.writeString(dir.resolve(DatasetFiles.jobMarker("2badc0de")), "{}");
    Files.write(dir.resolve("part-00003-2badc0de-a0-000.beton"), new byte[5]);
    Files.writeString(dir.resolve("notes.txt"), "mine");
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.filter(Files::isRegularFile).toList()) {
        if (!p.getFileName().toString().startsWith("_job-")) {
          Files.setLastModifiedTime(p, FileTime.fromMillis(System.currentTimeMillis() - 3_600_000));
        }
      }
    }
    return dir;
  }

  static List<String> names(Path dir) throws Exception {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString()).sorted().toList();
    }
  }

  @Test
  void listsThenDeletesTheFilesOfDeadJobsOnly() throws Exception {
    Path dir = dataset();
    List<String> before = names(dir);
    Cli.Result listed = Cli.run("gc", dir);
    assertThat(listed.exitCode()).as(listed.err()).isZero();
    // sorted by path
    assertThat(liveJobs(listed.outLines())).singleElement().asString().matches(java.util.regex.Pattern.quote(dir
        + ": job 2badc0de taken as running: its marker was rewritten ") + "[0-9]+ s ago; a job whose marker goes 10"
        + " min without a heartbeat \\(its driver killed\\) is taken as dead, from .*Z, and its files are orphans"
        + " then");
    assertThat(withoutLiveJobs(listed.outLines())).containsExactly(
        dir.resolve("_quarantine/part-00002-0badc0de-a0.jsonl") + " (3 B): quarantine records of job 0badc0de, which"
            + " never published",
        dir.resolve("part-00001-0badc0de-a0-000.beton") + " (42 MiB): shard of job 0badc0de, which is not running,"
            + " and no manifest lists it",
        dir.resolve("part-00002-0badc0de-a0-000.beton") + " (0 B): shard of job 0badc0de, which is not running, and"
            + " no manifest lists it",
        dir + ": 2 files of running jobs left alone",
        dir + ": 3 orphaned files, 42.0 MiB; run `beton gc " + dir + " --delete` to delete them");
    assertThat(names(dir)).isEqualTo(before);

    // verify says the same after its verdict, which the orphans do not change
    Cli.Result verified = Cli.run("verify", dir);
    assertThat(verified.exitCode()).isZero();
    assertThat(verified.outLines().get(0)).isEqualTo(dir + ": OK (1 shard, 1 sample)");
    assertThat(verified.outLines().get(1)).isEqualTo(dir + ": 3 orphaned files of jobs that died (42.0 MiB), not part"
        + " of the dataset; `beton gc " + dir + " --delete` deletes them");
    assertThat(verified.outLines()).hasSize(5);

    Cli.Result deleted = Cli.run("gc", dir, "--delete");
    assertThat(deleted.outLines()).last().isEqualTo(dir + ": deleted 3 orphaned files, 42.0 MiB");
    assertThat(names(dir)).containsExactly("_job-2badc0de.live", DatasetManifest.FILE_NAME, "notes.txt",
        "part-00000-aaaaaaaa-a0-000.beton", "part-00003-2badc0de-a0-000.beton");
    assertThat(dir.resolve("_quarantine")).doesNotExist();
    assertThat(withoutLiveJobs(Cli.run("gc", dir).outLines())).containsExactly(dir
        + ": 2 files of running jobs left alone",
        dir + ": no orphaned files");
    assertThat(Cli.run("verify", dir).outLines()).containsExactly(dir + ": OK (1 shard, 1 sample)");
  }

  @Test
  void aDirectoryWithoutManifestIsAFirstWriteThatNeverPublished() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("first"));
    Files.write(dir.resolve("part-00000-0badc0de-a0-000.beton"), new byte[7]);
    Cli.Result r = Cli.run("gc", dir, "--delete");
    assertThat(r.outLines()).containsExactly(dir.resolve("part-00000-0badc0de-a0-000.beton") + " (7 B): shard of job"
        + " 0badc0de, which left no marker, and no manifest lists it: a failed write's, or a dataset copied without its"
        + " manifest (read them first with a glob of the .beton files)", dir + ": deleted 1 orphaned file, 7 B");
    assertThat(names(dir)).isEmpty();
    // with the marker a killed job leaves, it is that job's
    Files.write(dir.resolve("part-00000-0badc0de-a0-000.beton"), new byte[7]);
    Path marker = Files.writeString(dir.resolve("_job-0badc0de.live"), "{}");
    Files.setLastModifiedTime(marker, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis()
        - 3_600_000));
    assertThat(Cli.run("gc", dir).outLines()).contains(dir.resolve("part-00000-0badc0de-a0-000.beton") + " (7 B):"
        + " shard of job 0badc0de, which is not running, and no manifest lists it");
  }

  @Test
  void shardsACompactionReplacedMomentsAgoAreLeftForReaders() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("compacted"));
    String merged = "part-00000-0c0c0c0c-a0-000.beton";
    String old = "part-00000-aaaaaaaa-a0-000.beton";
    Files.write(dir.resolve(merged), new byte[3]);
    Files.write(dir.resolve(old), new byte[2]);
    long keptUntil = System.currentTimeMillis() + 3_600_000;
    org.sparkbeton.format.dataset.CompactionRecord record = new org.sparkbeton.format.dataset.CompactionRecord(
        "0c0c0c0c", System.currentTimeMillis() - 60_000, keptUntil, List.of(old));
    List<org.sparkbeton.format.BetonField> fields = List.of(new org.sparkbeton.format.BetonField("x",
        IntField.INSTANCE));
    Files.writeString(dir.resolve(DatasetManifest.FILE_NAME), new DatasetManifest(
        fields.stream().map(ManifestField::of).toList(), List.of(new ShardEntry(merged, 1, 3, new ShardChecksum(
            ShardChecksum.CRC32C, "00000000"), Map.of())), Map.of("compacted.0c0c0c0c", record.json()), "test")
        .toJson());

    Cli.Result r = Cli.run("gc", dir, "--delete");
    assertThat(r.outLines()).containsExactly(dir + ": 1 shard a compaction replaced left alone for the readers that"
        + " planned them (until its keepReplacedFor has passed: " + java.time.Instant.ofEpochMilli(keptUntil) + ")",
        dir + ": no orphaned files");
    assertThat(names(dir)).contains(old);
  }

  @Test
  void badDirectoriesAreUsageErrors() throws Exception {
    Cli.Result missing = Cli.run("gc", tmp.resolve("nope"));
    assertThat(missing.exitCode()).isEqualTo(2);
    assertThat(missing.err()).startsWith("beton: " + tmp.resolve("nope") + ": not a directory (no such directory)");
    Path dir = Files.createDirectories(tmp.resolve("broken"));
    Files.writeString(dir.resolve(DatasetManifest.FILE_NAME), "{");
    Files.write(dir.resolve("part-00000-0badc0de-a0-000.beton"), new byte[7]);
    Cli.Result broken = Cli.run("gc", dir, "--delete");
    assertThat(broken.exitCode()).isEqualTo(2);
    assertThat(broken.err()).contains("gc judges files against the manifest, so it deletes nothing");
    assertThat(names(dir)).contains("part-00000-0badc0de-a0-000.beton");
  }

  /** The lines that say which jobs gc takes as running, and since when (their times vary from run to run). */
  static List<String> liveJobs(List<String> lines) {
    return lines.stream().filter(l -> l.contains(" taken as running: ")).toList();
  }

  static List<String> withoutLiveJobs(List<String> lines) {
    return lines.stream().filter(l -> !l.contains(" taken as running: ")).toList();
  }
}
