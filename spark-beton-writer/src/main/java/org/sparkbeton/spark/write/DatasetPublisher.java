package org.sparkbeton.spark.write;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.hadoop.fs.ChecksumFileSystem;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.SparkBetonVersion;
import org.sparkbeton.format.dataset.CompactionRecord;
import org.sparkbeton.format.dataset.DatasetFiles;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.ManifestField;
import org.sparkbeton.format.dataset.ManifestFormatException;
import org.sparkbeton.format.dataset.Orphans;
import org.sparkbeton.format.dataset.RecordedColumnTypes;
import org.sparkbeton.format.dataset.ShardCompaction;
import org.sparkbeton.format.dataset.ShardEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The driver's side of the commit protocol: the manifest is the only definition of a dataset, and
 * only this class writes it, last. Publishing replaces {@code _manifest.json} atomically as readers
 * see it (an object store's PUT of the whole object, or a write-then-rename with overwrite on file
 * systems), so a reader sees the old dataset or the new one, never a mix.
 */
public final class DatasetPublisher {
  private static final Logger LOG = LoggerFactory.getLogger(DatasetPublisher.class);
  private static final Set<String> OBJECT_STORES = Set.of("s3", "s3a", "s3n", "gs", "abfs", "abfss", "wasb", "wasbs", "oss");

  private final FileSystem fs;
  private final Path dir;
  private final long lockTimeoutMillis;
  /**
   * Set when {@link #commit} replaced a dataset whose manifest could not be read: the files of the old dataset
   * cannot be told from others', so {@link #deleteOrphans} reports them instead of deleting them.
   */
  private boolean replacedUnreadable;

  DatasetPublisher(FileSystem fs, Path dir, long lockTimeoutMillis) {
    this.fs = fs;
    this.dir = dir;
    this.lockTimeoutMillis = lockTimeoutMillis;
  }

  /** The published manifest, or null when the directory holds no dataset. */
  DatasetManifest current() throws IOException {
    return read(fs, dir);
  }

  /**
   * The manifest published in {@code dir}, or null when the directory holds no dataset.
   *
   * @throws UnreadableManifestException naming the file when it exists but cannot be parsed
   */
  public static DatasetManifest read(FileSystem fs, Path dir) throws IOException {
    Path manifest = new Path(dir, DatasetManifest.FILE_NAME);
    if (!fs.exists(manifest)) {
      return null;
    }
    String text;
    try (InputStream in = fs.open(manifest)) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    try {
      return DatasetManifest.parse(text);
    } catch (ManifestFormatException e) {
      throw new UnreadableManifestException(dir, e);
    }
  }

  /**
   * Publishes the shards of {@code messages}: appended to the current dataset, or replacing it ({@link
   * CommitMode#OVERWRITE}). Holds the dataset's {@link ManifestLock} from reading the current manifest to
   * publishing the next, so concurrent appends all land. Then deletes what no manifest lists any more: old
   * shards and quarantine files after an overwrite, and files of this job that no committed attempt
   * reported (killed speculative attempts, failed attempts). A micro-batch of a streaming write ({@code batch}; null
   * for a batch write) that the dataset holds already publishes nothing and deletes its files: then null. An overwrite
   * of a dataset whose manifest cannot be read publishes, and deletes no file but this job's: nothing proves the
   * others were the old dataset's ({@link #deleteOrphans} reports them); an append to it is refused.
   */
  DatasetManifest commit(String jobId, List<BetonField> fields, List<BetonCommitMessage> messages, CommitMode mode,
      Map<String, String> recipe, StreamBatch batch) throws IOException {
    boolean overwrite = mode == CommitMode.OVERWRITE;
    try (ManifestLock lock = ManifestLock.acquire(fs, dir, "spark-beton write job " + jobId, lockTimeoutMillis)) {
      DatasetManifest previous;
      try {
        previous = current();
      } catch (UnreadableManifestException e) {
        if (!overwrite) {
          throw e;
        }
        LOG.warn("beton write {}: replacing the dataset at {}, whose manifest cannot be read; its files are left in"
            + " place", jobId, dir, e);
        previous = null;
        replacedUnreadable = true;
      }
      if (batch != null && previous != null && batch.publishedIn(previous)) {
        deleteUnlisted(jobId, Set.of());
        return null;
      }
      if (batch != null && batch.followsBatchesPublishedElsewhere(previous)) {
        LOG.warn("beton write {}: batch {} of streaming query {} goes to {}, which holds none of the query's earlier"
            + " batches: if its checkpointLocation was made for another output path, the rows of those batches are"
            + " there, not here (a new output needs a new checkpointLocation)", jobId, batch.epoch(), batch.queryId(),
            dir);
      }
      if (previous != null && (mode == CommitMode.NEW || mode == CommitMode.NEW_UNLESS_PUBLISHED_MEANWHILE)) {
        // another write published a dataset here after this one found none: adding to it would store its samples
        // beside this write's (two prepares of one folder at once: every image twice)
        deleteUnlisted(jobId, Set.of());
        if (mode == CommitMode.NEW) {
          throw new PublishedMeanwhileException(dir.toString(), "Path " + dir + " holds a beton dataset that another"
              + " write published while this one ran (there was none when it started), so this write published nothing"
              + " and deleted its files. Set mode \"append\" to add to it, or \"overwrite\" to replace it");
        }
        LOG.warn("beton write {}: another write published a dataset at {} while this one ran; with mode \"ignore\""
            + " this write published nothing and deleted its files", jobId, dir);
        return null;
      }
      List<ManifestField> manifestFields = fields.stream().map(ManifestField::of).toList();
      List<ShardEntry> shards = new ArrayList<>();
      if (previous != null && !overwrite) {
        // checked before the job ran (AppendCompatibility): a dataset replaced meanwhile gets here
        DatasetManifest appendedTo = previous;
        AppendCompatibility.differences(previous, manifestFields, Map.of()).ifPresent(d -> {
          throw new IllegalArgumentException("Cannot append to " + dir + ": its fields changed while this write ran"
              + " (another write replaced the dataset), and the DataFrame's columns no longer match them, so nothing"
              + " was published. " + d + ". " + AppendCompatibility.instead(appendedTo));
        });
        shards.addAll(previous.shards());
      }
      messages.stream().sorted((a, b) -> Integer.compare(a.partition(), b.partition()))
          .forEach(m -> shards.addAll(m.shards()));
      requirePresent(messages);
      Map<String, String> written = previous == null || overwrite ? recipe
          : RecordedColumnTypes.afterAppend(recipe, previous);
      if (previous != null && !overwrite) {
        warnOfWiderColumns(jobId, previous, written);
        ImageSettingsChange.of(previous.recipe(), written)
            .ifPresent(change -> LOG.warn("beton write {} to {}: {}", jobId, dir, change));
      }
      Map<String, String> nextRecipe = withIdentity(StreamBatch.recorded(withClassNames(withQuarantineJobs(written,
          previous, overwrite, jobId, messages), overwrite ? null : previous), previous, batch),
          overwrite ? null : previous);
      DatasetManifest next = new DatasetManifest(manifestFields, shards, nextRecipe, SparkBetonVersion.writer());
      publish(next);
      Set<String> live = new HashSet<>();
      next.shards().forEach(s -> live.add(s.path()));
      if (previous != null && overwrite) {
        for (ShardEntry old : previous.shards()) {
          if (!live.contains(old.path())) {
            fs.delete(new Path(dir, old.path()), false);
          }
        }
      }
      Set<String> quarantine = new HashSet<>();
      messages.forEach(m -> {
        if (m.quarantineFile() != null) {
          quarantine.add(m.quarantineFile());
        }
      });
      deleteUnlisted(jobId, live, quarantine, overwrite && !replacedUnreadable);
      return next;
    }
  }

  /**
   * Publishes a compaction ({@link BetonCompaction}): in the current manifest, each of {@code groups} whose shards it
   * still lists in a row, as planned, is replaced by its merged shard ({@code merged}, in the same order); the
   * identity, fields and recipe stay, and the recipe records the shards replaced ({@link CompactionRecord}), which stay
   * on disk for the readers that planned them, {@code keepReplacedMillis} from now. Nothing is published where the dataset's identity is no longer
   * {@code datasetId} (replaced meanwhile; null for a dataset written before identities, which then gets one) or no group is left as planned (another compaction). Then this job's files
   * that the manifest does not list are deleted (the shards of groups left out, other attempts'). Returns the groups
   * published.
   */
  List<ShardCompaction.Group> commitCompaction(String jobId, String datasetId, List<ShardCompaction.Group> groups,
      List<ShardEntry> merged, long keepReplacedMillis) throws IOException {
    List<ShardCompaction.Group> published = new ArrayList<>();
    Set<String> live = new HashSet<>();
    try (ManifestLock lock = ManifestLock.acquire(fs, dir, "spark-beton compaction " + jobId, lockTimeoutMillis)) {
      DatasetManifest current = current();
      if (current != null && java.util.Objects.equals(datasetId, current.recipe().get(DatasetFiles.DATASET_ID))) {
        Map<String, Integer> groupAt = new java.util.HashMap<>();
        for (int g = 0; g < groups.size(); g++) {
          groupAt.put(groups.get(g).shards().get(0).path(), g);
        }
        List<ShardEntry> shards = new ArrayList<>();
        List<String> replaced = new ArrayList<>();
        List<ShardEntry> listed = current.shards();
        for (int i = 0; i < listed.size(); ) {
          Integer g = groupAt.get(listed.get(i).path());
          List<String> paths = g == null ? null : groups.get(g).paths();
          if (paths != null && i + paths.size() <= listed.size()
              && listed.subList(i, i + paths.size()).stream().map(ShardEntry::path).toList().equals(paths)) {
            shards.add(merged.get(g));
            replaced.addAll(paths);
            published.add(groups.get(g));
            live.add(merged.get(g).path());
            i += paths.size();
          } else {
            shards.add(listed.get(i++));
          }
        }
        if (!published.isEmpty()) {
          long now = System.currentTimeMillis();
          Map<String, String> recipe = CompactionRecord.carried(current.recipe(), current, now);
          recipe.put(CompactionRecord.PREFIX + jobId, new CompactionRecord(jobId, now,
              now + keepReplacedMillis, replaced).json());
          // a dataset written before identities gets one: streams reading it from now on can follow compactions
          recipe.putIfAbsent(DatasetFiles.DATASET_ID, UUID.randomUUID().toString());
          publish(new DatasetManifest(current.fields(), shards, recipe, SparkBetonVersion.writer()));
        }
      }
      deleteUnlisted(jobId, live);
    }
    return published;
  }

  /**
   * {@code recipe} with the dataset's identity ({@link DatasetFiles#DATASET_ID}) and the records of compactions that
   * published moments ago ({@link CompactionRecord}) taken from {@code previous}, the dataset appended to; a new
   * dataset, or one replaced ({@code previous} null), gets a new identity and no record.
   */
  static Map<String, String> withIdentity(Map<String, String> recipe, DatasetManifest previous) {
    Map<String, String> r = CompactionRecord.carried(recipe, previous, System.currentTimeMillis());
    String id = previous == null ? null : previous.recipe().get(DatasetFiles.DATASET_ID);
    r.put(DatasetFiles.DATASET_ID, id != null ? id : UUID.randomUUID().toString());
    return r;
  }

  /**
   * Says which columns of the dataset read as other types from now on: the rows appended are of a wider type than
   * the dataset's (bigint ones appended to int ones), and DataFrames and streams that read it before fail their next
   * query (the reader README's "Column types as written").
   */
  private void warnOfWiderColumns(String jobId, DatasetManifest previous, Map<String, String> next) {
    Map<String, String> before = RecordedColumnTypes.of(previous.recipe());
    Map<String, String> after = RecordedColumnTypes.of(next);
    before.forEach((field, type) -> {
      String now = after.get(field);
      if (!type.equals(now)) {
        LOG.warn("beton write {}: column '{}' of {} reads as {} from now on, not {}: the rows appended are of a wider"
            + " type", jobId, field, dir, now != null ? now : "its field's own type (bigint, double, binary or string)",
            type);
      }
    });
  }

  /**
   * {@code recipe} with the class names of the dataset it is appended to ({@code previous}, null for a new dataset or
   * an overwrite) when this write gives none: the labels of the shards already there keep their names. An append
   * whose {@link BetonWriteOptions#CLASS_NAMES} differ is refused: its labels would mean other classes.
   */
  private Map<String, String> withClassNames(Map<String, String> recipe, DatasetManifest previous) {
    String before = previous == null ? null : previous.recipe().get(DatasetFiles.CLASS_NAMES);
    String given = recipe.get(DatasetFiles.CLASS_NAMES);
    if (before == null || before.equals(given)) {
      return recipe;
    }
    if (given != null) {
      throw new IllegalArgumentException("Cannot append to " + dir + ": its class names " + before + " differ from"
          + " this write's classNames " + given + ", so equal labels would name other classes");
    }
    Map<String, String> r = new java.util.LinkedHashMap<>(recipe);
    r.put(DatasetFiles.CLASS_NAMES, before);
    return r;
  }

  /**
   * {@code recipe} with {@link DatasetFiles#QUARANTINE_JOBS}: the jobs whose quarantine records the dataset keeps,
   * the previous manifest's (on an append) plus this job when it quarantined rows; so that a later cleanup can tell
   * the records of a committed job, even one that stored no sample, from those of a job that died.
   */
  private static Map<String, String> withQuarantineJobs(Map<String, String> recipe, DatasetManifest previous,
      boolean overwrite, String jobId, List<BetonCommitMessage> messages) {
    java.util.LinkedHashSet<String> jobs = new java.util.LinkedHashSet<>();
    String before = previous == null || overwrite ? null : previous.recipe().get(DatasetFiles.QUARANTINE_JOBS);
    if (before != null && !before.isEmpty()) {
      jobs.addAll(List.of(before.split(",")));
    }
    if (messages.stream().anyMatch(m -> m.quarantineFile() != null)) {
      jobs.add(jobId);
    }
    Map<String, String> r = new java.util.LinkedHashMap<>(recipe);
    r.put(DatasetFiles.QUARANTINE_JOBS, String.join(",", jobs));
    return r;
  }

  /**
   * Deletes the files jobs that died left in the directory ({@link Orphans}: shards no manifest lists, quarantine
   * records of jobs that never published, stale markers, locks and temporary manifests), leaving those of running
   * jobs, and every file whose name is not one a write makes. The directory is listed first and the manifest read
   * after: a job that published and removed its marker in between is then in the manifest read. Not under the lock,
   * which stays held for milliseconds; returns the number of files deleted.
   */
  int deleteOrphans(String jobId) throws IOException {
    Orphans.Directory files = new HadoopDatasetDirectory(fs, dir);
    Orphans.Findings found = Orphans.find(files, this::current);
    if (replacedUnreadable) {
      reportLeftInPlace(jobId, found);
      return 0;
    }
    for (Orphans.Orphan o : found.orphans()) {
      LOG.info("beton write {}: deleting {} ({} bytes): {}", jobId, o.path(), o.bytes(), o.reason());
    }
    return Orphans.delete(files, found);
  }

  /**
   * After an overwrite of a dataset whose manifest could not be read: says which files no manifest lists are left in
   * place (the old dataset's, most likely, but nothing proves it) and how to delete them.
   */
  private void reportLeftInPlace(String jobId, Orphans.Findings found) {
    if (found.orphans().isEmpty()) {
      return;
    }
    LOG.warn("beton write {}: replaced the dataset at {}, whose manifest could not be read, and left {} file(s) ({}"
        + " bytes) no manifest lists in place, e.g. {}: most likely the old dataset's, but nothing proves it. beton gc"
        + " {} lists them and beton gc {} --delete deletes them (as will the next write's cleanup)", jobId, dir,
        found.orphans().size(), found.orphanBytes(), found.orphans().get(0).path(), dir, dir);
  }

  /**
   * Every shard the tasks committed must still be there: a manifest never lists a missing shard. (A write that
   * takes a directory of leftovers for its own deletes what it finds there; if that was another job still
   * writing its first version, that job fails here instead of publishing holes.)
   */
  private void requirePresent(List<BetonCommitMessage> messages) throws IOException {
    Set<String> present = new HashSet<>();
    for (FileStatus f : fs.listStatus(dir)) {
      present.add(f.getPath().getName());
    }
    for (BetonCommitMessage m : messages) {
      for (ShardEntry s : m.shards()) {
        if (!present.contains(s.path())) {
          throw new IOException("Shard " + s.path() + " of partition " + m.partition() + " is gone from " + dir
              + " before its manifest was published (did another write to this path delete it?); nothing was"
              + " published");
        }
      }
    }
  }

  /** Deletes every file of this job (by its id in the name) that is not kept: shards, then quarantine files. */
  void deleteUnlisted(String jobId, Set<String> keep) throws IOException {
    deleteUnlisted(jobId, keep, Set.of(), false);
  }

  /**
   * Deletes this job's shards not in {@code keepShards} and quarantine files not in {@code keepQuarantine};
   * with {@code otherJobsQuarantine} also every other job's quarantine file (they describe a replaced dataset).
   */
  private void deleteUnlisted(String jobId, Set<String> keepShards, Set<String> keepQuarantine,
      boolean otherJobsQuarantine) throws IOException {
    if (!fs.exists(dir)) {
      return;
    }
    String mark = "-" + jobId + "-";
    for (FileStatus f : fs.listStatus(dir)) {
      String name = f.getPath().getName();
      if (f.isFile() && name.startsWith("part-") && name.contains(mark) && !keepShards.contains(name)) {
        fs.delete(f.getPath(), false);
      }
    }
    Path quarantineDir = new Path(dir, QuarantineLog.DIR);
    if (!fs.exists(quarantineDir)) {
      return;
    }
    for (FileStatus f : fs.listStatus(quarantineDir)) {
      String name = f.getPath().getName();
      boolean ours = name.contains(mark);
      if (f.isFile() && ((ours && !keepQuarantine.contains(name)) || (!ours && otherJobsQuarantine))) {
        fs.delete(f.getPath(), false);
      }
    }
    if (fs.listStatus(quarantineDir).length == 0) {
      fs.delete(quarantineDir, false);
    }
  }

  private void publish(DatasetManifest manifest) throws IOException {
    byte[] json = manifest.toJson().getBytes(StandardCharsets.UTF_8);
    Path target = new Path(dir, DatasetManifest.FILE_NAME);
    String scheme = fs.getUri().getScheme() == null ? "" : fs.getUri().getScheme().toLowerCase(Locale.ROOT);
    if (OBJECT_STORES.contains(scheme)) {
      try (OutputStream out = fs.create(target, true)) {
        out.write(json);
      }
      return;
    }
    // Hadoop's local file system keeps a .crc beside each file and renames the two one after the other: a
    // reader between the renames would see a checksum error. There the manifest is written without one.
    FileSystem writer = fs instanceof ChecksumFileSystem checksummed ? checksummed.getRawFileSystem() : fs;
    Path tmp = new Path(dir, "._manifest-" + UUID.randomUUID() + ".tmp");
    try (OutputStream out = RawFileSystems.create(writer, tmp, false)) {
      out.write(json);
    }
    if (writer != fs) {
      writer.delete(new Path(dir, "." + DatasetManifest.FILE_NAME + ".crc"), false);
      if (!writer.rename(tmp, target)) {
        writer.delete(tmp, false);
        throw new IOException("Could not move the new manifest into place at " + target);
      }
      return;
    }
    FileContext.getFileContext(fs.getUri(), fs.getConf()).rename(tmp, target, Options.Rename.OVERWRITE);
  }
}
