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
 * @param origin where the shard's samples lie in its dataset, or null where the query reads files or a dataset
 *     without an identity: with it, a shard a compaction replaced and deleted while the query ran is found again
 *     ({@link ShardRelocation})
 */
public record ShardRange(String path, int shardIndex, long fromSample, long toSample, long expectedBytes,
    long expectedSamples, PageChecksums pages, Origin origin) implements Serializable {
  private static final long serialVersionUID = 1L;

  /**
   * A shard's place in a dataset directory: the directory, the dataset's identity when the query planned it
   * ({@code dataset_id}) and the index of the shard's first sample in the dataset.
   */
  public record Origin(String dataset, String datasetId, long firstSample) implements Serializable {
    private static final long serialVersionUID = 1L;
  }

  public ShardRange {
    if (fromSample < 0 || toSample < fromSample) {
      throw new IllegalArgumentException("Sample range [" + fromSample + ", " + toSample + ") of " + path
          + " is not a range of sample indices");
    }
  }

  /** A range without an origin. */
  public ShardRange(String path, int shardIndex, long fromSample, long toSample, long expectedBytes,
      long expectedSamples, PageChecksums pages) {
    this(path, shardIndex, fromSample, toSample, expectedBytes, expectedSamples, pages, null);
  }

  /** A range without page checksums or an origin. */
  public ShardRange(String path, int shardIndex, long fromSample, long toSample, long expectedBytes,
      long expectedSamples) {
    this(path, shardIndex, fromSample, toSample, expectedBytes, expectedSamples, null, null);
  }

  /** This range with {@code origin}. */
  public ShardRange withOrigin(Origin origin) {
    return new ShardRange(path, shardIndex, fromSample, toSample, expectedBytes, expectedSamples, pages, origin);
  }

  public long numSamples() {
    return toSample - fromSample;
  }
}
