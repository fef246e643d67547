package org.sparkbeton.spark.prepare;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.ZoneOffset;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rerun right after a killed run leaves the killed run's files (its marker is fresh for ten minutes: it may be a
 * running job) and says from when {@code beton gc --delete} removes them; a stale marker's files get no note (the
 * write deletes them).
 */
class LiveJobsNoteTest {
  @TempDir Path tmp;

  @Test
  void aFreshMarkerGetsANoteSayingWhenGcRemovesItsFiles() throws Exception {
    long now = 1_700_000_000_000L; // 22:13:20 UTC
    Files.write(tmp.resolve("part-00000-0badc0de-a0-000.beton"), new byte[16]);
    Files.setLastModifiedTime(Files.writeString(tmp.resolve("_job-0badc0de.live"), "{}"),
        FileTime.fromMillis(now - 125_000));
    Files.setLastModifiedTime(Files.writeString(tmp.resolve("_job-0000dead.live"), "{}"),
        FileTime.fromMillis(now - 11 * 60_000));
    Files.writeString(tmp.resolve("readme.txt"), "not ours");
    FileSystem fs = FileSystem.getLocal(new Configuration());

    assertThat(LiveJobsNote.of(fs, new org.apache.hadoop.fs.Path(tmp.toUri()), "out", now, ZoneOffset.UTC))
        .containsExactly("--output out holds the files of job 0badc0de, whose marker _job-0badc0de.live was written"
            + " 125 s ago: it may be running, so they are left alone; if it was killed, beton gc out --delete removes"
            + " them from 22:21:15 (10 minutes after its marker was last written)");
  }
}
