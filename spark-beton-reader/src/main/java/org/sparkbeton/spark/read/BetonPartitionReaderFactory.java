package org.sparkbeton.spark.read;

import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.SerializableConfiguration;
import org.sparkbeton.format.dataset.DatasetManifest;

/**
 * Travels to executors: the broadcast Hadoop configuration, the parsed options, the dataset's fields
 * (as a shard-less manifest JSON, parsed once per JVM into a transient schema) and the pruned schema.
 */
public final class BetonPartitionReaderFactory implements PartitionReaderFactory {
  private static final long serialVersionUID = 1L;
  private final Broadcast<SerializableConfiguration> hadoopConf;
  private final ReadConf conf;
  private final String fieldsJson;
  private final StructType required;
  private transient volatile BetonSchema schema;

  BetonPartitionReaderFactory(Broadcast<SerializableConfiguration> hadoopConf, ReadConf conf, String fieldsJson,
      StructType required) {
    this.hadoopConf = hadoopConf;
    this.conf = conf;
    this.fieldsJson = fieldsJson;
    this.required = required;
  }

  private BetonSchema schema() {
    BetonSchema s = schema;
    if (s == null) {
      s = BetonSchema.of(DatasetManifest.parse(fieldsJson).fields(), conf.imageMode());
      schema = s;
    }
    return s;
  }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    BetonSchema s = schema();
    return new BetonPartitionReader((BetonInputPartition) partition, hadoopConf.value().value(), conf, s, required,
        PixelDecoders.jpeg());
  }
}
