package org.sparkbeton.format.dataset;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.sparkbeton.format.dataset.DatasetFiles.Kind;
import org.sparkbeton.format.dataset.DatasetFiles.Name;

/**
 * The files of jobs that died (killed, their driver lost) in a dataset directory: shards no manifest lists,
 * quarantine records of jobs that never published or of attempts that lost, a manifest left half published, a stale
 * lock, spool or job marker. A file of a job that is still running (its marker fresh, see {@link DatasetFiles}) is
 * left alone, and so is every file whose name is not one a write makes. {@link #find(Directory, ManifestReader)}
 * lists a {@link Directory} and reads its manifest in the order the rules need, so the Spark writer and
 * {@code beton gc} (local disk or any Hadoop file system) apply the same rules the same way.
 */
public final class Orphans {
  private Orphans() {}

  /** One file of a dataset directory: its path inside it ({@code x} or {@code _quarantine/x}), size, modification time. */
  public record FileInfo(String path, long bytes, long modifiedMillis) {
  }

  /** A file no live job holds and no dataset needs: its path, size, job (null when its name has none) and why. */
  public record Orphan(String path, long bytes, String job, String reason) {
  }

  /**
   * The orphans of a directory, the files of ours left alone because a running job may hold them (those of a
   * job whose marker is fresh, fresh locks, temporary manifests and spools), and the shards a compaction replaced
   * that its record keeps still, for readers that planned their reads before it ({@link CompactionRecord}); and the
   * jobs taken as running, each with the time its marker was last rewritten (epoch milliseconds): a job killed
   * without its cleanup stays "running" until {@link DatasetFiles#STALE_AFTER} has passed since.
   */
  public record Findings(List<Orphan> orphans, List<String> held, List<String> replaced, long replacedKeptUntilMillis,
      Map<String, Long> liveJobs) {
    public long orphanBytes() {
      return orphans.stream().mapToLong(Orphan::bytes).sum();
    }
  }

  /**
   * The orphans among {@code files} of a directory whose published manifest is {@code manifest} (null when it has
   * none: then nothing of a dead job is kept), judged at {@code nowMillis}. A temporary manifest is an orphan unless
   * the manifest lock is held (its holder writes one while it publishes), a spool unless some job is running. The
   * listing must end with the job markers and lock the directory holds after every other file was listed
   * ({@link #withMarkersListedAgain}): a job's marker is written before its first file, and the lock before a
   * temporary manifest, so a job that started while the directory was listed is then known; and the manifest must
   * be read after the listing: a job that published and removed its marker meanwhile is then in it.
   */
  public static Findings find(List<FileInfo> files, DatasetManifest manifest, long nowMillis) {
    long stale = DatasetFiles.STALE_AFTER.toMillis();
    Set<String> liveJobs = new HashSet<>();
    Map<String, Long> heartbeats = new java.util.TreeMap<>(); // a live job's marker, last rewritten (epoch millis)
    Set<String> markedJobs = new HashSet<>();
    boolean publishing = false; // a fresh manifest lock: its holder may be writing a temporary manifest
    for (FileInfo f : files) {
      Name n = DatasetFiles.classify(f.path(), false);
      if (n != null && !n.checksum() && n.kind() == Kind.JOB_MARKER) {
        markedJobs.add(n.job());
      }
      if (n != null && !n.checksum() && nowMillis - f.modifiedMillis() <= stale) {
        if (n.kind() == Kind.JOB_MARKER) {
          liveJobs.add(n.job());
          heartbeats.put(n.job(), f.modifiedMillis());
        } else if (n.kind() == Kind.LOCK) {
          publishing = true;
        }
      }
    }
    Set<String> listed = new HashSet<>();
    // per job and partition, the attempt whose shards the manifest lists
    Map<String, Integer> committedAttempt = new HashMap<>();
    Set<String> quarantineJobs = null;
    Set<String> recentlyReplaced = new HashSet<>();
    Set<String> replacedPastTheirKeep = new HashSet<>();
    long keptUntil = 0; // the last time a replaced shard left alone becomes deletable
    if (manifest != null) {
      for (CompactionRecord r : CompactionRecord.of(manifest.recipe())) {
        if (r.fresh(nowMillis)) {
          recentlyReplaced.addAll(r.replaced());
          keptUntil = Math.max(keptUntil, r.keepUntilMillis());
        } else {
          replacedPastTheirKeep.addAll(r.replaced());
        }
      }
      for (ShardEntry s : manifest.shards()) {
        listed.add(s.path());
        Name n = DatasetFiles.classify(s.path(), false);
        if (n != null && n.kind() == Kind.SHARD) {
          committedAttempt.put(n.job() + "/" + n.partition(), n.attempt());
        }
      }
      String jobs = manifest.recipe().get(DatasetFiles.QUARANTINE_JOBS);
      if (jobs != null) {
        quarantineJobs = new HashSet<>(List.of(jobs.split(",")));
      }
    }
    List<Orphan> orphans = new ArrayList<>();
    List<String> held = new ArrayList<>();
    List<String> replaced = new ArrayList<>();
    for (FileInfo f : files) {
      boolean inQuarantine = f.path().startsWith(DatasetFiles.QUARANTINE_DIR + "/");
      String name = inQuarantine ? f.path().substring(DatasetFiles.QUARANTINE_DIR.length() + 1) : f.path();
      Name n = DatasetFiles.classify(name, inQuarantine);
      if (n == null) {
        continue;
      }
      String base = n.checksum() ? name.substring(1, name.length() - 4) : name;
      long age = nowMillis - f.modifiedMillis();
      String reason = null;
      if (n.job() != null && liveJobs.contains(n.job())) {
        held.add(f.path());
        continue;
      }
      switch (n.kind()) {
        case SHARD -> {
          if (!listed.contains(base) && recentlyReplaced.contains(base)) {
            replaced.add(f.path());
          } else if (!listed.contains(base)) {
            // a killed write leaves its marker: without one, and without a manifest, say what else it may be
            reason = replacedPastTheirKeep.contains(base)
                ? "shard a compaction replaced, whose keepReplacedFor has passed"
                : manifest == null && !markedJobs.contains(n.job())
                ? "shard of job " + n.job() + ", which left no marker, and no manifest lists it: a failed write's, or"
                    + " a dataset copied without its manifest (read them first with a glob of the .beton files)"
                : "shard of job " + n.job() + ", which is not running, and no manifest lists it";
          }
        }
        case QUARANTINE -> {
          Integer committed = committedAttempt.get(n.job() + "/" + n.partition());
          if (manifest == null) {
            reason = "quarantine records of job " + n.job() + ", which never published";
          } else if (committed != null && committed != n.attempt()) {
            reason = "quarantine records of attempt " + n.attempt() + " of partition " + n.partition() + " of job "
                + n.job() + ", whose attempt " + committed + " was committed";
          } else if (quarantineJobs != null && !quarantineJobs.contains(n.job())) {
            reason = "quarantine records of job " + n.job() + ", which never published";
          }
        }
        case BAD_ROW -> reason = "bad-row note of partition " + n.partition() + " of job " + n.job()
            + ", which is not running";
        case JOB_MARKER -> reason = "marker of job " + n.job() + ", not rewritten for " + age(age) + ": the job died";
        case MANIFEST_TMP -> {
          if (!publishing) {
            reason = "a manifest left half published " + age(age) + " ago";
          }
        }
        case LOCK -> {
          if (age > stale) {
            reason = "manifest lock taken " + age(age) + " ago by a job that died while publishing";
          }
        }
        case SPOOL -> {
          if (liveJobs.isEmpty()) {
            reason = "page spool of a task, last written " + age(age) + " ago, and no job is running";
          }
        }
        default -> throw new IllegalStateException("unknown kind " + n.kind());
      }
      if (reason != null) {
        orphans.add(new Orphan(f.path(), f.bytes(), n.job(), n.checksum() ? "checksum of a " + reason : reason));
      } else if (n.kind() != Kind.SHARD && n.kind() != Kind.QUARANTINE) {
        held.add(f.path()); // a fresh lock, temporary manifest or spool: a job may be using it
      }
    }
    // by path, as listings print them: a file system's listing order is its own (HDFS sorts, a local one does not)
    orphans.sort(java.util.Comparator.comparing(Orphan::path));
    held.sort(null);
    replaced.sort(null);
    return new Findings(List.copyOf(orphans), List.copyOf(held), List.copyOf(replaced),
        replaced.isEmpty() ? 0 : keptUntil, Map.copyOf(heartbeats));
  }

  /**
   * {@code listing} plus the job markers and manifest lock of {@code again} (the directory's top level listed once
   * more, after {@code listing}) that it lacks: one written while the first listing ran may have been missed by it.
   */
  public static List<FileInfo> withMarkersListedAgain(List<FileInfo> listing, List<FileInfo> again) {
    Set<String> seen = new HashSet<>();
    listing.forEach(f -> seen.add(f.path()));
    List<FileInfo> out = new ArrayList<>(listing);
    for (FileInfo f : again) {
      Name n = DatasetFiles.classify(f.path(), false);
      if (n != null && (n.kind() == Kind.JOB_MARKER || n.kind() == Kind.LOCK) && !n.checksum() && seen.add(f.path())) {
        out.add(f);
      }
    }
    return out;
  }

  /**
   * A dataset directory on some file system, as {@link Orphans} lists and cleans it: local disk
   * ({@link #local(Path)}), or any Hadoop file system through an adapter of the module that knows Hadoop.
   */
  public interface Directory {
    /**
     * The plain files directly in {@code sub} ({@code ""} for the directory itself, else
     * {@value DatasetFiles#QUARANTINE_DIR}), named by their paths inside the dataset directory ({@code x},
     * {@code _quarantine/x}); none where {@code sub} does not exist. A file deleted while it is listed is left out.
     */
    List<FileInfo> files(String sub) throws IOException;

    /** Deletes the file, or the empty directory, at {@code path} inside the dataset directory; false where none is. */
    boolean delete(String path) throws IOException;
  }

  /** The local dataset directory {@code dir}. */
  public static Directory local(Path dir) {
    return new Directory() {
      @Override
      public List<FileInfo> files(String sub) throws IOException {
        Path in = sub.isEmpty() ? dir : dir.resolve(sub);
        List<FileInfo> out = new ArrayList<>();
        if (!Files.isDirectory(in, LinkOption.NOFOLLOW_LINKS)) {
          return out;
        }
        String prefix = sub.isEmpty() ? "" : sub + "/";
        try (Stream<Path> files = Files.list(in)) {
          for (Path p : files.toList()) {
            if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
              try {
                out.add(new FileInfo(prefix + p.getFileName(), Files.size(p), Files.getLastModifiedTime(p).toMillis()));
              } catch (NoSuchFileException e) {
                // deleted since it was listed (a job finishing): nothing to judge
              }
            }
          }
        }
        return out;
      }

      @Override
      public boolean delete(String path) throws IOException {
        return Files.deleteIfExists(dir.resolve(path));
      }
    };
  }

  /**
   * The files of a dataset directory (its top level and {@value DatasetFiles#QUARANTINE_DIR}), the job markers and
   * lock listed again at the end ({@link #withMarkersListedAgain}).
   */
  public static List<FileInfo> list(Directory dir) throws IOException {
    List<FileInfo> out = new ArrayList<>(dir.files(""));
    out.addAll(dir.files(DatasetFiles.QUARANTINE_DIR));
    return withMarkersListedAgain(out, dir.files(""));
  }

  /** Reads a dataset directory's published manifest; null where it has none. */
  @FunctionalInterface
  public interface ManifestReader {
    DatasetManifest read() throws IOException;
  }

  /**
   * The orphans of {@code dir} now: the directory listed ({@link #list}), then its manifest read by {@code manifest},
   * in that order, as {@link #find(List, DatasetManifest, long)} asks (a job that published and removed its marker
   * while the directory was listed is then in the manifest read).
   */
  public static Findings find(Directory dir, ManifestReader manifest) throws IOException {
    List<FileInfo> files = list(dir);
    return find(files, manifest.read(), System.currentTimeMillis());
  }

  /** The orphans of the local dataset directory {@code dir} now. */
  public static Findings find(Path dir) throws IOException {
    return find(local(dir), () -> Files.isRegularFile(dir.resolve(DatasetManifest.FILE_NAME))
        ? DatasetVerifier.manifest(dir) : null);
  }

  /**
   * Deletes the orphans {@code findings} lists from {@code dir}, then its quarantine directory if that is left empty;
   * returns the number of files deleted (one already gone is not counted).
   */
  public static int delete(Directory dir, Findings findings) throws IOException {
    int deleted = 0;
    for (Orphan o : findings.orphans()) {
      if (dir.delete(o.path())) {
        deleted++;
      }
    }
    if (dir.files(DatasetFiles.QUARANTINE_DIR).isEmpty()) {
      try {
        dir.delete(DatasetFiles.QUARANTINE_DIR);
      } catch (IOException e) {
        // a running job has just quarantined a row there (the directory is not empty), or there is none: it stays
      }
    }
    return deleted;
  }

  /**
   * What a job taken as running is, for an operator who may know it dead: {@code job 9f66a333 taken as running: its
   * marker was rewritten 42 s ago; ...}. A driver killed without its cleanup leaves a marker that stays fresh for
   * {@link DatasetFiles#STALE_AFTER}.
   */
  public static String liveJob(String job, long heartbeatMillis, long nowMillis) {
    long deadAt = heartbeatMillis + DatasetFiles.STALE_AFTER.toMillis();
    return "job " + job + " taken as running: its marker was rewritten " + age(nowMillis - heartbeatMillis) + " ago; a"
        + " job whose marker goes " + age(DatasetFiles.STALE_AFTER.toMillis()) + " without a heartbeat (its driver"
        + " killed) is taken as dead, from " + java.time.Instant.ofEpochMilli(deadAt)
        .truncatedTo(java.time.temporal.ChronoUnit.SECONDS) + ", and its files are orphans then";
  }

  /** {@code 42 s}, {@code 12 min}, {@code 3 h 5 min}, {@code 4 days}. */
  static String age(long millis) {
    Duration d = Duration.ofMillis(Math.max(0, millis));
    if (d.toMinutes() < 1) {
      return d.toSeconds() + " s";
    }
    if (d.toHours() < 1) {
      return d.toMinutes() + " min";
    }
    if (d.toDays() < 2) {
      return d.toHours() + " h " + d.toMinutesPart() + " min";
    }
    return d.toDays() + " days";
  }
}
