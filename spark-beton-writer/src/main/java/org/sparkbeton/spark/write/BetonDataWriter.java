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

/** One task attempt: rows → {@link RowEncoder} → {@link ShardWriter}. */
final class BetonDataWriter implements DataWriter<InternalRow> {
  private final int partition;
  private final long taskAttempt;
  private final RowEncoder rows;
  private final ShardWriter shards;
  private final QuarantineLog quarantine;
  private long rowIndex;
  private long samples;
  private List<ShardEntry> committed = List.of();

  BetonDataWriter(FileSystem fs, Path dir, String jobId, int partition, long taskAttempt, StructType schema,
      BetonWriteConf conf) {
    this.partition = partition;
    this.taskAttempt = taskAttempt;
    String prefix = shardPrefix(jobId, partition, taskAttempt);
    this.quarantine = new QuarantineLog(fs, dir, prefix);
    this.rows = new RowEncoder(schema, conf, partition, quarantine, fs.getConf());
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
    long index = rowIndex++;
    Object[] values = rows.encode(row, index);
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
    // Spark reads these before commit(): progress so far, exact for finished shards
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
