package org.sparkbeton.spark.read;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.Statistics;
import org.apache.spark.sql.connector.read.SupportsReportStatistics;
import org.apache.spark.sql.connector.read.streaming.MicroBatchStream;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/** A planned read: the pruned schema and the shards left after min/max pruning. */
public final class BetonScan implements Scan, SupportsReportStatistics {
  private final DatasetInputs inputs;
  private final BetonSchema schema;
  private final StructType required;
  private final Filter[] pushed;
  private final ReadConf conf;
  private final Configuration hadoopConf;
  private final List<Integer> kept;

  BetonScan(DatasetInputs inputs, BetonSchema schema, StructType required, Filter[] pushed, ReadConf conf,
      Configuration hadoopConf) {
    this.inputs = inputs;
    this.schema = schema;
    this.required = required;
    this.pushed = pushed;
    this.conf = conf;
    this.hadoopConf = hadoopConf;
    this.kept = new ArrayList<>();
    Map<String, Integer> decimalScales = decimalScales(schema.sparkSchema());
    for (int i = 0; i < inputs.shards().size(); i++) {
      if (ShardPruner.mightMatch(pushed, inputs.shards().get(i).stats(), decimalScales)) {
        kept.add(i);
      }
    }
  }

  /** The scale of each decimal column: its float64 statistics compare with decimal literals through it. */
  private static Map<String, Integer> decimalScales(StructType columns) {
    Map<String, Integer> scales = new HashMap<>();
    for (StructField f : columns.fields()) {
      if (f.dataType() instanceof DecimalType d) {
        scales.put(f.name(), d.scale());
      }
    }
    return scales;
  }

  @Override
  public StructType readSchema() {
    return required;
  }

  @Override
  public String description() {
    return "BetonScan " + inputs.root() + " shards=" + kept.size() + "/" + inputs.shards().size()
        + " pushedFilters=" + Arrays.toString(pushed)
        + " imageMode=" + conf.imageMode();
  }

  /** Shards to read after pruning, as indices into the inputs' shards. */
  public List<Integer> keptShards() {
    return List.copyOf(kept);
  }

  /** Rows and bytes of the shards left after pruning, so the optimizer can plan joins (e.g. broadcast a small side). */
  @Override
  public Statistics estimateStatistics() {
    long rows = 0;
    long bytes = 0;
    for (int i : kept) {
      rows += inputs.shards().get(i).samples();
      bytes += inputs.shards().get(i).bytes();
    }
    long numRows = rows;
    long sizeInBytes = bytes;
    return new Statistics() {
      @Override public OptionalLong sizeInBytes() { return OptionalLong.of(sizeInBytes); }
      @Override public OptionalLong numRows() { return OptionalLong.of(numRows); }
    };
  }

  @Override
  public Batch toBatch() {
    conf.requireBatchRead();
    return new BetonBatch(inputs, schema, required, kept, conf, hadoopConf);
  }

  /** {@code spark.readStream().format("beton")}: Spark pushes nothing into a stream's scan, so all shards are kept. */
  @Override
  public MicroBatchStream toMicroBatchStream(String checkpointLocation) {
    return new BetonMicroBatchStream(inputs, schema, required, conf, hadoopConf);
  }

  @Override
  public CustomMetric[] supportedCustomMetrics() {
    return new CustomMetric[] {new BetonMetrics.SamplesRead(), new BetonMetrics.BytesRead(),
        new BetonMetrics.ShardsSkipped(), new BetonMetrics.CorruptShardsSkipped(),
        new BetonMetrics.MissingShardsSkipped()};
  }

  @Override
  public CustomTaskMetric[] reportDriverMetrics() {
    return new CustomTaskMetric[] {
        BetonMetrics.value(BetonMetrics.SHARDS_SKIPPED, inputs.shards().size() - kept.size())};
  }
}
