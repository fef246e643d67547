package org.sparkbeton.spark.write;

import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.SupportsTruncate;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;

/**
 * {@code df.write.format("beton")}'s write: appends shards, or (after {@link #truncate()}, for
 * SaveMode.Overwrite) replaces the dataset. Options are parsed and the schema mapped here, on the
 * driver, so a bad option or column fails the query before any task runs.
 */
public final class BetonWriteBuilder implements WriteBuilder, SupportsTruncate {
  private final String dir;
  private final StructType schema;
  private final BetonWriteConf conf;
  private final Configuration hadoopConf;
  private boolean overwrite;

  public BetonWriteBuilder(String dir, LogicalWriteInfo info, Map<String, String> tableOptions, Configuration hadoopConf) {
    Map<String, String> options = new java.util.HashMap<>(tableOptions);
    options.putAll(info.options().asCaseSensitiveMap());
    this.dir = dir;
    this.schema = info.schema();
    this.conf = BetonWriteConf.parse(options);
    this.hadoopConf = hadoopConf;
    BetonSchemaMapping.fields(schema, conf); // fail now, naming the column
    org.sparkbeton.codec.jpeg.JpegCodecs.nativeAvailable(); // loads the codec: a Java fallback logs its WARN on the driver
  }

  @Override
  public WriteBuilder truncate() {
    overwrite = true;
    return this;
  }

  @Override
  public Write build() {
    return new Write() {
      @Override
      public String description() {
        return "beton dataset " + dir + (overwrite ? " (overwrite)" : "");
      }

      @Override
      public BatchWrite toBatch() {
        return new BetonBatchWrite(dir, schema, conf, hadoopConf, overwrite);
      }

      @Override
      public CustomMetric[] supportedCustomMetrics() {
        return BetonWriteMetrics.supported();
      }
    };
  }
}
