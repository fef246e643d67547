package org.sparkbeton.spark.read;

import java.util.List;
import org.apache.spark.sql.connector.read.InputPartition;

/**
 * One Spark task's input: sample ranges of one or more shards, read in this order (dataset order), one shard
 * open at a time. A large shard's range stands alone; small shards and tails are packed together by
 * {@link SplitPlanner}.
 *
 * @param ranges the pieces, at least one
 * @param hosts hosts holding most of the pieces' bytes, most first (at most 3); empty when unknown
 */
public record BetonInputPartition(List<ShardRange> ranges, String[] hosts) implements InputPartition {
  private static final long serialVersionUID = 1L;

  public BetonInputPartition {
    if (ranges.isEmpty()) {
      throw new IllegalArgumentException("An input partition needs at least one shard range");
    }
    ranges = List.copyOf(ranges);
    hosts = hosts.clone();
  }

  /** Samples of every range together. */
  public long numSamples() {
    long n = 0;
    for (ShardRange r : ranges) {
      n += r.numSamples();
    }
    return n;
  }

  @Override
  public String[] preferredLocations() {
    return hosts.clone();
  }
}
