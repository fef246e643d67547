package org.sparkbeton.spark.write;

import java.util.List;
import org.apache.spark.SparkConf;
import org.apache.spark.serializer.Serializer;
import org.apache.spark.serializer.SerializerInstance;
import scala.reflect.ClassTag$;

/**
 * What a write task sends back to the driver goes through Spark's configured serializer ({@code spark.serializer}),
 * unlike the tasks themselves. This class names the classes that travel that way and checks, on the driver before
 * any task runs, that the serializer carries them: under Kryo with {@code spark.kryo.registrationRequired=true}
 * they must be registered, which {@link #REGISTRATOR} does.
 */
public final class TaskResultSerialization {
  /** The Kryo registrator users add to {@code spark.kryo.registrator} (it lives in the spark-beton module). */
  public static final String REGISTRATOR = "org.sparkbeton.spark.BetonKryoRegistrator";

  private TaskResultSerialization() {}

  /**
   * The classes of ours that Spark's serializer carries: Kryo must know them when it requires registration. A
   * compaction's tasks return the same messages, collected as arrays of objects.
   */
  public static List<Class<?>> classes() {
    return List.of(BetonCommitMessage.class, BetonCommitMessage[].class, Object[].class);
  }

  /**
   * Round-trips a commit message through {@code serializer}, as a task's result travels; a serializer that cannot
   * carry it fails here with what to set instead of failing every task.
   *
   * @throws IllegalStateException naming the setting to change
   */
  static void check(Serializer serializer, SparkConf conf) {
    BetonCommitMessage sample = new BetonCommitMessage(0, 0, List.of(), 0, 0, 0, null, 0, "check");
    try {
      SerializerInstance instance = serializer.newInstance();
      Object back = instance.deserialize(instance.serialize(sample, ClassTag$.MODULE$.apply(BetonCommitMessage.class)),
          ClassTag$.MODULE$.apply(BetonCommitMessage.class));
      if (sample.equals(back)) {
        return;
      }
      throw new IllegalStateException("it read back " + back);
    } catch (RuntimeException e) {
      throw new IllegalStateException(problem(serializer, conf, e), e);
    }
  }

  private static String problem(Serializer serializer, SparkConf conf, RuntimeException e) {
    String name = serializer.getClass().getName();
    // Kryo's message goes on with a line on kryo.register: the first line says what failed
    String why = (e.getMessage() == null ? e.toString() : e.getMessage()).lines().findFirst().orElse("");
    String fix = conf.getBoolean("spark.kryo.registrationRequired", false)
        ? "spark.kryo.registrationRequired is true: add " + REGISTRATOR + " to spark.kryo.registrator (e.g. --conf "
            + "spark.kryo.registrator=" + REGISTRATOR + ", after a comma if you have registrators of your own)"
        : "set spark.serializer to org.apache.spark.serializer.KryoSerializer or JavaSerializer";
    return "Spark's serializer (" + name + ") cannot carry a beton write task's result to the driver (" + why + "); "
        + fix;
  }
}
