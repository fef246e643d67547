package org.sparkbeton.spark.read;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pushed-down aggregate answered on the driver, so Spark plans a {@code LocalTableScan} and runs no job:
 * a global {@code COUNT(*)} from the sample counts the driver already has (nothing read), anything else
 * through {@link MetadataAggregation} over the shards' metadata records. Computed once, when Spark first
 * asks for the rows (physical planning).
 */
final class BetonAggregateScan implements LocalScan {
  private static final Logger LOG = LoggerFactory.getLogger(BetonAggregateScan.class);
  /** Output of a pushed-down global {@code COUNT(*)}. */
  private static final StructType COUNT_SCHEMA = new StructType().add("count(*)", DataTypes.LongType, false);

  private final DatasetInputs inputs;
  private final StructType schema;
  private final MetadataAggregation aggregation;
  private final String description;
  private final ReadConf conf;
  private final Configuration hadoopConf;
  private InternalRow[] rows;

  /** A global {@code COUNT(*)} from the shards' sample counts. */
  static BetonAggregateScan count(DatasetInputs inputs) {
    return new BetonAggregateScan(inputs, COUNT_SCHEMA, null, "COUNT(*) from sample counts", null, null);
  }

  BetonAggregateScan(DatasetInputs inputs, StructType schema, MetadataAggregation aggregation, String description,
      ReadConf conf, Configuration hadoopConf) {
    this.inputs = inputs;
    this.schema = schema;
    this.aggregation = aggregation;
    this.description = description;
    this.conf = conf;
    this.hadoopConf = hadoopConf;
  }

  @Override
  public StructType readSchema() {
    return schema;
  }

  @Override
  public String description() {
    return "BetonAggregateScan " + inputs.root() + " pushedAggregate=" + description;
  }

  @Override
  public synchronized InternalRow[] rows() {
    if (rows == null) {
      rows = aggregation == null ? new InternalRow[] {new GenericInternalRow(new Object[] {inputs.totalSamples()})} : compute();
    }
    return rows.clone();
  }


  private InternalRow[] compute() {
    long t0 = System.nanoTime();
    String key = MetadataAnswers.key(inputs, aggregation.describe(), conf);
    List<Object[]> values = key == null ? null : MetadataAnswers.get(key);
    if (values != null) {
      LOG.info("beton: {} over {} answered from the driver's memo of an earlier identical query: {} rows", description,
          inputs.root(), values.size());
      return rowsOf(values);
    }
    try {
      values = aggregation.run(inputs.shards(), conf, hadoopConf);
    } catch (IOException e) {
      throw new UncheckedIOException("beton: reading the metadata of " + inputs.root() + " for " + description, e);
    }
    if (key != null && aggregation.corruptShardsSkipped() == 0 && aggregation.missingShardsSkipped() == 0) {
      MetadataAnswers.put(key, values);
    }
    InternalRow[] out = rowsOf(values);
    LOG.info("beton: {} over {} answered from metadata on the driver: {} samples, {} bytes read, {} rows, {} ms{}{}",
        description, inputs.root(), aggregation.samplesRead(), aggregation.bytesRead(), out.length,
        (System.nanoTime() - t0) / 1_000_000, aggregation.corruptShardsSkipped() > 0
            ? ", " + aggregation.corruptShardsSkipped() + " corrupt shard(s) left out (ignoreCorruptFiles)" : "",
        aggregation.missingShardsSkipped() > 0
            ? ", " + aggregation.missingShardsSkipped() + " missing shard(s) left out (ignoreMissingFiles)" : "");
    return out;
  }

  private static InternalRow[] rowsOf(List<Object[]> values) {
    InternalRow[] out = new InternalRow[values.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = new GenericInternalRow(values.get(i));
    }
    return out;
  }
}
