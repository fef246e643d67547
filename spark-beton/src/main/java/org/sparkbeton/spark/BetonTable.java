package org.sparkbeton.spark;

import java.util.EnumSet;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.dataset.ManifestField;
import org.sparkbeton.spark.read.BetonReadOptions;
import org.sparkbeton.spark.read.BetonScanBuilder;
import org.sparkbeton.spark.read.BetonSchema;
import org.sparkbeton.spark.read.DatasetInputs;
import org.sparkbeton.spark.read.ReadConf;

/**
 * The one table behind {@code format("beton")}: a dataset directory, file or glob. Reads today
 * ({@link SupportsRead}); the writer (issue 4) adds {@code SupportsWrite} here, so one registration
 * serves both directions.
 */
public final class BetonTable implements SupportsRead {
  private static final Logger LOG = LoggerFactory.getLogger(BetonTable.class);

  private final DatasetInputs inputs;
  private final BetonSchema schema;
  private final Configuration hadoopConf;

  private BetonTable(DatasetInputs inputs, BetonSchema schema, Configuration hadoopConf) {
    this.inputs = inputs;
    this.schema = schema;
    this.hadoopConf = hadoopConf;
  }

  static BetonTable load(CaseInsensitiveStringMap options, Configuration hadoopConf, ReadConf conf) {
    String path = options.get("path");
    if (path == null || path.isEmpty()) {
      if (options.containsKey("paths")) {
        throw new IllegalArgumentException("format(\"beton\") reads one path (a dataset directory, a file or a glob),"
            + " got several; use a glob such as /data/*.beton");
      }
      throw new IllegalArgumentException("format(\"beton\") needs a path: spark.read.format(\"beton\").load(path)");
    }
    DatasetInputs inputs = DatasetInputs.resolve(path, hadoopConf);
    for (ManifestField f : inputs.fields()) {
      if (f.typeId() == FieldTypes.CUSTOM) {
        if (!conf.customFields().containsKey(f.name())) {
          throw new IllegalArgumentException("Field '" + f.name() + "' of " + path + " is a custom field (type id 255),"
              + " whose metadata layout the file does not record; pass option " + BetonReadOptions.CUSTOM_FIELD_LAYOUT
              + "=" + f.name() + ":<size>:<alignment> to read its raw metadata bytes");
        }
        LOG.warn("Field '{}' of {} is a custom field (type id 255): it is read as its raw metadata bytes ({} bytes);"
            + " payloads it may point to are not interpreted", f.name(), path, conf.customFields().get(f.name()).size());
      }
    }
    return new BetonTable(inputs, BetonSchema.of(inputs.fields(), conf.imageMode()), hadoopConf);
  }

  @Override
  public String name() {
    return "beton:" + inputs.root();
  }

  @Override
  public StructType schema() {
    return schema.sparkSchema();
  }

  @Override
  public Set<TableCapability> capabilities() {
    return EnumSet.of(TableCapability.BATCH_READ);
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
    ReadConf conf = BetonDataSource.readConf(options);
    BetonSchema readSchema = BetonSchema.of(inputs.fields(), conf.imageMode());
    return new BetonScanBuilder(inputs, readSchema, conf, hadoopConf);
  }

  DatasetInputs inputs() {
    return inputs;
  }
}
