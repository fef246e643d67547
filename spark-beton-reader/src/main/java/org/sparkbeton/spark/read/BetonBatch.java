package org.sparkbeton.spark.read;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.SerializableConfiguration;
import org.sparkbeton.format.dataset.DatasetFiles;
import org.sparkbeton.format.dataset.DatasetManifest;

/**
 * Plans input partitions ({@link SplitPlanner}, with block locations where the file system has them) and ships the
 * reader factory.
 */
public final class BetonBatch implements Batch {
  private final DatasetInputs inputs;
  private final BetonSchema schema;
  private final StructType required;
  private final List<Integer> kept;
  private final ReadConf conf;
  private final Configuration hadoopConf;

  BetonBatch(DatasetInputs inputs, BetonSchema schema, StructType required, List<Integer> kept, ReadConf conf,
      Configuration hadoopConf) {
    this.inputs = inputs;
    this.schema = schema;
    this.required = required;
    this.kept = kept;
    this.conf = conf;
    this.hadoopConf = hadoopConf;
  }

  @Override
  public InputPartition[] planInputPartitions() {
    return withOrigins(SplitPlanner.plan(inputs.shards(), kept, conf, metadataOnly(), this::hosts));
  }

  /** The partitions of parts of shards: a stream's batch that starts or ends inside a shard. */
  InputPartition[] planInputPartitions(List<SplitPlanner.Slice> slices) {
    return withOrigins(SplitPlanner.planSlices(inputs.shards(), slices, conf, metadataOnly(), this::hosts));
  }

  /**
   * The partitions with each range's place in its dataset ({@link ShardRange.Origin}), where the query reads one
   * dataset directory that has an identity: a task then finds a shard a compaction deleted while the query ran.
   */
  private InputPartition[] withOrigins(List<BetonInputPartition> planned) {
    String id = inputs.manifest() == null ? null : inputs.manifest().recipe().get(DatasetFiles.DATASET_ID);
    if (id == null) {
      return planned.toArray(new InputPartition[0]);
    }
    long[] first = new long[inputs.shards().size()];
    for (int i = 1; i < first.length; i++) {
      first[i] = first[i - 1] + inputs.shards().get(i - 1).samples();
    }
    InputPartition[] out = new InputPartition[planned.size()];
    for (int p = 0; p < out.length; p++) {
      BetonInputPartition part = planned.get(p);
      List<ShardRange> ranges = new ArrayList<>();
      for (ShardRange r : part.ranges()) {
        ranges.add(r.withOrigin(new ShardRange.Origin(inputs.root(), id, first[r.shardIndex()])));
      }
      out[p] = new BetonInputPartition(ranges, part.hosts());
    }
    return out;
  }

  private boolean metadataOnly() {
    boolean metadataOnly = true;
    for (String column : required.fieldNames()) {
      metadataOnly &= schema.column(column).metadataOnly();
    }
    return metadataOnly;
  }

  private final Map<String, FileStatus> statuses = new HashMap<>();

  /** Bytes of the range on each host (Hadoop's {@code localhost} dropped, as Spark's file sources do). */
  private Map<String, Long> hosts(String path, long start, long length) {
    try {
      Path p = new Path(path);
      FileSystem fs = p.getFileSystem(hadoopConf);
      if (!namesHosts(fs)) {
        return Map.of();
      }
      FileStatus status = statuses.get(path);
      if (status == null) {
        status = fs.getFileStatus(p);
        statuses.put(path, status);
      }
      BlockLocation[] blocks = fs.getFileBlockLocations(status, start, length);
      Map<String, Long> bytesByHost = new LinkedHashMap<>();
      for (BlockLocation b : blocks) {
        long overlap = Math.min(b.getOffset() + b.getLength(), start + length) - Math.max(b.getOffset(), start);
        for (String h : b.getHosts()) {
          if (!h.equals("localhost")) {
            bytesByHost.merge(h, Math.max(0, overlap), Long::sum);
          }
        }
      }
      return bytesByHost;
    } catch (IOException e) {
      return Map.of(); // locality is a hint; the task will report the real error
    }
  }

  /**
   * Whether {@code fs}'s block locations can name a host: {@link FileSystem}'s own {@code getFileBlockLocations}, which
   * object stores such as S3A keep, names only {@code localhost} (dropped above) whatever the file, so for them the
   * status call per shard is skipped: on S3 a HEAD request each, one after the other on the driver, for every shard of
   * every query.
   */
  static boolean namesHosts(FileSystem fs) {
    try {
      return fs.getClass().getMethod("getFileBlockLocations", FileStatus.class, long.class, long.class)
          .getDeclaringClass() != FileSystem.class;
    } catch (NoSuchMethodException e) {
      return true;
    }
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    SparkSession spark = SparkSession.active();
    Broadcast<SerializableConfiguration> hadoop =
        JavaSparkContext.fromSparkContext(spark.sparkContext()).broadcast(new SerializableConfiguration(hadoopConf));
    String fieldsJson = new DatasetManifest(inputs.fields(), List.of(), Map.of(), "spark-beton reader").toJson();
    return new BetonPartitionReaderFactory(hadoop, conf, fieldsJson, required);
  }
}
