package org.sparkbeton.spark.write;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.sparkbeton.format.dataset.DatasetManifest;

/**
 * What a write's target path holds, for the save modes that depend on whether a dataset exists there. A write
 * that failed or was killed before publishing leaves files of its own behind (attempt-unique shards, quarantine
 * records, a manifest's temporary file; at least an empty directory): a directory holding nothing else, and no
 * manifest, holds no dataset, and the next write may delete those files. Anything else in it (a user's file) makes
 * it {@link State#OCCUPIED}, and is never deleted.
 */
public final class DatasetDirectory {
  /** A task attempt's shard: {@code part-<partition>-<job>-a<attempt>-<n>.beton} ({@link BetonDataWriter#shardPrefix}). */
  private static final Pattern SHARD = Pattern.compile("part-\\d{5,}-[0-9a-f]{8}-a\\d+-\\d{3,}\\.beton");
  /** A task attempt's quarantine records, in {@value QuarantineLog#DIR}. */
  private static final Pattern QUARANTINE = Pattern.compile("part-\\d{5,}-[0-9a-f]{8}-a\\d+\\.jsonl");
  /** The manifest on its way into place ({@link DatasetPublisher}). */
  private static final Pattern MANIFEST_TMP = Pattern.compile("\\._manifest-[0-9a-f-]{36}\\.tmp");
  /** The format writer's page spool, when option spoolDir names the dataset directory. */
  private static final Pattern SPOOL = Pattern.compile("beton-pages-\\d+\\.spool");

  private DatasetDirectory() {}

  /** What a path holds. */
  public enum State {
    /** Nothing there. */
    MISSING,
    /** A file, not a directory: no dataset can be written there. */
    FILE,
    /** A directory holding nothing, or only files of writes that never published a manifest. */
    LEFTOVERS,
    /** A published dataset ({@code _manifest.json}). */
    DATASET,
    /** A directory with no manifest, holding files this project did not write. */
    OCCUPIED
  }

  /** A path's state; {@code example} is one file that makes it {@link State#OCCUPIED} (null otherwise). */
  public record Inspection(State state, String example) {
  }

  /** Looks at {@code dir}: its manifest, else every name in it (and in its quarantine directory). */
  public static Inspection inspect(FileSystem fs, Path dir) throws IOException {
    FileStatus status;
    try {
      status = fs.getFileStatus(dir);
    } catch (FileNotFoundException e) {
      return new Inspection(State.MISSING, null);
    }
    if (status.isFile()) {
      return new Inspection(State.FILE, null);
    }
    if (fs.exists(new Path(dir, DatasetManifest.FILE_NAME))) {
      return new Inspection(State.DATASET, null);
    }
    for (FileStatus f : fs.listStatus(dir)) {
      String name = f.getPath().getName();
      if (f.isDirectory() && name.equals(QuarantineLog.DIR)) {
        for (FileStatus q : fs.listStatus(f.getPath())) {
          if (!q.isFile() || !isOurs(QUARANTINE, q.getPath().getName())) {
            return new Inspection(State.OCCUPIED, QuarantineLog.DIR + "/" + q.getPath().getName());
          }
        }
      } else if (!f.isFile() || !(isLock(name) || isLeftover(name))) {
        return new Inspection(State.OCCUPIED, name);
      }
    }
    return new Inspection(State.LEFTOVERS, null);
  }

  /**
   * Deletes the files that make {@code dir} {@link State#LEFTOVERS}: shards, quarantine records, temporary manifests
   * and spools of writes that never published, with their checksum files, and the quarantine directory once empty.
   * Leaves the directory, a {@link ManifestLock} (a job may be publishing) and any other file alone. Returns the
   * number of files deleted (a checksum file that went with its file not counted).
   */
  public static int deleteLeftovers(FileSystem fs, Path dir) throws IOException {
    if (fs.exists(new Path(dir, DatasetManifest.FILE_NAME))) {
      throw new IllegalStateException(dir + " holds a dataset; its unlisted files are not leftovers of a first write");
    }
    int deleted = 0;
    for (FileStatus f : fs.listStatus(dir)) {
      if (f.isFile() && isLeftover(f.getPath().getName()) && fs.delete(f.getPath(), false)) {
        deleted++;
      }
    }
    Path quarantine = new Path(dir, QuarantineLog.DIR);
    if (fs.exists(quarantine)) {
      for (FileStatus q : fs.listStatus(quarantine)) {
        if (q.isFile() && isOurs(QUARANTINE, q.getPath().getName()) && fs.delete(q.getPath(), false)) {
          deleted++;
        }
      }
      if (fs.listStatus(quarantine).length == 0) {
        fs.delete(quarantine, false);
      }
    }
    return deleted;
  }

  /** A top-level file a write leaves behind when it never publishes (the lock aside). */
  static boolean isLeftover(String name) {
    return isOurs(SHARD, name) || isOurs(MANIFEST_TMP, name) || isOurs(SPOOL, name);
  }

  /** The manifest lock of a job that may still be publishing, or its checksum file. */
  private static boolean isLock(String name) {
    return name.equals(ManifestLock.FILE) || name.equals("." + ManifestLock.FILE + ".crc");
  }

  /** {@code name} matches {@code p}, or is the hidden checksum file Hadoop's local file system keeps beside one. */
  private static boolean isOurs(Pattern p, String name) {
    if (name.startsWith(".") && name.endsWith(".crc")) {
      name = name.substring(1, name.length() - 4);
    }
    return p.matcher(name).matches();
  }
}
