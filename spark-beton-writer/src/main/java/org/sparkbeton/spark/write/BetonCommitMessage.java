package org.sparkbeton.spark.write;

import java.util.List;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.sparkbeton.format.dataset.ShardEntry;

/** What one committed task attempt wrote: small, sent to the driver. */
record BetonCommitMessage(int partition, long taskAttempt, List<ShardEntry> shards, long samples, long skippedNulls,
    long skippedBadImages) implements WriterCommitMessage {
}
