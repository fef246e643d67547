package org.sparkbeton.spark.read;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.aggregate.AggregateFunc;
import org.apache.spark.sql.connector.expressions.aggregate.Aggregation;
import org.apache.spark.sql.connector.expressions.aggregate.Count;
import org.apache.spark.sql.connector.expressions.aggregate.CountStar;
import org.apache.spark.sql.connector.expressions.aggregate.Max;
import org.apache.spark.sql.connector.expressions.aggregate.Min;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownAggregates;
import org.apache.spark.sql.connector.read.SupportsPushDownFilters;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.dataset.ManifestField;

/**
 * Column pruning (a scalar-only schema reads metadata only) and filter pushdown (filters on Int and
 * Float fields skip shards by their manifest min/max). Every filter is also handed back to Spark, which
 * evaluates it on the rows: pushdown never changes results. Unfiltered aggregates over scalar columns are
 * answered on the driver (see {@link #pushAggregation}): a {@code COUNT(*)} from the sample counts it
 * already has (manifest or file headers), a label histogram from the metadata records, with no Spark job.
 */
public final class BetonScanBuilder
    implements ScanBuilder, SupportsPushDownRequiredColumns, SupportsPushDownFilters, SupportsPushDownAggregates {
  private final DatasetInputs inputs;
  private final BetonSchema schema;
  private final ReadConf conf;
  private final Configuration hadoopConf;
  private StructType required;
  private Filter[] pushed = new Filter[0];
  private BetonAggregateScan aggregateScan;

  public BetonScanBuilder(DatasetInputs inputs, BetonSchema schema, ReadConf conf, Configuration hadoopConf) {
    this.inputs = inputs;
    this.schema = schema;
    this.conf = conf;
    this.hadoopConf = hadoopConf;
    this.required = schema.sparkSchema();
  }

  /**
   * Keeps the requested top-level columns, each with its full type: with nested schema pruning on, Spark may
   * ask for part of the {@code image} struct, but a reader always produces the whole struct (its fields come
   * from one decode), and Spark extracts the nested fields it needs from what {@code readSchema()} reports.
   */
  @Override
  public void pruneColumns(StructType requiredSchema) {
    StructType full = schema.sparkSchema();
    StructType out = new StructType();
    for (String name : requiredSchema.fieldNames()) {
      out = out.add(full.apply(name));
    }
    this.required = out;
  }

  @Override
  public Filter[] pushFilters(Filter[] filters) {
    Set<String> statsColumns = new HashSet<>();
    if (inputs.everyShardListed()) {
      for (ManifestField f : inputs.fields()) {
        if (f.typeId() == FieldTypes.INT || f.typeId() == FieldTypes.FLOAT) {
          statsColumns.add(f.name());
        }
      }
    }
    List<Filter> used = new ArrayList<>();
    for (Filter f : filters) {
      if (ShardPruner.usable(f, statsColumns)) {
        used.add(f);
      }
    }
    this.pushed = used.toArray(new Filter[0]);
    return filters;
  }

  @Override
  public Filter[] pushedFilters() {
    return pushed.clone();
  }

  /**
   * Takes aggregates the driver can answer without a Spark job (Spark offers them only when no filter is
   * left above the scan): a global {@code COUNT(*)} always (from sample counts); {@code GROUP BY} over Int,
   * Float and image-size columns with {@code COUNT(*)}, {@code COUNT(column)}, {@code MIN} and {@code MAX} of
   * such columns when the dataset has at most {@link BetonReadOptions#AGGREGATE_PUSHDOWN_MAX_SAMPLES}
   * samples (its metadata records are read on the driver). Anything else stays with Spark.
   */
  @Override
  public boolean pushAggregation(Aggregation aggregation) {
    aggregateScan = null;
    AggregateFunc[] functions = aggregation.aggregateExpressions();
    if (aggregation.groupByExpressions().length == 0 && functions.length == 1 && functions[0] instanceof CountStar) {
      aggregateScan = BetonAggregateScan.count(inputs);
      return true;
    }
    long max = conf.aggregatePushdownMaxSamples();
    if (max == 0 || inputs.totalSamples() > max) {
      return false;
    }
    List<BetonSchema.Column> groupBy = new ArrayList<>();
    StructType output = new StructType();
    for (Expression e : aggregation.groupByExpressions()) {
      BetonSchema.Column c = scalarColumn(e);
      if (c == null) {
        return false;
      }
      groupBy.add(c);
      output = output.add(c.name(), c.structField().dataType(), false);
    }
    List<MetadataAggregation.Aggregate> aggregates = new ArrayList<>();
    for (AggregateFunc f : functions) {
      MetadataAggregation.Aggregate a = aggregate(f);
      if (a == null) {
        return false;
      }
      aggregates.add(a);
      boolean count = a.function() == MetadataAggregation.Function.COUNT;
      output = output.add(f.toString(), count ? DataTypes.LongType : a.column().structField().dataType(), !count);
    }
    MetadataAggregation plan = new MetadataAggregation(schema, groupBy, aggregates);
    aggregateScan = new BetonAggregateScan(inputs, output, plan, describe(aggregation), conf, hadoopConf);
    return true;
  }


  /** The column a plain column reference names, when the metadata aggregation can read it; else null. */
  private BetonSchema.Column scalarColumn(Expression e) {
    if (!(e instanceof NamedReference ref) || ref.fieldNames().length != 1) {
      return null;
    }
    BetonSchema.Column c = schema.column(ref.fieldNames()[0]);
    return c != null && MetadataAggregation.supports(c) ? c : null;
  }

  private MetadataAggregation.Aggregate aggregate(AggregateFunc f) {
    if (f instanceof CountStar) {
      return new MetadataAggregation.Aggregate(MetadataAggregation.Function.COUNT, null);
    }
    if (f instanceof Count count && !count.isDistinct()) {
      BetonSchema.Column c = scalarColumn(count.column());
      return c == null ? null : new MetadataAggregation.Aggregate(MetadataAggregation.Function.COUNT, null);
    }
    if (f instanceof Min min) {
      BetonSchema.Column c = scalarColumn(min.column());
      return c == null ? null : new MetadataAggregation.Aggregate(MetadataAggregation.Function.MIN, c);
    }
    if (f instanceof Max max) {
      BetonSchema.Column c = scalarColumn(max.column());
      return c == null ? null : new MetadataAggregation.Aggregate(MetadataAggregation.Function.MAX, c);
    }
    return null;
  }

  private static String describe(Aggregation aggregation) {
    StringBuilder b = new StringBuilder(Arrays.toString(aggregation.aggregateExpressions()));
    if (aggregation.groupByExpressions().length > 0) {
      b.append(" groupBy=").append(Arrays.toString(aggregation.groupByExpressions()));
    }
    return b.toString();
  }

  /** A pushed aggregate is complete: the scan returns the final rows, nothing is left for Spark to aggregate. */
  @Override
  public boolean supportCompletePushDown(Aggregation aggregation) {
    return true;
  }

  @Override
  public Scan build() {
    if (aggregateScan != null) {
      conf.requireBatchRead(); // Spark pushes aggregates into batch reads only: this one answers without a batch
      return aggregateScan;
    }
    return new BetonScan(inputs, schema, required, pushed, conf, hadoopConf);
  }
}
