package org.sparkbeton.spark.write;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.sparkbeton.format.ByteSizes;
import org.sparkbeton.format.dataset.ShardEntry;

/**
 * Advice after a write that made many small shards: a task writes at least one shard per non-empty partition, so a
 * DataFrame of many small partitions (a fine-grained listing, a join, 200 shuffle partitions of a small table) makes
 * as many small files. Each is opened by every read and by the loader's build, and small files crowd HDFS's NameNode.
 */
final class ShardSizeAdvice {
  /** Fewer shards than this are never too many. */
  static final int MIN_SHARDS = 32;
  /** Shards smaller than this on average are small. */
  static final long SMALL_BYTES = 4L << 20;
  /** The shard size the advice aims at. */
  static final long AIM_BYTES = 128L << 20;

  private ShardSizeAdvice() {}

  /** The advice for the shards one write made, or none. */
  static Optional<String> of(List<ShardEntry> written) {
    long bytes = 0;
    long samples = 0;
    for (ShardEntry s : written) {
      bytes += s.bytes();
      samples += s.samples();
    }
    int shards = written.size();
    if (shards < MIN_SHARDS || bytes >= SMALL_BYTES * shards) {
      return Optional.empty();
    }
    long partitions = Math.max(1, (bytes + AIM_BYTES - 1) / AIM_BYTES);
    return Optional.of(String.format(Locale.ROOT, "%,d shards of %s and %,d samples on average: small shards slow every"
        + " open of the dataset (reads and the loader open each one) and crowd a file system's metadata; a write of"
        + " the DataFrame in about %d partition%s (df.coalesce(%d), or df.repartition(%d) when its partitions are"
        + " uneven) makes shards of about %s; BetonCompaction.compact merges those written", shards, ByteSizes.human(bytes / shards), samples / shards, partitions,
        partitions == 1 ? "" : "s", partitions, partitions, ByteSizes.human(Math.min(bytes, AIM_BYTES))));
  }
}
