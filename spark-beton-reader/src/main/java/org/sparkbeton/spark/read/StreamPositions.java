package org.sparkbeton.spark.read;

import java.util.List;
import org.apache.hadoop.fs.Path;

/**
 * A stream's positions in one manifest of a dataset: which {@link ShardOffset} is where, and the offset of each
 * position. An offset made from an earlier manifest is found by its shards' names while the manifest still lists them
 * there (appends only add after them); after a compaction renamed them, by its sample count, where the dataset's
 * identity is the offset's; else the dataset was replaced (an overwrite) and the offset is no position in it.
 */
final class StreamPositions {
  /** Shard {@code shard} of the manifest, {@code into} of its samples read. */
  record Position(int shard, long into) {
  }

  private final String root;
  private final List<DatasetInputs.Shard> shards;
  private final String datasetId;
  /** {@code before[i]}: the samples of the shards before shard {@code i}; {@code before[size]}: all of them. */
  private final long[] before;

  StreamPositions(String root, List<DatasetInputs.Shard> shards, String datasetId) {
    this.root = root;
    this.shards = shards;
    this.datasetId = datasetId;
    this.before = new long[shards.size() + 1];
    for (int i = 0; i < shards.size(); i++) {
      before[i + 1] = before[i] + shards.get(i).samples();
    }
  }

  static StreamPositions of(DatasetInputs inputs) {
    String id = inputs.manifest() == null ? null
        : inputs.manifest().recipe().get(org.sparkbeton.format.dataset.DatasetFiles.DATASET_ID);
    return new StreamPositions(inputs.root(), inputs.shards(), id);
  }

  int shardCount() {
    return shards.size();
  }

  /** After the last shard. */
  Position end() {
    return new Position(shards.size(), 0);
  }

  /** The samples before {@code p}. */
  long samplesBefore(Position p) {
    return before[p.shard()] + p.into();
  }

  /** Where {@code offset} is in this manifest; fails where the dataset was replaced since it was made. */
  Position find(ShardOffset offset) {
    int n = offset.shards();
    boolean lastListed = n == 0 || (n <= shards.size() && name(n - 1).equals(offset.last()));
    boolean nextListed = offset.into() == 0
        || (n < shards.size() && name(n).equals(offset.next()) && offset.into() < shards.get(n).samples());
    if (lastListed && nextListed) {
      return new Position(n, offset.into());
    }
    if (offset.dataset() != null && offset.dataset().equals(datasetId) && offset.samples() <= before[shards.size()]) {
      return atSamples(offset.samples());
    }
    String where = offset.into() == 0 ? offset.last() + " as shard " + n
        : offset.next() + " as shard " + (n + 1);
    throw new IllegalStateException("The dataset " + root + " was replaced after this stream read it: its manifest"
        + " (of " + shards.size() + (shards.size() == 1 ? " shard" : " shards") + " now) no longer lists " + where
        + (offset.dataset() != null && datasetId != null
            ? ", and it is another dataset than the one the stream read (" + datasetId + ", not " + offset.dataset()
                + ")" : "")
        + " (an overwrite, or a dataset written anew at the path; a compaction keeps a stream's place). A stream"
        + " reads appends only; start a new query (a new checkpointLocation) to read the dataset as it is now");
  }

  /** The position after the first {@code samples} samples: inside the shard holding the next one, or the end. */
  Position atSamples(long samples) {
    for (int i = 0; i < shards.size(); i++) {
      if (samples < before[i + 1]) {
        return new Position(i, samples - before[i]);
      }
    }
    return end();
  }

  /** The offset of {@code p}, with the sample count and identity that find it again after a compaction. */
  ShardOffset offset(Position p) {
    int n = p.shard();
    if (n == 0 && p.into() == 0 && datasetId == null) {
      return ShardOffset.START;
    }
    return new ShardOffset(n, n == 0 ? null : name(n - 1), p.into(), p.into() == 0 ? null : name(n),
        datasetId == null ? -1 : samplesBefore(p), datasetId);
  }

  private String name(int shard) {
    return new Path(shards.get(shard).path()).getName();
  }
}
