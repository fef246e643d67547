package org.sparkbeton.format.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.dataset.Orphans.FileInfo;
import org.sparkbeton.format.dataset.Orphans.Findings;
import org.sparkbeton.format.dataset.Orphans.Orphan;
import org.sparkbeton.format.fields.IntField;

class OrphansTest {
  static final long NOW = 1_800_000_000_000L;
  static final long MIN = 60_000;
  static final String A = "aaaaaaaa"; // published, quarantined rows
  static final String B = "bbbbbbbb"; // running
  static final String C = "cccccccc"; // killed, no marker
  static final String D = "dddddddd"; // killed, its marker left behind

  @TempDir Path tmp;

  static DatasetManifest manifest(Map<String, String> recipe, String... shards) {
    List<ShardEntry> entries = new ArrayList<>();
    for (String s : shards) {
      entries.add(new ShardEntry(s, 1, 10, new ShardChecksum(ShardChecksum.CRC32C, "00000000"), Map.of()));
    }
    return new DatasetManifest(List.of(ManifestField.of(new org.sparkbeton.format.BetonField("x", IntField.INSTANCE))),
        entries, recipe, "test");
  }

  static FileInfo file(String path, long minutesAgo) {
    return new FileInfo(path, 100, NOW - minutesAgo * MIN);
  }

  static List<String> paths(Findings f) {
    return f.orphans().stream().map(Orphan::path).toList();
  }

  @Test
  void filesOfDeadJobsAreOrphansAndThoseOfLiveJobsAreHeld() {
    DatasetManifest m = manifest(Map.of(DatasetFiles.QUARANTINE_JOBS, A), "part-00000-" + A + "-a1-000.beton");
    List<FileInfo> files = List.of(
        file("part-00000-" + A + "-a1-000.beton", 600),           // listed
        file(".part-00000-" + A + "-a1-000.beton.crc", 600),      // its checksum
        file("part-00000-" + A + "-a0-000.beton", 600),           // a losing attempt of A, never deleted
        file("_quarantine/part-00000-" + A + "-a1.jsonl", 600),   // A's committed records
        file("_quarantine/part-00000-" + A + "-a0.jsonl", 600),   // the losing attempt's
        file("_quarantine/part-00003-" + A + "-a0.jsonl", 600),   // a partition of A with no shard: kept
        file("_job-" + B + ".live", 1),                           // B runs
        file("part-00001-" + B + "-a0-000.beton", 30),
        file("_quarantine/part-00001-" + B + "-a0.jsonl", 30),
        file("part-00002-" + C + "-a0-000.beton", 2),             // C died a moment ago, with no marker left
        file("_quarantine/part-00002-" + C + "-a0.jsonl", 2),
        file("_job-" + D + ".live", 11),                          // D's marker, not rewritten for 11 minutes
        file("part-00004-" + D + "-a0-001.beton", 11),
        file("._manifest-0123abcd-0123-0123-0123-0123456789ac.tmp", 20), // left by a job that died publishing
        file("_manifest.lock", 20),                               // and its lock
        file("part-00009-orphan.beton", 900),                     // not a name we write: never ours
        file("notes.txt", 900),
        file("_quarantine/mine.jsonl", 900));
    Findings f = Orphans.find(files, m, NOW);
    // sorted by path, whatever order the listing gave
    assertThat(paths(f)).containsExactly("._manifest-0123abcd-0123-0123-0123-0123456789ac.tmp", "_job-" + D + ".live",
        "_manifest.lock", "_quarantine/part-00000-" + A + "-a0.jsonl", "_quarantine/part-00002-" + C + "-a0.jsonl",
        "part-00000-" + A + "-a0-000.beton", "part-00002-" + C + "-a0-000.beton", "part-00004-" + D + "-a0-001.beton");
    assertThat(f.orphans().get(3).reason()).isEqualTo("quarantine records of attempt 0 of partition 0 of job " + A
        + ", whose attempt 1 was committed");
    assertThat(f.orphans().get(4).reason()).isEqualTo("quarantine records of job " + C + ", which never published");
    assertThat(f.orphans().get(1).reason()).isEqualTo("marker of job " + D + ", not rewritten for 11 min: the job"
        + " died");
    assertThat(f.orphans().get(7).reason()).isEqualTo("shard of job " + D + ", which is not running, and no manifest"
        + " lists it");
    assertThat(f.orphans().get(2).reason()).isEqualTo("manifest lock taken 20 min ago by a job that died while"
        + " publishing");
    assertThat(f.held()).containsExactly("_job-" + B + ".live", "_quarantine/part-00001-" + B + "-a0.jsonl",
        "part-00001-" + B + "-a0-000.beton");
    assertThat(f.orphanBytes()).isEqualTo(800);
    // B's marker was rewritten a minute ago: what gc says of it (a driver killed leaves it fresh for 10 minutes)
    assertThat(f.liveJobs()).containsOnlyKeys(B);
    assertThat(Orphans.liveJob(B, f.liveJobs().get(B), NOW)).isEqualTo("job " + B + " taken as running: its marker"
        + " was rewritten 1 min ago; a job whose marker goes 10 min without a heartbeat (its driver killed) is taken"
        + " as dead, from " + java.time.Instant.ofEpochMilli(NOW + 9 * 60_000L).truncatedTo(
            java.time.temporal.ChronoUnit.SECONDS) + ", and its files are orphans then");
  }

  @Test
  void quarantineRecordsOfJobsAManifestDoesNotNameAreKeptWhenItCannotTell() {
    List<FileInfo> files = List.of(file("_quarantine/part-00003-" + C + "-a0.jsonl", 600));
    // a manifest of an earlier version, without quarantine_jobs: records of a job without shards may be a committed
    // job's whose every row was bad
    assertThat(paths(Orphans.find(files, manifest(Map.of()), NOW))).isEmpty();
    assertThat(paths(Orphans.find(files, manifest(Map.of(DatasetFiles.QUARANTINE_JOBS, A)), NOW)))
        .containsExactly("_quarantine/part-00003-" + C + "-a0.jsonl");
    // no manifest: a first write that never published
    assertThat(paths(Orphans.find(files, null, NOW))).containsExactly("_quarantine/part-00003-" + C + "-a0.jsonl");
  }

  @Test
  void aBadRowNoteIsHeldWhileItsJobRunsAndAnOrphanAfter() {
    String note = DatasetFiles.badRowNote(D, 3);
    assertThat(note).isEqualTo("part-00003-" + D + "-bad-row.txt");
    assertThat(DatasetFiles.classify(note, false))
        .isEqualTo(new DatasetFiles.Name(DatasetFiles.Kind.BAD_ROW, 3, D, -1, false));
    assertThat(DatasetFiles.classify("." + note + ".crc", false).checksum()).isTrue();
    assertThat(DatasetFiles.classify("part-00003-" + D + "-bad-row.json", false)).isNull();

    Findings running = Orphans.find(List.of(file("_job-" + D + ".live", 1), file(note, 1)), null, NOW);
    assertThat(running.orphans()).isEmpty();
    assertThat(running.held()).contains(note);
    Findings dead = Orphans.find(List.of(file(note, 30)), null, NOW);
    assertThat(dead.orphans()).extracting(Orphan::path, Orphan::reason)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(note, "bad-row note of partition 3 of job " + D
            + ", which is not running"));
  }

  @Test
  void spoolsAreOrphansOnlyWithNoJobRunning() {
    List<FileInfo> spool = List.of(file("beton-pages-123.spool", 1));
    assertThat(paths(Orphans.find(spool, null, NOW))).containsExactly("beton-pages-123.spool");
    List<FileInfo> withLiveJob = List.of(file("beton-pages-123.spool", 60), file("_job-" + B + ".live", 0));
    assertThat(paths(Orphans.find(withLiveJob, null, NOW))).isEmpty();
  }

  /** A temporary manifest is its publisher's while the lock is held (fresh), and an orphan otherwise. */
  @Test
  void aTemporaryManifestIsAnOrphanUnlessTheLockIsHeld() {
    FileInfo tmp = file("._manifest-0123abcd-0123-0123-0123-0123456789ab.tmp", 0);
    assertThat(paths(Orphans.find(List.of(tmp), null, NOW))).containsExactly(tmp.path());
    Orphans.Findings publishing = Orphans.find(List.of(tmp, file("_manifest.lock", 0)), null, NOW);
    assertThat(paths(publishing)).isEmpty();
    assertThat(publishing.held()).containsExactly(tmp.path(), "_manifest.lock");
    assertThat(paths(Orphans.find(List.of(tmp, file("_manifest.lock", 11)), null, NOW)))
        .containsExactly(tmp.path(), "_manifest.lock");
  }

  @Test
  void onLocalDiskTheyAreListedAndDeletedAndNothingElseIs() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("ds"));
    Files.writeString(dir.resolve(DatasetManifest.FILE_NAME), manifest(Map.of(DatasetFiles.QUARANTINE_JOBS, A),
        "part-00000-" + A + "-a0-000.beton").toJson());
    Files.write(dir.resolve("part-00000-" + A + "-a0-000.beton"), new byte[10]);
    Files.write(dir.resolve("part-00001-" + C + "-a0-000.beton"), new byte[42]);
    Files.write(dir.resolve("part-00001-" + C + "-a0-001.beton"), new byte[0]); // a killed job's empty file
    Files.createDirectories(dir.resolve("_quarantine"));
    Files.writeString(dir.resolve("_quarantine/part-00001-" + C + "-a0.jsonl"), "{}\n");
    Files.writeString(dir.resolve("README.txt"), "mine");
    Files.createDirectories(dir.resolve("part-00002-" + C + "-a0-000.beton")); // a directory: never touched
    try (var all = Files.walk(dir)) {
      for (Path p : all.toList()) {
        Files.setLastModifiedTime(p, FileTime.fromMillis(System.currentTimeMillis() - 5 * MIN));
      }
    }
    Path marker = Files.writeString(dir.resolve(DatasetFiles.jobMarker(D)), "{}");
    Files.setLastModifiedTime(marker, FileTime.fromMillis(System.currentTimeMillis() - 11 * MIN));

    Findings f = Orphans.find(dir);
    assertThat(paths(f)).containsExactlyInAnyOrder("part-00001-" + C + "-a0-000.beton",
        "part-00001-" + C + "-a0-001.beton", "_quarantine/part-00001-" + C + "-a0.jsonl", "_job-" + D + ".live");
    assertThat(f.orphanBytes()).isEqualTo(42 + 3 + 2);
    assertThat(Orphans.delete(Orphans.local(dir), f)).isEqualTo(4);
    try (var left = Files.list(dir)) {
      assertThat(left.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder(DatasetManifest.FILE_NAME,
          "part-00000-" + A + "-a0-000.beton", "README.txt", "part-00002-" + C + "-a0-000.beton");
    }
    assertThat(Orphans.find(dir).orphans()).isEmpty();
  }

  /** A job that started while the directory was listed: its marker, missed by the listing, is found again. */
  @Test
  void aMarkerListedOnlyTheSecondTimeHoldsItsJobsFiles() {
    List<FileInfo> first = List.of(file("part-00001-" + B + "-a0-000.beton", 0));
    List<FileInfo> again = List.of(file("_job-" + B + ".live", 0), file("part-00001-" + B + "-a0-000.beton", 0));
    assertThat(paths(Orphans.find(first, null, NOW))).containsExactly("part-00001-" + B + "-a0-000.beton");
    List<FileInfo> both = Orphans.withMarkersListedAgain(first, again);
    assertThat(both).extracting(FileInfo::path).containsExactly("part-00001-" + B + "-a0-000.beton",
        "_job-" + B + ".live");
    assertThat(paths(Orphans.find(both, null, NOW))).isEmpty();
  }

  /**
   * A job that publishes while the directory is listed: its marker already gone, its shard listed. Judged against the
   * manifest read after the listing, the shard is the dataset's; against one read before, it would be deleted.
   */
  @Test
  void theManifestIsReadAfterTheListingSoAJobPublishingMeanwhileKeepsItsShard() throws Exception {
    String shard = "part-00000-" + B + "-a0-000.beton";
    List<String> calls = new ArrayList<>();
    Orphans.Directory dir = new Orphans.Directory() {
      @Override
      public List<FileInfo> files(String sub) {
        calls.add("list " + sub);
        return sub.isEmpty() ? List.of(file(shard, 0)) : List.of();
      }

      @Override
      public boolean delete(String path) {
        throw new AssertionError("nothing is deleted by find");
      }
    };
    Orphans.ManifestReader published = () -> {
      calls.add("manifest");
      // B published during the listing: only a read after it sees B's shard
      return calls.contains("list _quarantine") ? manifest(Map.of(), shard) : manifest(Map.of());
    };

    Findings found = Orphans.find(dir, published);

    assertThat(paths(found)).isEmpty();
    assertThat(calls).containsExactly("list ", "list _quarantine", "list ", "manifest");
    assertThat(paths(Orphans.find(List.of(file(shard, 0)), manifest(Map.of()), NOW))).containsExactly(shard);
  }

  @Test
  void agesReadAsAPersonWouldSayThem() {
    assertThat(Orphans.age(42_000)).isEqualTo("42 s");
    assertThat(Orphans.age(12 * MIN)).isEqualTo("12 min");
    assertThat(Orphans.age(185 * MIN)).isEqualTo("3 h 5 min");
    assertThat(Orphans.age(4 * 24 * 60 * MIN)).isEqualTo("4 days");
  }

  /**
   * Shards a compaction replaced are left alone until its record says (readers may have planned them), then are
   * orphans as any unlisted shard.
   */
  @Test
  void shardsARecentCompactionReplacedAreLeftForReadersThenAreOrphans() {
    String merged = "part-00000-" + D + "-a0-000.beton";
    String a = "part-00000-" + A + "-a0-000.beton";
    String c = "part-00001-" + C + "-a0-000.beton";
    CompactionRecord record = new CompactionRecord(D, NOW - 3 * MIN, NOW + 5 * MIN, List.of(a, c));
    List<FileInfo> files = List.of(file(merged, 3), file(a, 300), file(c, 200), file("part-00002-" + C
        + "-a0-000.beton", 200));

    Findings fresh = Orphans.find(files, manifest(Map.of("compacted." + D, record.json()), merged), NOW);
    assertThat(fresh.replaced()).containsExactly(a, c);
    assertThat(fresh.replacedKeptUntilMillis()).isEqualTo(NOW + 5 * MIN); // when gc may take them
    assertThat(paths(fresh)).containsExactly("part-00002-" + C + "-a0-000.beton");

    Findings later = Orphans.find(files, manifest(Map.of("compacted." + D, record.json()), merged), NOW + 8 * MIN);
    assertThat(later.replaced()).isEmpty();
    assertThat(paths(later)).containsExactly(a, c, "part-00002-" + C + "-a0-000.beton");
    // each said to be what it is: a replaced shard past its keep is not taken for a dead job's
    assertThat(later.orphans().stream().map(Orphans.Orphan::reason)).containsExactly(
        "shard a compaction replaced, whose keepReplacedFor has passed",
        "shard a compaction replaced, whose keepReplacedFor has passed",
        "shard of job " + C + ", which is not running, and no manifest lists it");
  }

  @Test
  void anAppendCarriesOnlyFreshCompactionRecords() {
    CompactionRecord fresh = new CompactionRecord(D, NOW - 2 * MIN, NOW + 58 * MIN, List.of("x.beton"));
    CompactionRecord stale = new CompactionRecord(C, NOW - 61 * MIN, NOW - MIN, List.of("y.beton"));
    DatasetManifest previous = manifest(Map.of("compacted." + D, fresh.json(), "compacted." + C, stale.json(),
        "mode", "jpg"));

    Map<String, String> next = CompactionRecord.carried(Map.of("mode", "raw", "compacted.0000beef", "{}"), previous,
        NOW);
    assertThat(next).containsOnlyKeys("mode", "compacted." + D).containsEntry("mode", "raw");
    assertThat(CompactionRecord.of(next)).containsExactly(fresh);
    assertThat(CompactionRecord.carried(Map.of(), null, NOW)).isEmpty();
  }
}
