package org.sparkbeton.spark.read;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.connector.expressions.aggregate.AggregateFunc;
import org.apache.spark.sql.connector.expressions.aggregate.Aggregation;
import org.apache.spark.sql.connector.expressions.aggregate.CountStar;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownAggregates;
import org.apache.spark.sql.connector.read.SupportsPushDownFilters;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.dataset.ManifestField;

/**
 * Column pruning (a scalar-only schema reads metadata only) and filter pushdown (filters on Int and
 * Float fields skip shards by their manifest min/max). Every filter is also handed back to Spark, which
 * evaluates it on the rows: pushdown never changes results. An unfiltered {@code COUNT(*)} is answered
 * from the sample counts the driver already has (manifest or file headers), without reading a shard.
 */
public final class BetonScanBuilder
    implements ScanBuilder, SupportsPushDownRequiredColumns, SupportsPushDownFilters, SupportsPushDownAggregates {
  private final DatasetInputs inputs;
  private final BetonSchema schema;
  private final ReadConf conf;
  private final Configuration hadoopConf;
  private StructType required;
  private Filter[] pushed = new Filter[0];
  private boolean countOnly;

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
    if (inputs.manifest() != null) {
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
   * Takes a global {@code COUNT(*)}; Spark offers it only when no filter is left above the scan. Anything
   * else (grouping, other functions) stays with Spark.
   */
  @Override
  public boolean pushAggregation(Aggregation aggregation) {
    AggregateFunc[] functions = aggregation.aggregateExpressions();
    countOnly = aggregation.groupByExpressions().length == 0 && functions.length == 1 && functions[0] instanceof CountStar;
    return countOnly;
  }

  /** The pushed count is complete: one row with the total, nothing left for Spark to aggregate. */
  @Override
  public boolean supportCompletePushDown(Aggregation aggregation) {
    return true;
  }

  @Override
  public Scan build() {
    return new BetonScan(inputs, schema, countOnly ? BetonScan.COUNT_SCHEMA : required, pushed, countOnly, conf,
        hadoopConf);
  }
}
