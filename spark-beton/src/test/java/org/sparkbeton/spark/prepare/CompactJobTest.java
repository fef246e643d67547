package org.sparkbeton.spark.prepare;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.sparkbeton.spark.write.BetonCompaction;

/** The compaction job's arguments and its line; the job itself runs under spark-submit in SparkSubmitIT. */
class CompactJobTest {
  static String[] run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = CompactJob.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new String[] {Integer.toString(code), out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8)};
  }

  @Test
  void badArgumentsAreOneLineAndTheUsage() {
    assertThat(run()).containsExactly("2", "", CompactJob.USAGE + "\n");
    assertThat(run("/d", "--target-shard-size")).containsExactly("2", "",
        "beton-compact: --target-shard-size needs a value\n" + CompactJob.USAGE + "\n");
    assertThat(run("/d", "--target-size", "1G")).containsExactly("2", "",
        "beton-compact: unexpected argument --target-size\n" + CompactJob.USAGE + "\n");
    assertThat(run("/d", "/e")).containsExactly("2", "", "beton-compact: unexpected argument /e\n" + CompactJob.USAGE
        + "\n");
  }

  /** Spark's parser takes "-1h", and the replaced shards were deleted at once; 0s is how to ask for that. */
  @Test
  void aNegativeTimeToKeepTheReplacedShardsIsRefused() {
    assertThat(run("/d", "--keep-replaced-for", "-1h")).containsExactly("2", "", "beton-compact: --keep-replaced-for"
        + " must not be negative: how long the replaced shards stay (90s, 30m, 12h, 7d; 0s deletes them at once), got"
        + " '-1h'\n");
  }

  /**
   * A shard cut short fails the merge's task, and the job said so with Spark's job failure and its stack trace (159
   * lines for a shard of 2,000 of its 108,805 bytes); a path no FileSystem serves printed a ClassNotFoundException's. Each is now one line, exit 2.
   */
  @Test
  void aDamagedShardAndAnUnservedSchemeAreOneLine(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
      throws Exception {
    java.nio.file.Path dir = tmp.resolve("cut");
    org.apache.spark.sql.SparkSession spark = org.apache.spark.sql.SparkSession.builder().master("local[2]")
        .appName("CompactJobTest").config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
        .getOrCreate();
    try {
      for (int i = 0; i < 3; i++) {
        spark.range(i * 20L, (i + 1) * 20L, 1, 1).write().format("beton").mode("append").save(dir.toString());
      }
    } finally {
      spark.stop();
    }
    String shard = org.sparkbeton.format.dataset.DatasetManifest.parse(java.nio.file.Files.readString(
        dir.resolve(org.sparkbeton.format.dataset.DatasetManifest.FILE_NAME))).shards().get(1).path();
    try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(dir.resolve(shard),
        java.nio.file.StandardOpenOption.WRITE)) {
      ch.truncate(ch.size() / 2);
    }
    String[] cut = run(dir.toString(), "--keep-replaced-for", "0s");
    assertThat(cut[0]).as(cut[2]).isEqualTo("2");
    assertThat(cut[2]).startsWith("beton-compact: ").contains(shard, "but the manifest says")
        .doesNotContain("\tat ").hasLineCount(1);

    String[] unserved = run("nosuch://host/x");
    assertThat(unserved[0]).as(unserved[1] + unserved[2]).isEqualTo("2");
    assertThat(unserved[2]).as(unserved[1]).startsWith("beton-compact: dataset nosuch://host/x: no Hadoop"
        + " FileSystem for scheme 'nosuch' on the class path").hasLineCount(1);
  }

  @Test
  void helpIsTheUsage() {
    assertThat(run("--help")).containsExactly("0", CompactJob.USAGE + "\n", "");
    assertThat(CompactJob.USAGE).startsWith("usage: beton compact DATASET");
  }

  @Test
  void aDryRunsLineSaysWhatItWouldMerge() {
    assertThat(CompactJob.describePlan(new BetonCompaction.Result("hdfs:///d", 9, 2, 2, 0, 1200, 50_331_648)))
        .isEqualTo("beton compaction of hdfs:///d (dry run): would merge 9 shards into 2 (2 runs, 1,200 samples,"
            + " 48.0 MiB to move); nothing changed");
    assertThat(CompactJob.describePlan(new BetonCompaction.Result("/d", 3, 3, 0, 0, 0, 0)))
        .isEqualTo("beton compaction of /d (dry run): 3 shards, none to merge");
  }

  @Test
  void theLineSaysWhatWasMerged() {
    assertThat(CompactJob.describe(new BetonCompaction.Result("hdfs:///d", 9, 2, 2, 0, 1200, 50_331_648)))
        .isEqualTo("beton compaction of hdfs:///d: 9 shards into 2 (2 runs merged, 1,200 samples, 48.0 MiB moved)");
    assertThat(CompactJob.describe(new BetonCompaction.Result("/d", 3, 3, 0, 0, 0, 0)))
        .isEqualTo("beton compaction of /d: 3 shards, none to merge");
    assertThat(CompactJob.describe(new BetonCompaction.Result("/d", 5, 5, 0, 1, 0, 0)))
        .isEqualTo("beton compaction of /d: 5 shards, none to merge (1 run changed under it, most often merged by"
            + " another compaction meanwhile, which leaves nothing to do; a dry run says what is left to merge)");
  }

  /** Counts of one are singular: "1 run merged", "1 sample". */
  @Test
  void countsOfOneAreSingular() {
    assertThat(CompactJob.describe(new BetonCompaction.Result("/d", 4, 1, 1, 1, 1, 1_048_576)))
        .isEqualTo("beton compaction of /d: 4 shards into 1 (1 run merged, 1 sample, 1.0 MiB moved); 1 run changed"
            + " under it was left as it was");
    assertThat(CompactJob.describe(new BetonCompaction.Result("/d", 9, 3, 2, 2, 80, 0)))
        .isEqualTo("beton compaction of /d: 9 shards into 3 (2 runs merged, 80 samples, 0.0 MiB moved); 2 runs"
            + " changed under it were left as they were");
    assertThat(CompactJob.describePlan(new BetonCompaction.Result("/d", 4, 1, 1, 0, 80, 0)))
        .isEqualTo("beton compaction of /d (dry run): would merge 4 shards into 1 (1 run, 80 samples, 0.0 MiB to"
            + " move); nothing changed");
    assertThat(CompactJob.describePlan(new BetonCompaction.Result("/d", 1, 1, 0, 0, 0, 0)))
        .isEqualTo("beton compaction of /d (dry run): 1 shard, none to merge");
  }
}
