package org.sparkbeton.spark.write;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.StructType;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.write.SampleTooLargeException;

/**
 * One task attempt: rows → {@link RowEncoder} → {@link ShardWriter}. Where the rows name image files on a remote file
 * system, the last {@link BetonWriteConf#imageReadAhead} rows wait here while {@link ImageReadAhead} reads their files,
 * and are encoded in their order: the oldest once the window is full, all of them when Spark reads the task's metrics
 * (every 100 rows and after the last: the metrics count every row given) and at commit.
 */
final class BetonDataWriter implements DataWriter<InternalRow> {
  private final int partition;
  private final long taskAttempt;
  private final RowEncoder rows;
  private final ShardWriter shards;
  private final QuarantineLog quarantine;
  private final BadRowNote badRowNote;
  private final org.apache.hadoop.conf.Configuration hadoopConf;
  private final int readAheadDepth;
  private boolean readAheadDecided;
  private ImageReadAhead readAhead; // null: every row encoded as it comes
  private InternalRow[] waiting; // the rows whose files are being read ahead, a ring from head
  private long[] waitingIndex;
  private int head;
  private int count;
  private long rowIndex;
  private long samples;
  private List<ShardEntry> committed = List.of();

  BetonDataWriter(FileSystem fs, Path dir, String jobId, int partition, long taskAttempt, StructType schema,
      BetonWriteConf conf) {
    this.partition = partition;
    this.badRowNote = new BadRowNote(fs, dir, jobId, partition);
    this.taskAttempt = taskAttempt;
    String prefix = shardPrefix(jobId, partition, taskAttempt);
    this.quarantine = new QuarantineLog(fs, dir, prefix);
    this.hadoopConf = fs.getConf();
    this.rows = new RowEncoder(schema, conf, partition, quarantine, hadoopConf);
    this.readAheadDepth = conf.imageReadAhead;
    this.readAheadDecided = rows.pathOrdinal() < 0 || readAheadDepth == 0;
    List<BetonField> fields = BetonSchemaMapping.fields(schema, conf);
    this.shards = new ShardWriter(fs, dir, prefix, fields, conf);
  }

  /**
   * Attempt-unique: two attempts of one partition never share a file name. ASCII digits whatever the JVM's locale
   * (under fa or ar, {@code %d} writes Persian or Arabic-Indic ones), as the names are read back by pattern.
   */
  static String shardPrefix(String jobId, int partition, long taskAttempt) {
    return String.format(Locale.ROOT, "part-%05d-%s-a%d", partition, jobId, taskAttempt);
  }

  @Override
  public void write(InternalRow row) throws IOException {
    try {
      accept(row);
    } catch (BadImageException | BadValueException e) {
      throw noted(e);
    }
  }

  private void accept(InternalRow row) throws IOException {
    long index = rowIndex++;
    int p = rows.pathOrdinal();
    if (!readAheadDecided && !row.isNullAt(p)) {
      decideReadAhead(row.getUTF8String(p).toString());
    }
    if (readAhead == null) {
      store(row, index, rows.encode(row, index));
      return;
    }
    int k = (head + count) % waiting.length;
    InternalRow copy = row.copy(); // Spark reuses the row it passes
    waiting[k] = copy;
    waitingIndex[k] = index;
    count++;
    if (!copy.isNullAt(p)) {
      readAhead.start(k, copy.getUTF8String(p).toString());
    }
    if (count == waiting.length) {
      encodeOldest();
    }
  }

  /**
   * Reads ahead when the first path a row names is on a file system other than the local one (a local file is read in
   * microseconds from the page cache: the rows go through as they come). A path whose file system cannot be resolved
   * decides nothing: its row fails or is refused in place, as without read-ahead.
   */
  private void decideReadAhead(String location) {
    if (location.isBlank()) {
      return;
    }
    try {
      FileSystem fs = RawFileSystems.withoutChecksums(new Path(location).getFileSystem(hadoopConf));
      readAheadDecided = true;
      if (!(fs instanceof org.apache.hadoop.fs.RawLocalFileSystem)) {
        readAhead = new ImageReadAhead(hadoopConf, readAheadDepth, partition);
        waiting = new InternalRow[readAheadDepth];
        waitingIndex = new long[readAheadDepth];
      }
    } catch (IOException | IllegalArgumentException e) {
      // an unknown scheme or a malformed path: the read in place names it for this row
    }
  }

  /** Whether this task reads its image files ahead (decided at the first path a row names). */
  boolean readsAhead() {
    return readAhead != null;
  }

  /** Encodes and stores the oldest waiting row, with the file read ahead for it. */
  private void encodeOldest() throws IOException {
    int k = head;
    InternalRow row = waiting[k];
    long index = waitingIndex[k];
    waiting[k] = null;
    head = (head + 1) % waiting.length;
    count--;
    try {
      store(row, index, rows.encode(row, index, readAhead.slot(k)));
    } finally {
      readAhead.settle(k);
    }
  }

  /** Encodes and stores every waiting row, oldest first. */
  private void encodeWaiting() throws IOException {
    try {
      while (count > 0) {
        encodeOldest();
      }
    } catch (BadImageException | BadValueException e) {
      throw noted(e);
    }
  }

  /**
   * {@code bad}, noted for the partition's retries before Spark hears of the failure and starts one; not where the
   * task was killed already (its job is cancelled, and the job's end may have deleted its files: no retry comes).
   */
  private <E extends RuntimeException & BadRow> E noted(E bad) {
    TaskContext task = TaskContext.get();
    return task != null && task.isInterrupted() ? bad : badRowNote.record(bad);
  }

  /** Writes one encoded row ({@code values} null: the row was skipped). */
  private void store(InternalRow row, long index, Object[] values) throws IOException {
    if (values == null) {
      return;
    }
    try {
      shards.write(values);
    } catch (SampleTooLargeException e) {
      // nothing of the sample was written: its image is bad input under the policy (with no image, a bad value)
      rows.refuseTooLarge(row, index, e);
      return;
    }
    samples++;
  }

  @Override
  public WriterCommitMessage commit() throws IOException {
    encodeWaiting();
    committed = shards.finish();
    String quarantineFile = quarantine.finish();
    // Spark leaves a DataSource V2 task's output metrics (the UI's "Output" column) to the source
    TaskContext task = TaskContext.get();
    if (task != null) {
      task.taskMetrics().outputMetrics().setRecordsWritten(samples);
      task.taskMetrics().outputMetrics().setBytesWritten(committed.stream().mapToLong(ShardEntry::bytes).sum());
    }
    TaskCounters counted = rows.counters();
    return new BetonCommitMessage(partition, taskAttempt, committed, samples, counted.skippedNulls(),
        counted.skippedBadImages(),
        quarantineFile, quarantine.records(), org.sparkbeton.codec.jpeg.JpegCodecs.description());
  }

  @Override
  public void abort() throws IOException {
    try {
      shards.abort();
    } finally {
      quarantine.abort();
    }
  }

  @Override
  public void close() throws IOException {
    if (readAhead != null) {
      readAhead.close();
    }
    try {
      shards.close();
    } finally {
      try {
        quarantine.close();
      } finally {
        rows.close();
      }
    }
  }

  @Override
  public CustomTaskMetric[] currentMetricsValues() {
    // Spark reads these every 100 rows and once after the last, before commit(): the rows waiting for their files are
    // stored first, so that the last reading counts every row (and the one a bad file fails names its row now)
    try {
      encodeWaiting();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    // progress so far, exact for finished shards
    long bytes = committed.isEmpty() ? shards.bytesSoFar() : committed.stream().mapToLong(ShardEntry::bytes).sum();
    int shardCount = committed.isEmpty() ? shards.shardsSoFar() : committed.size();
    TaskCounters counted = rows.counters();
    return new CustomTaskMetric[] {
        BetonWriteMetrics.task(BetonWriteMetrics.SAMPLES, samples),
        BetonWriteMetrics.task(BetonWriteMetrics.SHARDS, shardCount),
        BetonWriteMetrics.task(BetonWriteMetrics.BYTES, bytes),
        BetonWriteMetrics.task(BetonWriteMetrics.PASSED_THROUGH, counted.passedThrough()),
        BetonWriteMetrics.task(BetonWriteMetrics.REENCODED, counted.reencoded()),
        BetonWriteMetrics.task(BetonWriteMetrics.SKIPPED, counted.skippedNulls() + counted.skippedBadImages()),
        BetonWriteMetrics.task(BetonWriteMetrics.QUARANTINED, quarantine.records()),
        BetonWriteMetrics.task(BetonWriteMetrics.BAD_IMAGES, counted.skippedBadImages()),
        BetonWriteMetrics.task(BetonWriteMetrics.IMAGE_BYTES_IN, counted.imageBytesIn()),
        BetonWriteMetrics.task(BetonWriteMetrics.DECODE_MS, counted.decodeNanos() / 1_000_000),
        BetonWriteMetrics.task(BetonWriteMetrics.RESIZE_MS, counted.resizeNanos() / 1_000_000),
        BetonWriteMetrics.task(BetonWriteMetrics.ENCODE_MS, counted.encodeNanos() / 1_000_000)};
  }
}
