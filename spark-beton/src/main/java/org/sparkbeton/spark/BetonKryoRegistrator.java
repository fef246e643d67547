package org.sparkbeton.spark;

import com.esotericsoftware.kryo.Kryo;
import org.apache.spark.serializer.KryoRegistrator;
import org.sparkbeton.spark.write.TaskResultSerialization;

/**
 * Registers with Kryo the classes of ours that travel through Spark's serializer, for clusters that set
 * {@code spark.kryo.registrationRequired=true}: {@code --conf spark.kryo.registrator=}this class (comma-separated
 * from registrators of your own). Under Kryo without that setting nothing needs registering. {@code beton prepare}
 * and the prepare job add it themselves.
 */
public final class BetonKryoRegistrator implements KryoRegistrator {
  @Override
  public void registerClasses(Kryo kryo) {
    // each with its default serializer, which its own annotation names
    TaskResultSerialization.classes().forEach(kryo::register);
  }
}
