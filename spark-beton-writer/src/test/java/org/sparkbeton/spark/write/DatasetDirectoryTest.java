package org.sparkbeton.spark.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.dataset.DatasetFiles;
import org.sparkbeton.format.dataset.ShardChecksum;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.fields.IntField;

/** What a write's target holds, by name: only this project's attempt files count as leftovers, and only they go. */
class DatasetDirectoryTest {
  @TempDir Path tmp;

  FileSystem fs() throws IOException {
    return FileSystem.getLocal(new Configuration());
  }

  DatasetDirectory.Inspection inspect(Path dir) throws IOException {
    return DatasetDirectory.inspect(fs(), new org.apache.hadoop.fs.Path(dir.toUri()));
  }

  static List<String> names(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString()).sorted().toList();
    }
  }

  /** The files a killed job leaves, and the names they must not be confused with. */
  Path leftovers(String name) throws IOException {
    Path dir = Files.createDirectories(tmp.resolve(name).resolve(QuarantineLog.DIR)).getParent();
    Files.write(dir.resolve("part-00000-0badc0de-a3-000.beton"), new byte[3]);
    Files.write(dir.resolve("part-00012-0badc0de-a17-004.beton"), new byte[3]);
    Files.write(dir.resolve(".part-00012-0badc0de-a17-004.beton.crc"), new byte[3]);
    Files.write(dir.resolve("._manifest-5b0c8d8e-4a55-4b8e-9a1e-2f6c1b0f7a11.tmp"), new byte[3]);
    Files.write(dir.resolve("beton-pages-8812736123.spool"), new byte[3]);
    Files.write(dir.resolve(ManifestLock.FILE), new byte[3]);
    Files.write(dir.resolve(QuarantineLog.DIR).resolve("part-00012-0badc0de-a17.jsonl"), new byte[3]);
    Files.write(dir.resolve(QuarantineLog.DIR).resolve(".part-00012-0badc0de-a17.jsonl.crc"), new byte[3]);
    // the job's marker, not rewritten since the job died an hour ago
    Path marker = Files.writeString(dir.resolve(DatasetFiles.jobMarker("0badc0de")), "{}");
    Files.setLastModifiedTime(marker, FileTime.fromMillis(System.currentTimeMillis() - 3_600_000));
    return dir;
  }

  /**
   * Shards with no manifest and no marker of their job are no killed write's (it always leaves its marker): a dataset
   * whose manifest was lost or not copied, which a write must not delete as leftovers.
   */
  @Test
  void shardsWithoutAManifestOrTheirJobsMarkerAreNotLeftovers() throws Exception {
    Path copied = Files.createDirectories(tmp.resolve("copied-without-manifest"));
    Files.write(copied.resolve("part-00001-7e57da7a-a0-000.beton"), new byte[3]);
    Files.write(copied.resolve("part-00000-7e57da7a-a0-000.beton"), new byte[3]);
    assertThat(inspect(copied)).isEqualTo(new DatasetDirectory.Inspection(DatasetDirectory.State.UNLISTED_SHARDS,
        "part-00000-7e57da7a-a0-000.beton"));
    Files.writeString(copied.resolve("notes.txt"), "mine"); // and a file of the user's: the shards still count first
    assertThat(inspect(copied).state()).isEqualTo(DatasetDirectory.State.UNLISTED_SHARDS);
    // beside a killed job's leftovers too
    Path mixed = leftovers("mixed");
    Files.write(mixed.resolve("part-00003-7e57da7a-a1-000.beton"), new byte[3]);
    assertThat(inspect(mixed)).isEqualTo(new DatasetDirectory.Inspection(DatasetDirectory.State.UNLISTED_SHARDS,
        "part-00003-7e57da7a-a1-000.beton"));
    Files.writeString(mixed.resolve(DatasetFiles.jobMarker("7e57da7a")), "{}");
    assertThat(inspect(mixed).state()).isEqualTo(DatasetDirectory.State.LEFTOVERS);
    assertThat(DatasetDirectory.unlistedShardsMessage("/data/x", "part-00000-7e57da7a-a0-000.beton",
        "mode(\"overwrite\")")).isEqualTo("/data/x holds shards but no _manifest.json (part-00000-7e57da7a-a0-000.beton),"
        + " and no job marker of the write that made them: a dataset whose manifest was lost or not copied with it, or"
        + " what a failed write left. Nothing was written or deleted. Read them with"
        + " spark.read.format(\"beton\").load(\"/data/x/*.beton\"); mode(\"overwrite\") replaces them, and beton gc"
        + " /data/x --delete deletes them");
  }

  @Test
  void states() throws Exception {
    assertThat(inspect(tmp.resolve("missing")).state()).isEqualTo(DatasetDirectory.State.MISSING);
    assertThat(inspect(Files.writeString(tmp.resolve("a-file"), "x")).state()).isEqualTo(DatasetDirectory.State.FILE);
    assertThat(inspect(Files.createDirectories(tmp.resolve("empty"))).state())
        .isEqualTo(DatasetDirectory.State.LEFTOVERS);
    assertThat(inspect(leftovers("killed"))).isEqualTo(new DatasetDirectory.Inspection(
        DatasetDirectory.State.LEFTOVERS, null));
    Path dataset = leftovers("dataset");
    Files.writeString(dataset.resolve("_manifest.json"), "{}");
    assertThat(inspect(dataset).state()).isEqualTo(DatasetDirectory.State.DATASET);
  }

  @Test
  void anythingElseMakesItOccupied() throws Exception {
    for (String other : List.of("notes.txt", "part-00000-0badc0de-a3-000.beton.bak", "part-0-0badc0de-a3-000.beton",
        "part-00000-NOTHEX00-a3-000.beton", ".hidden", "_SUCCESS", "sub/part-00000-0badc0de-a3-000.beton",
        QuarantineLog.DIR + "/notes.jsonl")) {
      Path dir = leftovers("occupied-" + other.replace('/', '_'));
      Files.createDirectories(dir.resolve(other).getParent());
      Files.write(dir.resolve(other), new byte[1]);
      DatasetDirectory.Inspection found = inspect(dir);
      assertThat(found.state()).as(other).isEqualTo(DatasetDirectory.State.OCCUPIED);
      assertThat(found.example()).as(other).isEqualTo(other.startsWith("sub/") ? "sub" : other);
    }
  }

  @Test
  void deletingLeftoversKeepsTheLockAndEverythingNotOurs() throws Exception {
    Path dir = leftovers("cleanup");
    Files.writeString(dir.resolve("notes.txt"), "mine");
    // the lock is held (fresh): its holder may be publishing, so the temporary manifest stays with it
    int deleted = DatasetDirectory.deleteLeftovers(fs(), new org.apache.hadoop.fs.Path(dir.toUri()));
    // two shards, a spool, a quarantine file and the stale marker; Hadoop's local file system deletes a checksum file
    // with its file
    assertThat(deleted).isEqualTo(5);
    assertThat(names(dir)).containsExactly("._manifest-5b0c8d8e-4a55-4b8e-9a1e-2f6c1b0f7a11.tmp", ManifestLock.FILE,
        "notes.txt");
    Files.delete(dir.resolve(ManifestLock.FILE));
    assertThat(DatasetDirectory.deleteLeftovers(fs(), new org.apache.hadoop.fs.Path(dir.toUri()))).isEqualTo(1);
    assertThat(names(dir)).containsExactly("notes.txt");
    assertThat(dir.resolve(QuarantineLog.DIR)).doesNotExist();
    Files.writeString(dir.resolve("_manifest.json"), "{}");
    assertThatThrownBy(() -> DatasetDirectory.deleteLeftovers(fs(), new org.apache.hadoop.fs.Path(dir.toUri())))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("holds a dataset");
  }

  /** The files of a job whose marker is fresh are a running job's: a first write of another job leaves them. */
  @Test
  void deletingLeftoversKeepsTheFilesOfARunningJob() throws Exception {
    Path dir = leftovers("running");
    Files.writeString(dir.resolve(org.sparkbeton.format.dataset.DatasetFiles.jobMarker("0badc0de")), "{}");
    Files.write(dir.resolve("part-00001-1badc0de-a0-000.beton"), new byte[3]); // another job's, with no marker
    DatasetDirectory.deleteLeftovers(fs(), new org.apache.hadoop.fs.Path(dir.toUri()));
    assertThat(names(dir)).contains("part-00000-0badc0de-a3-000.beton", "part-00012-0badc0de-a17-004.beton",
        QuarantineLog.DIR + "/part-00012-0badc0de-a17.jsonl", "_job-0badc0de.live")
        .doesNotContain("part-00001-1badc0de-a0-000.beton");
  }

  @Test
  void aManifestNeverListsAMissingShard() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("published"));
    org.apache.hadoop.fs.Path hdir = new org.apache.hadoop.fs.Path(dir.toUri());
    DatasetPublisher publisher = new DatasetPublisher(fs(), hdir, 10_000);
    ShardEntry gone = new ShardEntry("part-00003-0badc0de-a9-000.beton", 10, 4096,
        new ShardChecksum(ShardChecksum.SHA256, "0".repeat(64)), Map.of());
    BetonCommitMessage message = new BetonCommitMessage(3, 9, List.of(gone), 10, 0, 0, null, 0, "test codec");
    assertThatThrownBy(() -> publisher.commit("0badc0de", List.of(new BetonField("label", IntField.INSTANCE)),
        List.of(message), CommitMode.APPEND, Map.of(), null))
        .isInstanceOf(IOException.class)
        .hasMessage("Shard part-00003-0badc0de-a9-000.beton of partition 3 is gone from " + fs().makeQualified(hdir)
            + " before its manifest was published (did another write to this path delete it?); nothing was published");
    assertThat(names(dir)).isEmpty();
  }
}
