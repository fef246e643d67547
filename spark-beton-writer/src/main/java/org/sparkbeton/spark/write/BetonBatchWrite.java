package org.sparkbeton.spark.write;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.SerializableConfiguration;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.ManifestField;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job: executors write attempt-unique shard files; Spark's commit coordinator lets one attempt
 * per partition commit; {@link #commit} publishes the manifest (the only definition of the dataset)
 * and deletes the files of attempts that did not commit, then the files dead jobs left in the directory
 * ({@link org.sparkbeton.format.dataset.Orphans}); {@link #abort} deletes everything this job wrote, leaving the
 * previous dataset as it was. From before the first task until it ends, the job keeps a {@link JobMarker} in the
 * directory.
 */
final class BetonBatchWrite implements BatchWrite {
  private static final Logger LOG = LoggerFactory.getLogger(BetonBatchWrite.class);

  private final String dir;
  private final StructType schema;
  private final BetonWriteConf conf;
  private final Configuration hadoopConf;
  private final CommitMode mode;
  private final String jobId = UUID.randomUUID().toString().substring(0, 8);
  private final List<BetonField> fields;
  /** The Spark type of each field's column, by field name, for messages. */
  private final java.util.Map<String, String> sparkTypes = new java.util.HashMap<>();
  /** The recipe entries of the columns' Spark types ({@link WrittenColumnTypes}). */
  private final java.util.Map<String, String> columnTypes;
  private final AtomicLong committedSamples = new AtomicLong();
  private volatile DatasetManifest published;
  /** This job's marker in the dataset directory, from the moment tasks may run until the job ends. */
  private volatile JobMarker marker;

  BetonBatchWrite(String dir, StructType schema, BetonWriteConf conf, Configuration hadoopConf, CommitMode mode) {
    this.dir = dir;
    this.schema = schema;
    this.conf = conf;
    this.hadoopConf = hadoopConf;
    this.mode = mode;
    List<ColumnPlan> plans = BetonSchemaMapping.plan(schema, conf);
    this.fields = plans.stream().map(ColumnPlan::field).toList();
    plans.forEach(p -> sparkTypes.put(p.field().name(), p.type().simpleString()));
    this.columnTypes = WrittenColumnTypes.of(plans);
    BetonSchemaMapping.describedImagesNotWrittenAsImages(schema, conf).forEach((image, parts) -> LOG.warn(
        "Columns {} describe the image a beton read gave in column '{}', which this write does not store as an"
            + " image (a computed value replaced it, and option {} does not name it): they are stored as fields of"
            + " their own, describing an image the dataset does not hold. Drop them, or name '{}' in {} to store it"
            + " as an image", parts, image, BetonWriteOptions.IMAGE_COLUMNS, image, BetonWriteOptions.IMAGE_COLUMNS));
  }

  @Override
  public DataWriterFactory createBatchWriterFactory(PhysicalWriteInfo info) {
    SparkContext sc = SparkSession.active().sparkContext();
    TaskResultSerialization.check(sc.env().serializer(), sc.conf()); // before a task runs, or files exist
    Path path = new Path(dir);
    requireAppendable(path);
    // before any task writes a file: another job's cleanup (or beton gc) leaves the files of a marked job alone
    try {
      marker = JobMarker.start(path.getFileSystem(hadoopConf), path, jobId);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write the job marker of write " + jobId + " in " + dir, e);
    }
    // broadcast: each executor deserialises the Hadoop configuration (hundreds of entries) once, not every task (it
    // was 1.1% of the task threads' time in the writer's benchmark, 8 tasks on 2 cores), as Spark's own file scans do
    Broadcast<SerializableConfiguration> broadcastConf = JavaSparkContext.fromSparkContext(sc)
        .broadcast(new SerializableConfiguration(hadoopConf));
    return new BetonDataWriterFactory(dir, jobId, schema, conf, broadcastConf);
  }

  /**
   * An append (each micro-batch of a streaming write too) fails here, before any task runs, when its fields are not
   * the dataset's ({@link AppendCompatibility}) or the dataset's manifest cannot be read: the check at publishing
   * would refuse it only after every row was written.
   */
  private void requireAppendable(Path path) {
    if (mode != CommitMode.APPEND) {
      return;
    }
    DatasetManifest existing;
    try {
      existing = DatasetPublisher.read(path.getFileSystem(hadoopConf), path);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the manifest of " + dir + " to append to it", e);
    }
    if (existing != null) {
      AppendCompatibility.require(dir, existing, fields.stream().map(ManifestField::of).toList(), sparkTypes);
      AppendCompatibility.requireSameUnits(dir, existing, columnTypes);
    }
  }

  /**
   * Says on the driver, where a job's user reads, that tasks coded images with the pure-Java codec: each executor
   * that fell back said why in its own log only, and the manifest's recipe records it, so a job ran about 3x slower
   * without a word where it was watched.
   */
  private void warnOfJavaCodec(java.util.Set<String> codecs) {
    boolean images = fields.stream().anyMatch(f -> f.typeId() == org.sparkbeton.format.FieldTypes.RGB_IMAGE);
    java.util.List<String> java = codecs.stream()
        .filter(c -> !org.sparkbeton.codec.jpeg.JpegCodecs.namesNativeCodec(c)).toList();
    if (images && !java.isEmpty()) {
      LOG.warn("beton write {}: {} of its tasks decoded and encoded images with {}, about 3x slower than"
          + " libjpeg-turbo: the native codec did not load on their executors (each executor's log says why: a"
          + " noexec or read-only java.io.tmpdir, an unsupported platform); the manifest's jpeg_codec records it",
          jobId, java.size() == codecs.size() ? "all" : "some", String.join("; ", java));
    }
  }

  @Override
  public boolean useCommitCoordinator() {
    return true;
  }

  @Override
  public void onDataWriterCommit(WriterCommitMessage message) {
    if (message instanceof BetonCommitMessage m) {
      long total = committedSamples.addAndGet(m.samples());
      LOG.info("beton write {}: partition {} committed {} samples in {} shard(s); {} samples so far", jobId,
          m.partition(), m.samples(), m.shards().size(), total);
    }
  }

  @Override
  public void commit(WriterCommitMessage[] messages) {
    commit(messages, null);
  }

  /**
   * Publishes the committed attempts' shards; for a micro-batch of a streaming write ({@code batch}, null for a batch
   * write) nothing when the dataset already holds that batch.
   */
  void commit(WriterCommitMessage[] messages, StreamBatch batch) {
    List<BetonCommitMessage> ours = new ArrayList<>();
    for (WriterCommitMessage m : messages) {
      if (m instanceof BetonCommitMessage b) {
        ours.add(b);
      }
    }
    try {
      long quarantined = ours.stream().mapToLong(BetonCommitMessage::quarantined).sum();
      java.util.Map<String, String> recipe = recipe();
      // what the executors decoded and encoded with (a cluster node without the native library falls back)
      java.util.Set<String> codecs = new java.util.TreeSet<>();
      ours.forEach(m -> codecs.add(m.codec()));
      if (!codecs.isEmpty()) {
        recipe.put("jpeg_codec", String.join("; ", codecs));
      }
      warnOfJavaCodec(codecs);
      if (quarantined > 0) {
        recipe.put("quarantined_rows", quarantined + " rows of job " + jobId + " left out, listed under "
            + QuarantineLog.DIR + "/");
      }
      DatasetPublisher publisher = publisher();
      published = publisher.commit(jobId, fields, ours, mode, recipe, batch);
      if (published == null) {
        if (batch != null) {
          LOG.info("beton write {}: batch {} of streaming query {} is in {} already; published nothing", jobId,
              batch.epoch(), batch.queryId(), dir);
        }
        return;
      }
      LOG.info("beton write {}: published {} with {} samples in {} shards{}", jobId, dir, published.totalSamples(),
          published.shards().size(), quarantined > 0 ? "; " + quarantined + " rows quarantined under "
              + dir + "/" + QuarantineLog.DIR : "");
      List<org.sparkbeton.format.dataset.ShardEntry> written = new ArrayList<>();
      ours.forEach(m -> written.addAll(m.shards()));
      ShardSizeAdvice.of(written).ifPresent(advice -> LOG.warn("beton write {}: {}", jobId, advice));
      try {
        publisher.deleteOrphans(jobId);
      } catch (IOException | RuntimeException e) {
        // the dataset is published: files of dead jobs left behind are for a later write or beton gc
        LOG.warn("beton write {}: could not delete the files of dead jobs in {}", jobId, dir, e);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Publishing the manifest of " + dir + " failed: " + e.getMessage(), e);
    } finally {
      closeMarker();
    }
  }

  private void closeMarker() {
    JobMarker m = marker;
    marker = null;
    if (m != null) {
      try {
        m.close();
      } catch (IOException e) {
        LOG.warn("beton write {}: could not delete its job marker in {}; it goes stale in {}", jobId, dir,
            org.sparkbeton.format.dataset.DatasetFiles.STALE_AFTER, e);
      }
    }
  }

  @Override
  public void abort(WriterCommitMessage[] messages) {
    try {
      Path path = new Path(dir);
      FileSystem fs = path.getFileSystem(hadoopConf);
      // not publisher(), which creates the directory: a failed first write leaves no more than the tasks made
      if (fs.exists(path)) {
        new DatasetPublisher(fs, path, conf.manifestLockTimeoutMillis).deleteUnlisted(jobId, Set.of());
      }
    } catch (IOException e) {
      LOG.warn("beton write {}: could not delete every file of the aborted job in {}", jobId, dir, e);
    } finally {
      closeMarker();
    }
  }

  /** The options that shaped the data, the libraries that did the work, and the columns' Spark types. */
  private java.util.Map<String, String> recipe() {
    java.util.Map<String, String> r = new java.util.LinkedHashMap<>(conf.recipe());
    r.put("jpeg_codec", org.sparkbeton.codec.jpeg.JpegCodecs.description() + " (driver's; no task ran)");
    r.put("spark_version", org.apache.spark.package$.MODULE$.SPARK_VERSION());
    r.put("java_version", System.getProperty("java.version"));
    r.put("job_id", jobId);
    r.putAll(columnTypes);
    return r;
  }

  private DatasetPublisher publisher() throws IOException {
    Path path = new Path(dir);
    FileSystem fs = path.getFileSystem(hadoopConf);
    fs.mkdirs(path);
    return new DatasetPublisher(fs, path, conf.manifestLockTimeoutMillis);
  }
}
