package org.sparkbeton.spark.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.serializer.JavaSerializer;
import org.apache.spark.serializer.KryoSerializer;
import org.apache.spark.serializer.SerializerInstance;
import org.junit.jupiter.api.Test;
import org.sparkbeton.format.dataset.ShardChecksum;
import org.sparkbeton.format.dataset.ShardEntry;
import scala.reflect.ClassTag$;

/** A commit message through each of Spark's serializers, as a task's result travels; no SparkSession. */
class TaskResultSerializationTest {
  private static SparkConf conf(Map<String, String> settings) {
    SparkConf conf = new SparkConf(false);
    settings.forEach(conf::set);
    return conf;
  }

  private static BetonCommitMessage roundTrip(SerializerInstance s, BetonCommitMessage m) {
    var tag = ClassTag$.MODULE$.<BetonCommitMessage>apply(BetonCommitMessage.class);
    return s.deserialize(s.serialize(m, tag), tag);
  }

  @Test
  void kryoCarriesACommitMessageWithItsShards() {
    ShardEntry shard = new ShardEntry("part-00003-a1b2c3d4-a9-000.beton", 625, 41_943_040L,
        new ShardChecksum(ShardChecksum.SHA256, "ab".repeat(32)), Map.of());
    BetonCommitMessage m = new BetonCommitMessage(3, 9, List.of(shard), 625, 1, 2, "_quarantine/x.jsonl", 2, "codec");
    KryoSerializer kryo = new KryoSerializer(conf(Map.of()));
    assertThat(roundTrip(kryo.newInstance(), m)).isEqualTo(m);
    assertThatCode(() -> TaskResultSerialization.check(kryo, conf(Map.of()))).doesNotThrowAnyException();
    SparkConf java = conf(Map.of());
    assertThatCode(() -> TaskResultSerialization.check(new JavaSerializer(java), java)).doesNotThrowAnyException();
  }

  /** The Kryo settings clusters tune: unsafe streams, no reference tracking, a small starting buffer. */
  @Test
  void kryoWithTunedSettingsCarriesItToo() {
    SparkConf tuned = conf(Map.of("spark.kryo.unsafe", "true", "spark.kryo.referenceTracking", "false",
        "spark.kryoserializer.buffer", "1k"));
    ShardEntry shard = new ShardEntry("part-00000-a1b2c3d4-a0-000.beton", 1, 4096,
        new ShardChecksum(ShardChecksum.SHA256, "cd".repeat(32)), Map.of());
    BetonCommitMessage m = new BetonCommitMessage(0, 0, List.of(shard, shard), 2, 0, 0, null, 0, "x".repeat(3000));
    assertThat(roundTrip(new KryoSerializer(tuned).newInstance(), m)).isEqualTo(m);
    assertThatCode(() -> TaskResultSerialization.check(new KryoSerializer(tuned), tuned)).doesNotThrowAnyException();
  }

  @Test
  void registrationRequiredNeedsTheClassesRegistered() {
    SparkConf required = conf(Map.of("spark.kryo.registrationRequired", "true"));
    assertThatThrownBy(() -> TaskResultSerialization.check(new KryoSerializer(required), required))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Spark's serializer (org.apache.spark.serializer.KryoSerializer) cannot carry a beton write task's"
            + " result to the driver (Class is not registered: org.sparkbeton.spark.write.BetonCommitMessage);"
            + " spark.kryo.registrationRequired is true: add org.sparkbeton.spark.BetonKryoRegistrator to"
            + " spark.kryo.registrator (e.g. --conf spark.kryo.registrator=org.sparkbeton.spark.BetonKryoRegistrator,"
            + " after a comma if you have registrators of your own)");

    SparkConf listed = conf(Map.of("spark.kryo.registrationRequired", "true", "spark.kryo.classesToRegister",
        String.join(",", TaskResultSerialization.classes().stream().map(Class::getName).toList())));
    assertThatCode(() -> TaskResultSerialization.check(new KryoSerializer(listed), listed))
        .doesNotThrowAnyException();
  }
}
