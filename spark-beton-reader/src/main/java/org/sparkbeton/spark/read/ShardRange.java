package org.sparkbeton.spark.read;

import java.io.Serializable;
import org.sparkbeton.format.dataset.PageChecksums;

/**
 * Samples {@code [fromSample, toSample)} of one shard file: one piece of a {@link BetonInputPartition}.
 *
 * @param shardIndex the shard's index in the dataset's inputs
 * @param expectedBytes the shard's size per the manifest, or -1 to skip the check
 * @param expectedSamples the shard's sample count per the manifest, or -1 to skip the check
 * @param pages the shard's page checksums from the manifest, or null when it has none
 */
public record ShardRange(String path, int shardIndex, long fromSample, long toSample, long expectedBytes,
    long expectedSamples, PageChecksums pages) implements Serializable {
  private static final long serialVersionUID = 1L;

  public ShardRange {
    if (fromSample < 0 || toSample < fromSample) {
      throw new IllegalArgumentException("Sample range [" + fromSample + ", " + toSample + ") of " + path
          + " is not a range of sample indices");
    }
  }

  /** A range without page checksums. */
  public ShardRange(String path, int shardIndex, long fromSample, long toSample, long expectedBytes,
      long expectedSamples) {
    this(path, shardIndex, fromSample, toSample, expectedBytes, expectedSamples, null);
  }

  public long numSamples() {
    return toSample - fromSample;
  }
}
