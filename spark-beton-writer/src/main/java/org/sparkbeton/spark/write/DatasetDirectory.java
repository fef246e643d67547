package org.sparkbeton.spark.write;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.sparkbeton.format.dataset.DatasetFiles;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.Orphans;

/**
 * What a write's target path holds, for the save modes that depend on whether a dataset exists there. A write
 * that failed or was killed before publishing leaves files of its own behind (attempt-unique shards, quarantine
 * records, a manifest's temporary file, its job marker; at least an empty directory): a directory holding nothing
 * else, and no manifest, holds no dataset, and the next write may delete those files, except those of a job still
 * running ({@link Orphans}). Anything else in it (a user's file) makes it {@link State#OCCUPIED}, and is never
 * deleted. The names are {@link DatasetFiles}'.
 */
public final class DatasetDirectory {
  private DatasetDirectory() {}

  /** What a path holds. */
  public enum State {
    /** Nothing there. */
    MISSING,
    /** A file, not a directory: no dataset can be written there. */
    FILE,
    /** A directory holding nothing, or only files of writes that never published a manifest. */
    LEFTOVERS,
    /**
     * No manifest, but shards of a job that left no marker: a killed write always leaves its marker, so these may be
     * a dataset whose manifest was lost or not copied with it (or a straggling task of an aborted write). Not a
     * write's to delete unasked.
     */
    UNLISTED_SHARDS,
    /** A published dataset ({@code _manifest.json}). */
    DATASET,
    /** A directory with no manifest, holding files this project did not write. */
    OCCUPIED;

    /** Whether a path in this state holds no dataset to read or keep: nothing, or a failed first write's files. */
    public boolean holdsNoDataset() {
      return this == MISSING || this == LEFTOVERS;
    }
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
    String foreign = null;
    Set<String> markedJobs = new HashSet<>();
    Map<String, String> shardOfJob = new TreeMap<>();
    for (FileStatus f : fs.listStatus(dir)) {
      String name = f.getPath().getName();
      DatasetFiles.Name n = f.isFile() ? DatasetFiles.classify(name, false) : null;
      if (f.isDirectory() && name.equals(DatasetFiles.QUARANTINE_DIR)) {
        for (FileStatus q : fs.listStatus(f.getPath())) {
          if (foreign == null && (!q.isFile() || DatasetFiles.classify(q.getPath().getName(), true) == null)) {
            foreign = DatasetFiles.QUARANTINE_DIR + "/" + q.getPath().getName();
          }
        }
      } else if (n == null) {
        foreign = foreign == null ? name : foreign;
      } else if (!n.checksum() && n.kind() == DatasetFiles.Kind.JOB_MARKER) {
        markedJobs.add(n.job());
      } else if (!n.checksum() && n.kind() == DatasetFiles.Kind.SHARD) {
        shardOfJob.merge(n.job(), name, (a, b) -> a.compareTo(b) <= 0 ? a : b); // the first by name, as an example
      }
    }
    for (Map.Entry<String, String> s : shardOfJob.entrySet()) {
      if (!markedJobs.contains(s.getKey())) {
        return new Inspection(State.UNLISTED_SHARDS, s.getValue());
      }
    }
    return foreign != null ? new Inspection(State.OCCUPIED, foreign) : new Inspection(State.LEFTOVERS, null);
  }

  /**
   * Why a write does not go to a directory in state {@link State#UNLISTED_SHARDS}; {@code overwrite} names the way
   * that replaces them ({@code mode("overwrite")}, {@code --overwrite}).
   */
  public static String unlistedShardsMessage(String where, String example, String overwrite) {
    return where + " holds shards but no " + DatasetManifest.FILE_NAME + " (" + example + "), and no job marker of"
        + " the write that made them: a dataset whose manifest was lost or not copied with it, or what a failed write"
        + " left. Nothing was written or deleted. Read them with spark.read.format(\"beton\").load(\"" + where
        + "/*.beton\"); " + overwrite + " replaces them, and beton gc " + where + " --delete deletes them";
  }

  /**
   * Deletes the files that make {@code dir} {@link State#LEFTOVERS}, as far as no running job holds them: shards,
   * quarantine records, temporary manifests, spools and markers of writes that never published, with their checksum
   * files, and the quarantine directory once empty ({@link Orphans#find} without a manifest). Leaves the directory,
   * the files of a job whose marker is fresh, a fresh {@code _manifest.lock} (a job may be publishing) and any other
   * file alone. Returns the number of files deleted (a checksum file that went with its file is not counted).
   */
  public static int deleteLeftovers(FileSystem fs, Path dir) throws IOException {
    if (fs.exists(new Path(dir, DatasetManifest.FILE_NAME))) {
      throw new IllegalStateException(dir + " holds a dataset; its unlisted files are not leftovers of a first write");
    }
    Orphans.Directory files = new HadoopDatasetDirectory(fs, dir);
    Orphans.Findings found = Orphans.find(files, () -> null);
    return Orphans.delete(files, found);
  }

}
