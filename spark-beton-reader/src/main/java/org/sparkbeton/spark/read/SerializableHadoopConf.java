package org.sparkbeton.spark.read;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import org.apache.hadoop.conf.Configuration;

/** A Hadoop {@link Configuration} that can be broadcast to executors (it is Writable, not Serializable). */
final class SerializableHadoopConf implements Serializable {
  private static final long serialVersionUID = 1L;
  private transient Configuration conf;

  SerializableHadoopConf(Configuration conf) {
    this.conf = conf;
  }

  Configuration get() {
    return conf;
  }

  private void writeObject(ObjectOutputStream out) throws IOException {
    out.defaultWriteObject();
    conf.write(out);
  }

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    conf = new Configuration(false);
    conf.readFields(in);
  }
}
