package org.sparkbeton.spark.write;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.TaskContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.SerializableConfiguration;

/**
 * Serialised to executors with every task: target directory, job id, schema, options, and the Hadoop configuration
 * as a broadcast (read once per executor).
 */
final class BetonDataWriterFactory implements DataWriterFactory {
  private static final long serialVersionUID = 1L;

  private final String dir;
  private final String jobId;
  private final StructType schema;
  private final BetonWriteConf conf;
  private final Broadcast<SerializableConfiguration> hadoopConf;

  BetonDataWriterFactory(String dir, String jobId, StructType schema, BetonWriteConf conf,
      Broadcast<SerializableConfiguration> hadoopConf) {
    this.dir = dir;
    this.jobId = jobId;
    this.schema = schema;
    this.conf = conf;
    this.hadoopConf = hadoopConf;
  }

  @Override
  public DataWriter<InternalRow> createWriter(int partitionId, long taskId) {
    Path path = new Path(dir);
    try {
      FileSystem fs = path.getFileSystem(hadoopConf.value().value());
      TaskContext task = TaskContext.get();
      if (task != null && task.attemptNumber() > 0) {
        task.killTaskIfInterrupted(); // the job was cancelled while this retry started
        endIfNoted(new BadRowNote(fs, path, jobId, partitionId), task);
      }
      return new BetonDataWriter(fs, path, jobId, partitionId, taskId, schema, conf);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot open " + dir + " for writing", e);
    }
  }

  /**
   * Ends a retry whose partition an earlier attempt found a bad row in, before it reads a row: killed by the job's
   * cancellation where the save's driver watches for bad rows, else (or if none comes) failed with the noted row.
   */
  private static void endIfNoted(BadRowNote note, TaskContext task) throws IOException {
    BadRow noted = note.read();
    if (noted == null) {
      return;
    }
    if (task.getLocalProperty(BadRowNote.WATCHED_PROPERTY) != null
        && BadRowNote.awaitKill(task::isInterrupted, BadRowNote.CANCEL_WAIT_MILLIS)) {
      task.killTaskIfInterrupted();
    }
    throw (RuntimeException) noted;
  }
}
