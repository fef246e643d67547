package org.sparkbeton.spark.read;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
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
 * Reads one {@link BetonInputPartition}: opens the shard (header, descriptors, allocation table),
 * checks it against the manifest (size, sample count, fields, and each page it reads against the page
 * checksums, see {@link ShardOpener}), then converts samples {@code [from, to)} to rows. A corrupt shard fails the task with the format core's message (file,
 * region, offset), or with {@code ignoreCorruptFiles} is skipped and counted.
 */
final class BetonPartitionReader implements PartitionReader<InternalRow> {
  private static final Logger LOG = LoggerFactory.getLogger(BetonPartitionReader.class);

  private final BetonInputPartition partition;
  private final Configuration hadoopConf;
  private final ReadConf conf;
  private final BetonSchema schema;
  private final StructType required;
  private final PixelDecoder jpeg;
  private final GenericInternalRow row;

  private BetonSource source;
  private BetonReader reader;
  private RowConverter converter;
  private long next;
  private boolean done;
  private long samplesRead;
  private long bytesReadClosed;
  private long corruptSkipped;

  BetonPartitionReader(BetonInputPartition partition, Configuration hadoopConf, ReadConf conf, BetonSchema schema,
      StructType required, PixelDecoder jpeg) {
    this.partition = partition;
    this.hadoopConf = hadoopConf;
    this.conf = conf;
    this.schema = schema;
    this.required = required;
    this.jpeg = jpeg;
    this.row = new GenericInternalRow(required.fields().length);
    this.next = partition.fromSample();
  }

  @Override
  public boolean next() throws IOException {
    if (done) {
      return false;
    }
    try {
      if (reader == null) {
        open();
      }
      if (next >= partition.toSample()) {
        done = true;
        return false;
      }
      converter.fill(next++, row);
      samplesRead++;
      return true;
    } catch (BetonFormatException | IOException | UncheckedIOException e) {
      if (!conf.ignoreCorruptFiles()) {
        throw e;
      }
      LOG.warn("Skipping the rest of corrupt shard {} (samples {} to {}) because {} is set: {}", partition.path(),
          next, partition.toSample(), BetonReadOptions.IGNORE_CORRUPT_FILES, e.getMessage());
      corruptSkipped++;
      done = true;
      return false;
    }
  }

  /** Opens and checks the shard; on failure {@link #close()} releases what was opened. */
  private void open() throws IOException {
    source = HadoopBetonSource.open(new Path(partition.path()), hadoopConf,
        ShardOpener.checksPages(partition.pages(), conf));
    String file = source.name();
    reader = ShardOpener.open(source, partition.expectedBytes(), partition.expectedSamples(), partition.pages(), schema,
        conf);
    if (partition.toSample() > reader.numSamples()) {
      throw new BetonFormatException(file, "header", 8,
          "shard holds " + reader.numSamples() + " samples, fewer than the " + partition.toSample() + " planned");
    }
    converter = new RowConverter(reader, schema, required, conf.imageMode(), jpeg, partition.toSample());
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
        BetonMetrics.value(BetonMetrics.CORRUPT_SHARDS_SKIPPED, corruptSkipped)};
  }

  @Override
  public void close() throws IOException {
    if (source != null) {
      bytesReadClosed += source.bytesRead();
      BetonSource s = source;
      source = null;
      if (reader != null) {
        reader.close();
      } else {
        s.close();
      }
    }
  }
}
