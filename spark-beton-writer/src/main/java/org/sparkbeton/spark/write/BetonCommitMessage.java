package org.sparkbeton.spark.write;

import com.esotericsoftware.kryo.DefaultSerializer;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import java.util.List;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.sparkbeton.format.dataset.ShardEntry;

/**
 * What one committed task attempt wrote: small, sent to the driver.
 *
 * <p>Spark sends a task's result through its configured serializer. Kryo's default serializer cannot handle a record
 * (it fails on its final fields), so under {@code spark.serializer=KryoSerializer} this class asks Kryo to write it
 * with Java serialization; {@link TaskResultSerialization} checks on the driver that the serializer can carry it.
 *
 * @param quarantineFile the attempt's file under {@code _quarantine/}, or null when it quarantined nothing
 * @param codec the JPEG codec the executor used ({@code JpegCodecs.description()}), for the recipe
 */
@DefaultSerializer(JavaSerializer.class)
record BetonCommitMessage(int partition, long taskAttempt, List<ShardEntry> shards, long samples, long skippedNulls,
    long skippedBadImages, String quarantineFile, long quarantined, String codec) implements WriterCommitMessage {
}
