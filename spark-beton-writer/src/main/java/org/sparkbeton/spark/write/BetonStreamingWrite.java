package org.sparkbeton.spark.write;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.connector.write.streaming.StreamingDataWriterFactory;
import org.apache.spark.sql.connector.write.streaming.StreamingWrite;
import org.apache.spark.sql.types.StructType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code df.writeStream().format("beton")}: each micro-batch is a write job of its own, as a batch write is
 * ({@link BetonBatchWrite}: attempt-unique shards, a job marker, the manifest published by the driver), appending its
 * rows to the dataset (Append output mode) or replacing the dataset with them (Complete mode). Exactly once across
 * restarts: a batch that Spark runs again because its checkpoint lost the batch's commit, after the dataset published
 * it, publishes nothing and deletes its shards ({@link StreamBatch}). With {@link BetonWriteOptions#COMPACT_EVERY}
 * the dataset is compacted after every so many batches.
 */
final class BetonStreamingWrite implements StreamingWrite {
  private static final Logger LOG = LoggerFactory.getLogger(BetonStreamingWrite.class);
  private final String dir;
  private final StructType schema;
  private final BetonWriteConf conf;
  private final Configuration hadoopConf;
  private final CommitMode mode;
  private final String queryId;
  /** The micro-batch between its writers' factory and its commit or abort: Spark runs one batch at a time. */
  private BetonBatchWrite running;

  BetonStreamingWrite(String dir, StructType schema, BetonWriteConf conf, Configuration hadoopConf, CommitMode mode,
      String queryId) {
    this.dir = dir;
    this.schema = schema;
    this.conf = conf;
    this.hadoopConf = hadoopConf;
    this.mode = mode;
    this.queryId = queryId;
  }

  @Override
  public synchronized StreamingDataWriterFactory createStreamingWriterFactory(PhysicalWriteInfo info) {
    BetonBatchWrite batch = new BetonBatchWrite(dir, schema, conf, hadoopConf, mode);
    DataWriterFactory writers = batch.createBatchWriterFactory(info);
    running = batch;
    return new BatchWriters(writers);
  }

  @Override
  public boolean useCommitCoordinator() {
    return true;
  }

  @Override
  public void commit(long epochId, WriterCommitMessage[] messages) {
    BetonBatchWrite batch = current(epochId);
    batch.commit(messages, new StreamBatch(queryId, epochId));
    ended(batch); // not before: a commit that throws is followed by Spark's abort, which deletes the batch's files
    if (conf.compactEvery > 0 && (epochId + 1) % conf.compactEvery == 0) {
      compact(epochId);
    }
  }

  /**
   * {@link BetonWriteOptions#COMPACT_EVERY}: the dataset compacted on the driver, between this batch and the next.
   * The batch is published already, so a compaction that fails is logged and the stream goes on.
   */
  private void compact(long epochId) {
    try {
      BetonCompaction.Result r = BetonCompaction.compact(SparkSession.active(), dir, conf.targetShardSize,
          conf.keepReplacedMillis, conf.manifestLockTimeoutMillis, hadoopConf);
      LOG.info("beton streaming write to {}: after batch {}, {} shards compacted into {}", dir, epochId,
          r.shardsBefore(), r.shardsAfter());
    } catch (IOException | RuntimeException e) {
      LOG.warn("beton streaming write to {}: the compaction after batch {} failed; the stream goes on, and the next"
          + " one tries again", dir, epochId, e);
    }
  }

  @Override
  public void abort(long epochId, WriterCommitMessage[] messages) {
    BetonBatchWrite batch = current(epochId);
    ended(batch);
    batch.abort(messages);
  }

  /**
   * The batch Spark ends now. A commit that fails (the manifest's lock not got in time) keeps it for the abort that
   * follows: taken by the commit, the abort found none and threw, and the batch's shards stayed unlisted.
   */
  private synchronized BetonBatchWrite current(long epochId) {
    BetonBatchWrite batch = running;
    if (batch == null) {
      throw new IllegalStateException("beton streaming write to " + dir + ": batch " + epochId + " ends, but no batch"
          + " of it was started");
    }
    return batch;
  }

  private synchronized void ended(BetonBatchWrite batch) {
    if (running == batch) {
      running = null;
    }
  }

  /** The writers of one micro-batch: the batch write's, whose tasks know their job, not the batch's number. */
  private record BatchWriters(DataWriterFactory batch) implements StreamingDataWriterFactory {
    @Override
    public DataWriter<InternalRow> createWriter(int partitionId, long taskId, long epochId) {
      return batch.createWriter(partitionId, taskId);
    }
  }
}
