package org.sparkbeton.spark.prepare;

import java.io.IOException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.sparkbeton.format.dataset.DatasetFiles;

/**
 * The notes a run prints about another job's files in its output folder that it leaves alone. A job's marker
 * ({@code _job-<job>.live}) is rewritten every {@link DatasetFiles#HEARTBEAT} while the job runs, and its files are
 * left alone until the marker is {@link DatasetFiles#STALE_AFTER} old: the job may be running beside this one. A
 * killed run's marker stays fresh that long too, so a rerun right after a {@code kill -9} leaves the killed run's
 * files; the note says so, and from when {@code beton gc} removes them (as will the next write after that time).
 */
final class LiveJobsNote {
  private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

  private LiveJobsNote() {}

  /** One note per job whose marker in {@code dir} is fresh at {@code nowMillis}; {@code where} names the folder. */
  static List<String> of(FileSystem fs, Path dir, String where, long nowMillis, ZoneId zone) throws IOException {
    List<String> notes = new ArrayList<>();
    if (!fs.getFileStatus(dir).isDirectory()) {
      return notes;
    }
    long staleAfter = DatasetFiles.STALE_AFTER.toMillis();
    for (FileStatus f : fs.listStatus(dir)) {
      DatasetFiles.Name n = f.isFile() ? DatasetFiles.classify(f.getPath().getName(), false) : null;
      if (n == null || n.checksum() || n.kind() != DatasetFiles.Kind.JOB_MARKER) {
        continue;
      }
      long stale = f.getModificationTime() + staleAfter;
      if (stale <= nowMillis) {
        continue; // a dead job's: the write deletes its files
      }
      notes.add("--output " + where + " holds the files of job " + n.job() + ", whose marker "
          + f.getPath().getName() + " was written " + (nowMillis - f.getModificationTime()) / 1000 + " s ago: it may"
          + " be running, so they are left alone; if it was killed, beton gc " + where + " --delete removes them from "
          + CLOCK.format(Instant.ofEpochMilli(stale).atZone(zone)) + " (" + DatasetFiles.STALE_AFTER.toMinutes()
          + " minutes after its marker was last written)");
    }
    return notes;
  }
}
