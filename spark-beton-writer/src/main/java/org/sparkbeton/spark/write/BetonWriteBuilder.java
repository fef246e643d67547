package org.sparkbeton.spark.write;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.SupportsTruncate;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.connector.write.streaming.StreamingWrite;
import org.apache.spark.sql.types.StructType;
import org.sparkbeton.format.io.LocalPaths;

/**
 * {@code df.write.format("beton")}'s write: appends shards, or (after {@link #truncate()}, for
 * SaveMode.Overwrite) replaces the dataset; {@code df.writeStream().format("beton")}'s too, a job per micro-batch.
 * Options are parsed and the schema mapped here, on the driver, so a bad or unknown option, or a bad column, fails
 * the query before any task runs.
 */
public final class BetonWriteBuilder implements WriteBuilder, SupportsTruncate {
  private final String dir;
  private final StructType schema;
  private final BetonWriteConf conf;
  private final Configuration hadoopConf;
  private CommitMode mode = CommitMode.APPEND;
  /** The streaming query this write's micro-batches belong to; null for a batch write. */
  private String streamingQuery;

  /**
   * @param options the write options as the user gave them (any key of {@link BetonWriteOptions#ALL}, Spark's
   *     {@code path}, Hadoop settings); the caller leaves out keys of its own
   */
  public BetonWriteBuilder(String dir, StructType schema, Map<String, String> options, Configuration hadoopConf) {
    this.dir = qualified(dir, hadoopConf);
    this.schema = schema;
    this.conf = plan(schema, options);
    this.hadoopConf = hadoopConf;
  }

  /**
   * Parses the options (with the image columns of a beton read and their dataset's image settings added:
   * {@link ReadImageColumns}) and maps the schema, as the write will: throws IllegalArgumentException naming the
   * option or column that is wrong. For callers that settle something else first (the SaveMode against the
   * path) and want a bad option to fail before it.
   */
  public static BetonWriteConf plan(StructType schema, Map<String, String> options) {
    BetonWriteConf conf = BetonWriteConf.parse(ReadImageColumns.options(schema, options));
    BetonSchemaMapping.fields(schema, conf);
    org.sparkbeton.codec.jpeg.JpegCodecs.nativeAvailable(); // loads the codec: a Java fallback logs its WARN on the driver
    return conf;
  }

  /**
   * {@code dir} made absolute on the driver, against its file system and working directory, as Spark's file sources
   * qualify their paths: the tasks resolve it in executors, whose working directories differ (a standalone
   * executor's is its work directory, HDFS's is {@code /user/<the executor's user>}), so a relative
   * {@code save("out")} on a cluster would put the shards in each executor's directory and look for them beside the
   * driver.
   */
  static String qualified(String dir, Configuration hadoopConf) {
    if (LocalPaths.startsWithTilde(dir)) {
      // the shell's ~ is a file name to Hadoop: the write would make a directory named ~ where the driver runs
      throw new IllegalArgumentException("Cannot write a beton dataset to " + dir + ": ~ is a file name to Hadoop,"
          + " not the home directory, so this would create a directory named ~; write "
          + LocalPaths.homeInsteadOfTilde(dir));
    }
    Path path = new Path(dir);
    try {
      return path.getFileSystem(hadoopConf).makeQualified(path).toString();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot resolve " + dir + ": " + e.getMessage(), e);
    }
  }

  /**
   * Makes this the write of a streaming query ({@code df.writeStream()}): {@code queryId} is the query's id, which a
   * restart from its checkpoint keeps (Spark's {@code LogicalWriteInfo.queryId()}).
   */
  public BetonWriteBuilder forStreamingQuery(String queryId) {
    this.streamingQuery = java.util.Objects.requireNonNull(queryId, "queryId");
    return this;
  }

  /**
   * Makes this the write of a new dataset, settled by the SaveMode against a path that held none (ErrorIfExists, or
   * Ignore when {@code ignore}): a dataset another write publishes there meanwhile is not appended to.
   */
  public BetonWriteBuilder asNewDataset(boolean ignore) {
    mode = ignore ? CommitMode.NEW_UNLESS_PUBLISHED_MEANWHILE : CommitMode.NEW;
    return this;
  }

  @Override
  public WriteBuilder truncate() {
    mode = CommitMode.OVERWRITE;
    return this;
  }

  @Override
  public Write build() {
    return new Write() {
      @Override
      public String description() {
        return "beton dataset " + dir + (mode == CommitMode.OVERWRITE ? " (overwrite)" : "");
      }

      @Override
      public BatchWrite toBatch() {
        if (conf.compactEvery > 0) {
          throw new IllegalArgumentException("Option " + BetonWriteOptions.COMPACT_EVERY + " applies to streaming"
              + " writes (writeStream), whose micro-batches make small shards; compact a dataset that batch writes"
              + " made with BetonCompaction.compact");
        }
        return new BetonBatchWrite(dir, schema, conf, hadoopConf, mode);
      }

      @Override
      public StreamingWrite toStreaming() {
        if (streamingQuery == null) {
          throw new IllegalStateException("beton write to " + dir + " was built for a batch write, not a stream");
        }
        return new BetonStreamingWrite(dir, schema, conf, hadoopConf, mode, streamingQuery);
      }

      @Override
      public CustomMetric[] supportedCustomMetrics() {
        return BetonWriteMetrics.supported();
      }
    };
  }
}
