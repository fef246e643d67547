package org.sparkbeton.spark.write;

import java.util.List;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.sparkbeton.format.dataset.ShardEntry;

/**
 * What one committed task attempt wrote: small, sent to the driver.
 *
 * @param quarantineFile the attempt's file under {@code _quarantine/}, or null when it quarantined nothing
 * @param codec the JPEG codec the executor used ({@code JpegCodecs.description()}), for the recipe
 */
record BetonCommitMessage(int partition, long taskAttempt, List<ShardEntry> shards, long samples, long skippedNulls,
    long skippedBadImages, String quarantineFile, long quarantined, String codec) implements WriterCommitMessage {
}
