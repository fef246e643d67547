package org.sparkbeton.format.dataset;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The names of the files a write puts in a dataset directory beside {@value DatasetManifest#FILE_NAME}, and the job
 * each belongs to. A file of none of these names is not this project's: nothing here judges or deletes it.
 *
 * <p>A write's driver keeps a <em>job marker</em>, {@code _job-<job>.live}, for as long as the job runs, rewriting
 * it every {@link #HEARTBEAT}; a marker not rewritten for {@link #STALE_AFTER} belongs to a job that died (killed,
 * its driver lost), and so do the files of a job with no marker that no manifest lists.
 */
public final class DatasetFiles {
  /** Where task attempts put their quarantine records. */
  public static final String QUARANTINE_DIR = "_quarantine";
  /** The lock jobs take while they publish a manifest. */
  public static final String LOCK = "_manifest.lock";
  /** How often a running job rewrites its marker. */
  public static final Duration HEARTBEAT = Duration.ofSeconds(30);
  /**
   * A marker older than this belongs to a dead job: twenty heartbeats, enough for a driver paused by garbage
   * collection or a slow file system, and for clocks a few minutes apart.
   */
  public static final Duration STALE_AFTER = Duration.ofMinutes(10);
  /**
   * The recipe key of the jobs whose quarantine records a dataset keeps (comma-separated job ids): committed jobs
   * that quarantined rows, carried over by appends.
   */
  public static final String QUARANTINE_JOBS = "quarantine_jobs";

  /**
   * The recipe key of the names of a dataset's label values, label 0's first (a JSON list of strings): carried over
   * by appends; {@code beton prepare} records its class folders' names and takes them back on {@code --append}.
   */
  public static final String CLASS_NAMES = "class_names";

  /**
   * The recipe key of the dataset's identity (a random id): a write that creates the dataset or replaces it (an
   * overwrite) gives it a new one, appends and compactions keep it. The samples of a dataset whose identity did not
   * change are those it held before, in the same order, then the appended ones: a stream's position, counted in
   * samples, stays valid across compactions, which rename shards.
   */
  public static final String DATASET_ID = "dataset_id";

  /** A task attempt's shard: {@code part-<partition>-<job>-a<attempt>-<n>.beton}. */
  private static final Pattern SHARD = Pattern.compile("part-(\\d{5,})-([0-9a-f]{8})-a(\\d+)-\\d{3,}\\.beton");
  /** A task attempt's quarantine records, in {@value #QUARANTINE_DIR}: {@code part-<partition>-<job>-a<attempt>.jsonl}. */
  private static final Pattern QUARANTINE = Pattern.compile("part-(\\d{5,})-([0-9a-f]{8})-a(\\d+)\\.jsonl");
  /** The manifest on its way into place. */
  private static final Pattern MANIFEST_TMP = Pattern.compile("\\._manifest-[0-9a-f-]{36}\\.tmp");
  /** The format writer's page spool, when a write's spoolDir is the dataset directory. */
  private static final Pattern SPOOL = Pattern.compile("beton-pages-\\d+\\.spool");
  /** A task's note of the bad row that failed it: {@code part-<partition>-<job>-bad-row.txt}. */
  private static final Pattern BAD_ROW = Pattern.compile("part-(\\d{5,})-([0-9a-f]{8})-bad-row\\.txt");
  /** A running job's marker. */
  private static final Pattern JOB_MARKER = Pattern.compile("_job-([0-9a-f]{8})\\.live");

  private DatasetFiles() {}

  /** What a file of a dataset directory is. */
  public enum Kind {
    /** A task attempt's shard. */
    SHARD,
    /** A task attempt's quarantine records (in {@value #QUARANTINE_DIR}). */
    QUARANTINE,
    /** A manifest being published. */
    MANIFEST_TMP,
    /** A page spool. */
    SPOOL,
    /** A running job's marker. */
    JOB_MARKER,
    /**
     * A task's note of the bad row (bad image, value that cannot be stored) that failed it, read by the task's
     * retries so that they do not read the partition again: deleted when the job ends.
     */
    BAD_ROW,
    /** The manifest lock. */
    LOCK
  }

  /**
   * A file name read as one of ours: its kind, and for shards and quarantine records their partition, job and
   * attempt (job markers: their job; -1 and null where the name has none). {@code checksum} is true for the hidden
   * {@code .<name>.crc} that Hadoop's local file system keeps beside a file.
   */
  public record Name(Kind kind, int partition, String job, int attempt, boolean checksum) {
  }

  /** The marker name of {@code job}. */
  public static String jobMarker(String job) {
    return "_job-" + job + ".live";
  }

  /** The name of the bad-row note of {@code partition} of {@code job}. */
  public static String badRowNote(String job, int partition) {
    return String.format(java.util.Locale.ROOT, "part-%05d-%s-bad-row.txt", partition, job);
  }

  /**
   * {@code name} (a file's name, not a path) read as one of ours, or null: top-level names when {@code inQuarantine}
   * is false, names inside {@value #QUARANTINE_DIR} otherwise.
   */
  public static Name classify(String name, boolean inQuarantine) {
    boolean checksum = false;
    if (name.startsWith(".") && name.endsWith(".crc") && name.length() > 5) {
      name = name.substring(1, name.length() - 4);
      checksum = true;
    }
    if (inQuarantine) {
      Matcher q = QUARANTINE.matcher(name);
      return q.matches() ? attemptFile(Kind.QUARANTINE, q, checksum) : null;
    }
    Matcher m = SHARD.matcher(name);
    if (m.matches()) {
      return attemptFile(Kind.SHARD, m, checksum);
    }
    m = BAD_ROW.matcher(name);
    if (m.matches()) {
      try {
        return new Name(Kind.BAD_ROW, Integer.parseInt(m.group(1)), m.group(2), -1, checksum);
      } catch (NumberFormatException e) {
        return null; // digits past an int: not a name we write
      }
    }
    m = JOB_MARKER.matcher(name);
    if (m.matches()) {
      return new Name(Kind.JOB_MARKER, -1, m.group(1), -1, checksum);
    }
    if (MANIFEST_TMP.matcher(name).matches()) {
      return new Name(Kind.MANIFEST_TMP, -1, null, -1, checksum);
    }
    if (SPOOL.matcher(name).matches()) {
      return new Name(Kind.SPOOL, -1, null, -1, checksum);
    }
    if (name.equals(LOCK)) {
      return new Name(Kind.LOCK, -1, null, -1, checksum);
    }
    return null;
  }

  private static Name attemptFile(Kind kind, Matcher m, boolean checksum) {
    try {
      return new Name(kind, Integer.parseInt(m.group(1)), m.group(2), Integer.parseInt(m.group(3)), checksum);
    } catch (NumberFormatException e) {
      return null; // digits past an int: not a name we write
    }
  }
}
