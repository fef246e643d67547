package org.sparkbeton.spark.read;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.streaming.MicroBatchStream;
import org.apache.spark.sql.connector.read.streaming.Offset;
import org.apache.spark.sql.connector.read.streaming.ReadLimit;
import org.apache.spark.sql.connector.read.streaming.ReadMaxFiles;
import org.apache.spark.sql.connector.read.streaming.ReportsSourceMetrics;
import org.apache.spark.sql.connector.read.streaming.SupportsTriggerAvailableNow;
import org.apache.spark.sql.types.StructType;

/**
 * The read of {@code spark.readStream().format("beton").load(dir)}: the dataset's samples, then those of every append
 * after them, each micro-batch the shards published since the last ({@link ShardOffset}), read as a batch read
 * reads them ({@link BetonBatch}). What the dataset held when the query started comes in its first batch (or, with
 * {@link BetonReadOptions#MAX_SHARDS_PER_TRIGGER}, its first batches), unless
 * {@link BetonReadOptions#STARTING_POSITION} is {@code latest}. The manifest is read again only when it
 * changed (one status call per trigger). A compaction ({@code BetonCompaction}) under the stream changes nothing it
 * reads: offsets find their place again by their sample count ({@link StreamPositions}), and a batch may then start or
 * end inside a merged shard. A dataset replaced under the stream (an overwrite) fails the query: its samples are no
 * longer those the offsets count, and reading on would skip or repeat samples.
 */
public final class BetonMicroBatchStream implements MicroBatchStream, SupportsTriggerAvailableNow,
    ReportsSourceMetrics {
  private final BetonSchema schema;
  private final StructType required;
  private final ReadConf conf;
  private final Configuration hadoopConf;
  private DatasetInputs inputs;
  /** The dataset as the stream's schema was made from it, whose column types every batch's shards must have. */
  private final DatasetInputs schemaInputs;
  /** With {@code Trigger.AvailableNow()}: the samples there when the query started, the most it reads; else -1. */
  private long availableNow = -1;

  BetonMicroBatchStream(DatasetInputs inputs, BetonSchema schema, StructType required, ReadConf conf,
      Configuration hadoopConf) {
    if (inputs.manifest() == null) {
      throw new UnsupportedOperationException("spark.readStream().format(\"beton\") reads a dataset directory, whose"
          + " manifest lists the shards each write appends; " + inputs.root() + " is a .beton file, a glob or several"
          + " paths. Read it with spark.read()");
    }
    this.inputs = inputs;
    this.schemaInputs = inputs;
    this.schema = schema;
    this.required = required;
    this.conf = conf;
    this.hadoopConf = hadoopConf;
  }

  /** Where a query without a checkpoint starts: before the first shard, or with {@code latest} after the last. */
  @Override
  public Offset initialOffset() {
    if (!conf.startAtLatest()) {
      return ShardOffset.START;
    }
    inputs = inputs.current(hadoopConf);
    StreamPositions positions = StreamPositions.of(inputs);
    return positions.offset(positions.end());
  }

  @Override
  public ReadLimit getDefaultReadLimit() {
    return readLimit(conf);
  }

  /** The shards a trigger reads at most: {@link BetonReadOptions#MAX_SHARDS_PER_TRIGGER}, else all there are. */
  public static ReadLimit readLimit(ReadConf conf) {
    return conf.maxShardsPerTrigger() > 0 ? ReadLimit.maxFiles(conf.maxShardsPerTrigger()) : ReadLimit.allAvailable();
  }

  /**
   * Before the dataset's first shard, whatever {@link BetonReadOptions#STARTING_POSITION} says: where a query starts
   * that began before the dataset had been written, so that it reads the first write too.
   */
  public Offset beforeFirstShard() {
    return ShardOffset.START;
  }

  /** Spark asks a source with admission control for {@link #latestOffset(Offset, ReadLimit)} instead. */
  @Override
  public Offset latestOffset() {
    throw new UnsupportedOperationException("latestOffset(start, limit) is the one a stream with a read limit takes");
  }

  /**
   * The shards published after {@code start}, at most the limit's number of them (a shard {@code start} is inside
   * counts as one); {@code start} itself where there is nothing new.
   */
  @Override
  public Offset latestOffset(Offset start, ReadLimit limit) {
    inputs = inputs.current(hadoopConf);
    StreamPositions positions = StreamPositions.of(inputs);
    StreamPositions.Position from = positions.find((ShardOffset) start);
    StreamPositions.Position end = availableNow >= 0 ? positions.atSamples(availableNow) : positions.end();
    if (limit instanceof ReadMaxFiles max && end.shard() > from.shard() + (long) max.maxFiles()) {
      end = new StreamPositions.Position(from.shard() + max.maxFiles(), 0);
    }
    return positions.samplesBefore(end) <= positions.samplesBefore(from) ? start : positions.offset(end);
  }

  /** {@code Trigger.AvailableNow()}: what is there now, in batches of at most the limit's shards, then the end. */
  @Override
  public void prepareForTriggerAvailableNow() {
    inputs = inputs.current(hadoopConf);
    StreamPositions positions = StreamPositions.of(inputs);
    availableNow = positions.samplesBefore(positions.end());
  }

  @Override
  public InputPartition[] planInputPartitions(Offset start, Offset end) {
    inputs = inputs.current(hadoopConf);
    StreamPositions positions = StreamPositions.of(inputs);
    StreamPositions.Position from = positions.find((ShardOffset) start);
    StreamPositions.Position to = positions.find((ShardOffset) end);
    schemaInputs.requireSameColumnTypes(inputs, "this stream", "Restart the query to read it with the types it"
        + " records now");
    List<SplitPlanner.Slice> slices = new ArrayList<>();
    for (int i = from.shard(); i <= to.shard() && i < positions.shardCount(); i++) {
      long first = i == from.shard() ? from.into() : 0;
      long last = i == to.shard() ? to.into() : inputs.shards().get(i).samples();
      if (last > first) {
        slices.add(new SplitPlanner.Slice(i, first, last));
      }
    }
    return new BetonBatch(inputs, schema, required, List.of(), conf, hadoopConf).planInputPartitions(slices);
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    return new BetonBatch(inputs, schema, required, List.of(), conf, hadoopConf).createReaderFactory();
  }

  /**
   * How far the query is behind the dataset as its last trigger found it: the shards, and their samples, published
   * after the offset it last consumed ({@code shardsBehindLatest}, {@code samplesBehindLatest}). Spark puts them in
   * each progress's source metrics, as Kafka's source reports its offsets behind latest: a dashboard sees a stream
   * keep up with its writers, or not.
   */
  @Override
  public Map<String, String> metrics(Optional<Offset> latestConsumedOffset) {
    StreamPositions positions = StreamPositions.of(inputs);
    StreamPositions.Position consumed;
    try {
      consumed = latestConsumedOffset.map(o -> positions.find(ShardOffset.parse(o.json())))
          .orElse(new StreamPositions.Position(0, 0));
    } catch (IllegalStateException e) {
      return Map.of(); // the dataset was replaced: the next trigger fails the query, saying so
    }
    return Map.of(SHARDS_BEHIND_LATEST, Integer.toString(positions.shardCount() - consumed.shard()),
        SAMPLES_BEHIND_LATEST, Long.toString(positions.samplesBefore(positions.end())
            - positions.samplesBefore(consumed)));
  }

  /** Source metric: shards published after the last offset the query consumed. */
  public static final String SHARDS_BEHIND_LATEST = "shardsBehindLatest";
  /** Source metric: samples in those shards. */
  public static final String SAMPLES_BEHIND_LATEST = "samplesBehindLatest";

  @Override
  public Offset deserializeOffset(String json) {
    return ShardOffset.parse(json);
  }

  /** Nothing to release: shards are never deleted for a stream, and its files are opened by the tasks. */
  @Override
  public void commit(Offset end) {}

  @Override
  public void stop() {}
}
