package org.sparkbeton.spark.write;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.IntStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.util.SerializableConfiguration;
import org.sparkbeton.format.dataset.DatasetFiles;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.ShardCompaction;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.options.OptionNames;

/**
 * Compacts a dataset in place: runs of small consecutive shards (a streaming write's micro-batches, many small
 * appends) merged into shards of up to {@code targetShardSize} bytes, the samples in their order, nothing decoded
 * ({@link ShardCompaction}). One Spark task per merged shard copies its run to the executor's local disk, merges it
 * and writes the result back as an attempt-unique shard; the driver publishes under the manifest lock, as a write
 * does. Readers see the dataset before or after, whole; streams reading it go on where they were (their positions
 * count samples, which a compaction keeps), and the shards replaced stay on disk for {@link #KEEP_REPLACED_FOR} (an
 * hour by default) for readers that planned them. Appends may run meanwhile: a run that changed under the compaction (the dataset
 * replaced, compacted by another job) is left as it is.
 *
 * <pre>{@code
 * BetonCompaction.Result r = BetonCompaction.compact(spark, "hdfs:///datasets/photos");
 * BetonCompaction.compact(spark, path, Map.of("targetShardSize", "256M"));
 * }</pre>
 */
public final class BetonCompaction {
  /** The size a merged shard stays within: {@code 512M}, {@code 1G}, bytes. Default 1 GiB, as writes' shards. */
  public static final String TARGET_SHARD_SIZE = BetonWriteOptions.TARGET_SHARD_SIZE;
  /** Seconds to wait for the manifest lock. Default 120, as writes. */
  public static final String MANIFEST_LOCK_TIMEOUT = BetonWriteOptions.MANIFEST_LOCK_TIMEOUT;
  /**
   * How long the shards replaced stay on disk for reads of those files planned before the compaction: {@code 30m},
   * {@code 12h}, {@code 7d}. Default {@code 1h}. This project's readers (a query's tasks, a stream's batch, the
   * training loader) find the samples of a deleted shard in the shard that replaced it; readers of the files
   * themselves (a glob of them, FFCV's loader given one) need them for as long as they run.
   */
  public static final String KEEP_REPLACED_FOR = BetonWriteOptions.KEEP_REPLACED_FOR;

  private static final OptionNames NAMES = OptionNames.of("BetonCompaction.compact",
      List.of(TARGET_SHARD_SIZE, KEEP_REPLACED_FOR, MANIFEST_LOCK_TIMEOUT), Set.of(), true);

  private BetonCompaction() {}

  /**
   * What a compaction did: the shards of the manifest it planned from, and as many after the merge (shards appended
   * meanwhile not counted), the runs merged and their samples and bytes. {@code groupsLeftAsTheyWere} counts planned
   * runs the dataset no longer listed as planned when it published.
   */
  public record Result(String path, int shardsBefore, int shardsAfter, int groupsMerged, int groupsLeftAsTheyWere,
      long samplesMoved, long bytesMoved) {
  }

  /** Compacts the dataset at {@code path} into shards of up to 1 GiB. */
  public static Result compact(SparkSession spark, String path) throws IOException {
    return compact(spark, path, Map.of());
  }

  /**
   * Compacts the dataset at {@code path} with {@code options}: {@link #TARGET_SHARD_SIZE}, {@link #KEEP_REPLACED_FOR},
   * {@link #MANIFEST_LOCK_TIMEOUT}, and Hadoop settings (names with a dot, as for reads and writes). An unknown option
   * is refused naming the nearest; a path without a dataset is refused.
   */
  public static Result compact(SparkSession spark, String path, Map<String, String> options) throws IOException {
    Settings settings = Settings.parse(spark, options);
    return compact(spark, path, settings.target, settings.keepMillis, settings.lockTimeoutMillis, settings.conf);
  }

  /**
   * What {@link #compact(SparkSession, String, Map)} with the same options would do to the dataset at {@code path}
   * as it is now, without doing it: nothing is read but the manifest, nothing is written. {@code groupsMerged} is the
   * runs it would merge, {@code samplesMoved} and {@code bytesMoved} what they hold ({@code groupsLeftAsTheyWere} 0).
   */
  public static Result plan(SparkSession spark, String path, Map<String, String> options) throws IOException {
    Settings settings = Settings.parse(spark, options);
    Path dir = new Path(BetonWriteBuilder.qualified(path, settings.conf));
    DatasetManifest manifest = read(dir.getFileSystem(settings.conf), dir, path);
    List<ShardCompaction.Group> groups = ShardCompaction.plan(manifest.shards(), settings.target);
    return result(path, manifest.shards().size(), groups, groups.size());
  }

  /** The options of a compaction, parsed: the shard size and the lock's wait as a write parses them. */
  private record Settings(long target, long keepMillis, long lockTimeoutMillis, Configuration conf) {
    static Settings parse(SparkSession spark, Map<String, String> options) {
      NAMES.check(options.keySet());
      long keepMillis = KEEP_REPLACED_MILLIS;
      Map<String, String> writeOptions = new HashMap<>();
      for (Map.Entry<String, String> o : options.entrySet()) {
        if (o.getKey().equalsIgnoreCase(KEEP_REPLACED_FOR)) {
          keepMillis = duration(KEEP_REPLACED_FOR, o.getValue());
        } else {
          writeOptions.put(o.getKey(), o.getValue());
        }
      }
      // the shard size and the lock's wait are a write's options: parsed as a write parses them, with its defaults
      BetonWriteConf write = BetonWriteConf.parse(writeOptions);
      Configuration conf = new Configuration(spark.sessionState().newHadoopConf());
      options.forEach((k, v) -> {
        if (k.contains(".")) {
          conf.set(k, v);
        }
      });
      return new Settings(write.targetShardSize, keepMillis, write.manifestLockTimeoutMillis, conf);
    }
  }

  /** What merging {@code merged} (of {@code planned} runs) does to a dataset of {@code before} shards. */
  private static Result result(String path, int before, List<ShardCompaction.Group> merged, int planned) {
    int replaced = merged.stream().mapToInt(g -> g.shards().size()).sum();
    return new Result(path, before, before - replaced + merged.size(), merged.size(), planned - merged.size(),
        merged.stream().mapToLong(ShardCompaction.Group::samples).sum(),
        merged.stream().mapToLong(ShardCompaction.Group::bytes).sum());
  }

  /** The dataset's manifest; a path without one is refused. */
  private static DatasetManifest read(FileSystem fs, Path dir, String path) throws IOException {
    DatasetManifest manifest = DatasetPublisher.read(fs, dir);
    if (manifest == null) {
      throw new IllegalArgumentException("No dataset at " + path + ": it has no " + DatasetManifest.FILE_NAME
          + " (BetonCompaction.compact merges the shards of a dataset a write published)");
    }
    return manifest;
  }

  /** The default time the shards replaced stay: an hour. */
  static final long KEEP_REPLACED_MILLIS = 3_600_000;

  /** {@link #compact(SparkSession, String, Map)} with its settings parsed, and the Hadoop configuration to use. */
  static Result compact(SparkSession spark, String path, long target, long keepMillis, long lockTimeoutMillis,
      Configuration conf) throws IOException {
    // qualified here, on the driver, as a write's path is (BetonWriteBuilder.qualified): the tasks resolve it in
    // executors, whose working directories differ
    Path dir = new Path(BetonWriteBuilder.qualified(path, conf));
    FileSystem fs = dir.getFileSystem(conf);
    DatasetManifest manifest = read(fs, dir, path);
    List<ShardCompaction.Group> groups = ShardCompaction.plan(manifest.shards(), target);
    if (groups.isEmpty()) {
      return new Result(path, manifest.shards().size(), manifest.shards().size(), 0, 0, 0, 0);
    }
    return mergeAndPublish(spark, path, manifest, groups, keepMillis, lockTimeoutMillis, conf);
  }

  /**
   * Merges the runs {@code groups} planned on {@code manifest} (the dataset's when planned; it may have changed
   * since) and publishes those still listed as planned. A run one of whose shards is gone when its task reads it was
   * changed under the compaction (another one merged it and kept it for no time) and is left as it is; a shard gone
   * that the manifest still lists is a damaged dataset, refused.
   */
  static Result mergeAndPublish(SparkSession spark, String path, DatasetManifest manifest,
      List<ShardCompaction.Group> groups, long keepMillis, long lockTimeoutMillis, Configuration conf)
      throws IOException {
    Path dir = new Path(BetonWriteBuilder.qualified(path, conf));
    FileSystem fs = dir.getFileSystem(conf);
    int before = manifest.shards().size();
    String datasetId = manifest.recipe().get(DatasetFiles.DATASET_ID); // null: written before identities
    String jobId = UUID.randomUUID().toString().substring(0, 8);
    DatasetPublisher publisher = new DatasetPublisher(fs, dir, lockTimeoutMillis);
    List<ShardCompaction.Group> published;
    try (JobMarker marker = JobMarker.start(fs, dir, jobId)) {
      JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
      TaskResultSerialization.check(jsc.sc().env().serializer(), jsc.getConf()); // as a write: before any task runs
      Broadcast<SerializableConfiguration> hadoop = jsc.broadcast(new SerializableConfiguration(conf));
      jsc.setJobDescription("beton compaction of " + path + ": " + groups.size() + " merged shards");
      List<ShardCompaction.Group> mergedGroups = new ArrayList<>();
      List<ShardEntry> merged = new ArrayList<>();
      try {
        for (BetonCommitMessage m : jsc.parallelize(IntStream.range(0, groups.size()).boxed().toList(), groups.size())
            .map(new MergeGroup(groups, dir.toString(), jobId, hadoop)).collect()) {
          if (m.shards().isEmpty()) { // a shard of the run was gone
            requireChanged(fs, dir, path, groups.get(m.partition()));
          } else {
            mergedGroups.add(groups.get(m.partition()));
            merged.add(m.shards().get(0));
          }
        }
      } finally {
        jsc.setJobDescription(null);
      }
      published = mergedGroups.isEmpty() ? List.of()
          : publisher.commitCompaction(jobId, datasetId, mergedGroups, merged, keepMillis);
    } catch (Exception e) { // a failed task's SparkException included (checked, undeclared); rethrown as it came
      // the marker is gone: the cleanup takes this job's merged shards that no manifest lists, and none that one does
      // (a merge a damaged page refused mid-way left its part-written shard, until a later write or gc, while this
      // caught no SparkException)
      try {
        publisher.deleteOrphans(jobId);
      } catch (IOException | RuntimeException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
    publisher.deleteOrphans(jobId);
    return result(path, before, published, groups.size());
  }

  /**
   * Refuses a run whose task found one of its shards gone where the manifest as it is now still lists it: the file
   * was deleted by hand or lost, not replaced by another compaction, and running again would meet the same.
   */
  private static void requireChanged(FileSystem fs, Path dir, String path, ShardCompaction.Group group)
      throws IOException {
    DatasetManifest now = DatasetPublisher.read(fs, dir);
    if (now == null) {
      return; // the dataset itself is gone: changed
    }
    java.util.Set<String> listed = new java.util.HashSet<>();
    now.shards().forEach(e -> listed.add(e.path()));
    for (ShardEntry e : group.shards()) {
      if (listed.contains(e.path()) && !fs.exists(new Path(dir, e.path()))) {
        throw new IOException("Cannot compact " + path + ": its shard " + e.path() + ", which its manifest lists, is"
            + " missing (deleted by hand, or lost); nothing was merged. beton verify " + path + " lists every missing"
            + " shard");
      }
    }
  }

  /** A duration with its unit, as Spark's settings take them ({@code 90s}, {@code 30m}, {@code 12h}, {@code 7d}). */
  static long duration(String option, String given) {
    String text = given.trim();
    if (!text.isEmpty() && Character.isLetter(text.charAt(text.length() - 1))) {
      try {
        long millis = org.apache.spark.network.util.JavaUtils.timeStringAsMs(text);
        if (millis >= 0) { // a negative one would record a keep-until before the compaction itself
          return millis;
        }
      } catch (NumberFormatException e) {
        // refused below
      }
    }
    throw new IllegalArgumentException("Option " + option + " must be a duration of 0 or more with its unit (0s, 90s,"
        + " 30m, 12h, 7d), got '" + given + "'");
  }


  /**
   * One task: the run's shards copied to a local directory in order, merged, and the result written into the dataset
   * directory as {@code part-<first shard's index>-<job>-a<attempt>-000.beton} (a dataset on local disk is merged in
   * place, without the copies); returns the shard's manifest entry as a write task's commit message, which Spark's
   * serializer is known to carry ({@link TaskResultSerialization}).
   */
  private record MergeGroup(List<ShardCompaction.Group> groups, String dir, String jobId,
      Broadcast<SerializableConfiguration> hadoop) implements Function<Integer, BetonCommitMessage> {
    @Override
    public BetonCommitMessage call(Integer index) throws IOException {
      try {
        return merge(index);
      } catch (java.io.FileNotFoundException | java.nio.file.NoSuchFileException gone) {
        // a shard of the run was deleted since the plan: another compaction merged it and kept it for no time (or an
        // overwrite replaced the dataset). The run changed under this one, which leaves it as it is, as the commit
        // does a run it finds changed; the task failed, and with it the job, before.
        int attempt = TaskContext.get() == null ? 0 : TaskContext.get().attemptNumber();
        return new BetonCommitMessage(index, attempt, List.of(), 0, 0, 0, null, 0, null);
      }
    }

    private BetonCommitMessage merge(int index) throws IOException {
      ShardCompaction.Group group = groups.get(index);
      Path datasetDir = new Path(dir);
      FileSystem fs = datasetDir.getFileSystem(hadoop.value().value());
      int attempt = TaskContext.get() == null ? 0 : TaskContext.get().attemptNumber();
      String name = String.format(Locale.ROOT, "part-%05d-%s-a%d-000.beton", group.first(), jobId, attempt);
      if (fs instanceof LocalFileSystem localFs) {
        // the files are on this machine already: merged where they are, into the dataset directory, no copy
        List<java.nio.file.Path> files = new ArrayList<>();
        for (ShardEntry shard : group.shards()) {
          files.add(localFs.pathToFile(new Path(datasetDir, shard.path())).toPath());
        }
        ShardEntry entry = ShardCompaction.merge(group, files, localFs.pathToFile(new Path(datasetDir, name)).toPath(),
            name);
        return message(index, attempt, entry);
      }
      java.nio.file.Path local = Files.createTempDirectory("beton-compaction-");
      try {
        List<java.nio.file.Path> files = new ArrayList<>();
        for (int i = 0; i < group.shards().size(); i++) {
          java.nio.file.Path copy = local.resolve(i + ".beton");
          try (InputStream in = fs.open(new Path(datasetDir, group.shards().get(i).path()))) {
            Files.copy(in, copy);
          }
          files.add(copy);
        }
        java.nio.file.Path out = local.resolve("merged.beton");
        ShardEntry entry = ShardCompaction.merge(group, files, out, name);
        for (java.nio.file.Path f : files) {
          Files.delete(f); // the run's copies before the upload: local disk holds one run and its merge at most
        }
        try (OutputStream o = RawFileSystems.create(RawFileSystems.withoutChecksums(fs), new Path(datasetDir, name),
            true)) {
          Files.copy(out, o);
        }
        return message(index, attempt, entry);
      } finally {
        deleteTree(local);
      }
    }

    private static BetonCommitMessage message(int index, int attempt, ShardEntry entry) {
      return new BetonCommitMessage(index, attempt, List.of(entry), entry.samples(), 0, 0, null, 0, null);
    }

    /** Best effort: a failure here must not hide the task's own. */
    private static void deleteTree(java.nio.file.Path dir) {
      try (var files = Files.list(dir)) {
        for (java.nio.file.Path f : files.toList()) {
          Files.deleteIfExists(f);
        }
        Files.deleteIfExists(dir);
      } catch (IOException e) {
        // the executor's temporary directory is cleaned with the executor
      }
    }
  }
}
