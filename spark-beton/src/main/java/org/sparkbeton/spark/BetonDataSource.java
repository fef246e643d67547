package org.sparkbeton.spark;

import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.sparkbeton.spark.read.ReadConf;

/**
 * The one {@code beton} data source: {@code spark.read.format("beton").load(path)}, where path is a
 * dataset directory (read through its manifest), a {@code .beton} file, or a glob of files. Registered
 * once, in this module, under the short name {@code beton}; the writer (issue 4) joins through the same
 * {@link BetonTable}.
 */
public final class BetonDataSource implements TableProvider, DataSourceRegister {
  public static final String SHORT_NAME = "beton";

  @Override
  public String shortName() {
    return SHORT_NAME;
  }

  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    return BetonTable.load(options, hadoopConf(options), readConf(options)).schema();
  }

  @Override
  public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
    CaseInsensitiveStringMap options = new CaseInsensitiveStringMap(properties);
    return BetonTable.load(options, hadoopConf(options), readConf(options));
  }

  /** The session's Hadoop configuration plus every option, as Spark's file sources do. */
  static Configuration hadoopConf(Map<String, String> options) {
    Configuration conf = new Configuration(SparkSession.active().sessionState().newHadoopConf());
    options.forEach((k, v) -> {
      if (v != null) {
        conf.set(k, v);
      }
    });
    return conf;
  }

  static ReadConf readConf(Map<String, String> options) {
    SQLConf sql = SparkSession.active().sessionState().conf();
    return ReadConf.parse(options, Map.of(
        "spark.sql.files.ignoreCorruptFiles", Boolean.toString(sql.ignoreCorruptFiles()),
        "spark.sql.files.maxPartitionBytes", Long.toString(sql.filesMaxPartitionBytes())));
  }
}
