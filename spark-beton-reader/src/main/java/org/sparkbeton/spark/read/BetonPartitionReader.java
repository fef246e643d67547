package org.sparkbeton.spark.read;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.rdd.InputFileBlockHolder;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.types.StructType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparkbeton.format.BetonFormatException;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.fields.PixelDecoder;
import org.sparkbeton.format.io.BetonSource;

/**
 * Reads one {@link BetonInputPartition}: its shard ranges in turn, one shard open at a time (each is closed before
 * the next opens). For each range it opens the shard (header, descriptors, allocation table), checks it against
 * the manifest (size, sample count, fields, and each page it reads against the page checksums, see
 * {@link ShardOpener}), then converts samples {@code [from, to)} to rows. A corrupt shard fails the task with the
 * format core's message (file, region, offset), or with {@code ignoreCorruptFiles} the rest of its range is skipped
 * and counted, and the next range is read.
 */
final class BetonPartitionReader implements PartitionReader<InternalRow> {
  private static final Logger LOG = LoggerFactory.getLogger(BetonPartitionReader.class);

  /** Opens a shard's file; the seam through which tests count open files. */
  @FunctionalInterface
  interface SourceOpener {
    BetonSource open(Path path, Configuration conf, boolean pagesChecked) throws IOException;
  }

  private final List<ShardRange> ranges;
  private final Configuration hadoopConf;
  private final ReadConf conf;
  private final BetonSchema schema;
  private final StructType required;
  private final PixelDecoder jpeg;
  private final SourceOpener opener;
  private final GenericInternalRow row;

  /** Index of the range being read, or of the next one to open when {@link #reader} is null. */
  private int rangeIndex;
  private BetonSource source;
  private BetonReader reader;
  private RowConverter converter;
  private long next;
  private long samplesRead;
  private long bytesReadClosed;
  private long corruptSkipped;
  private long missingSkipped;

  BetonPartitionReader(BetonInputPartition partition, Configuration hadoopConf, ReadConf conf, BetonSchema schema,
      StructType required, PixelDecoder jpeg) {
    this(partition, hadoopConf, conf, schema, required, jpeg, HadoopBetonSource::open);
  }

  BetonPartitionReader(BetonInputPartition partition, Configuration hadoopConf, ReadConf conf, BetonSchema schema,
      StructType required, PixelDecoder jpeg, SourceOpener opener) {
    this.ranges = new ArrayList<>(partition.ranges()); // a range whose shard was compacted away is replaced
    this.hadoopConf = hadoopConf;
    this.conf = conf;
    this.schema = schema;
    this.required = required;
    this.jpeg = jpeg;
    this.opener = opener;
    this.row = new GenericInternalRow(required.fields().length);
  }

  @Override
  public boolean next() throws IOException {
    while (rangeIndex < ranges.size()) {
      ShardRange range = ranges.get(rangeIndex);
      try {
        if (reader == null) {
          open(range);
          range = ranges.get(rangeIndex);
        }
        if (next < range.toSample()) {
          converter.fill(next++, row);
          samplesRead++;
          return true;
        }
      } catch (FileNotFoundException e) {
        // never skipped as corrupt: a shard that went away is no damage to tolerate (Spark's file sources alike)
        if (!conf.ignoreMissingFiles()) {
          throw e;
        }
        LOG.warn("Skipping missing shard {} (samples {} to {}) because {} is set: {}", range.path(), next,
            range.toSample(), BetonReadOptions.IGNORE_MISSING_FILES, e.getMessage());
        missingSkipped++;
      } catch (BetonFormatException | IOException | UncheckedIOException e) {
        if (!conf.ignoreCorruptFiles()) {
          throw namingTheShard(e, range);
        }
        LOG.warn("Skipping the rest of corrupt shard {} (samples {} to {}) because {} is set: {}", range.path(), next,
            range.toSample(), BetonReadOptions.IGNORE_CORRUPT_FILES, e.getMessage());
        corruptSkipped++;
      }
      closeShard();
      rangeIndex++;
    }
    return false;
  }

  /**
   * Opens and checks the range's shard, or where it went away, the shard that holds its samples now (which then
   * replaces the range: {@link ShardRelocation}); on failure {@link #closeShard()} releases what was opened.
   */
  private void open(ShardRange planned) throws IOException {
    ShardRange range = planned;
    try {
      source = opener.open(new Path(range.path()), hadoopConf, ShardOpener.checksPages(range.pages(), conf));
    } catch (FileNotFoundException missing) {
      range = ShardRelocation.relocate(planned, hadoopConf, missing);
      LOG.info("Shard {} was compacted into {} and deleted while this query ran: reading its samples {} to {} there",
          planned.path(), range.path(), range.fromSample(), range.toSample());
      ranges.set(rangeIndex, range);
      source = opener.open(new Path(range.path()), hadoopConf, ShardOpener.checksPages(range.pages(), conf));
    }
    next = range.fromSample();
    String file = source.name();
    reader = ShardOpener.open(source, range.expectedBytes(), range.expectedSamples(), range.pages(), schema, conf);
    if (range.toSample() > reader.numSamples()) {
      throw new BetonFormatException(file, "header", 8,
          "shard holds " + reader.numSamples() + " samples, fewer than the " + range.toSample() + " planned");
    }
    converter = new RowConverter(reader, schema, required, conf.imageMode(), jpeg, range.toSample());
    // what Spark's input_file_name() and input_file_block_start/length() give for the rows of this shard
    InputFileBlockHolder.set(range.path(), 0, range.expectedBytes());
  }

  /**
   * The error to throw: as it is when its message names the shard (the format core's always do), else an I/O error
   * that does, caused by it: a partition reads several shards, and the task's error must say which one failed.
   */
  private static RuntimeException namingTheShard(Exception e, ShardRange range) throws IOException {
    if (e instanceof BetonFormatException f) {
      return f;
    }
    boolean named = e.getMessage() != null && e.getMessage().contains(range.path());
    if (e instanceof UncheckedIOException u) {
      return named ? u : new UncheckedIOException(range.path() + ": " + e.getMessage(), u.getCause());
    }
    throw named ? (IOException) e : new IOException(range.path() + ": " + e.getMessage(), e);
  }

  @Override
  public InternalRow get() {
    return row;
  }

  private long bytesRead() {
    return bytesReadClosed + (source == null ? 0 : source.bytesRead());
  }

  @Override
  public CustomTaskMetric[] currentMetricsValues() {
    return new CustomTaskMetric[] {
        BetonMetrics.value(BetonMetrics.SAMPLES_READ, samplesRead),
        BetonMetrics.value(BetonMetrics.BYTES_READ, bytesRead()),
        BetonMetrics.value(BetonMetrics.CORRUPT_SHARDS_SKIPPED, corruptSkipped),
        BetonMetrics.value(BetonMetrics.MISSING_SHARDS_SKIPPED, missingSkipped)};
  }

  /** Closes the open shard, if any, keeping its byte count. */
  private void closeShard() throws IOException {
    converter = null;
    if (source != null) {
      bytesReadClosed += source.bytesRead();
      BetonSource s = source;
      BetonReader r = reader;
      source = null;
      reader = null;
      if (r != null) {
        r.close();
      } else {
        s.close();
      }
    }
  }

  @Override
  public void close() throws IOException {
    closeShard();
    rangeIndex = ranges.size();
    InputFileBlockHolder.unset();
  }
}
