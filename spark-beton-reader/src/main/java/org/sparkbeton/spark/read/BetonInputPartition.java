package org.sparkbeton.spark.read;

import org.apache.spark.sql.connector.read.InputPartition;
import org.sparkbeton.format.dataset.PageChecksums;

/**
 * Samples {@code [fromSample, toSample)} of one shard file.
 *
 * @param expectedBytes the shard's size per the manifest, or -1 to skip the check
 * @param expectedSamples the shard's sample count per the manifest, or -1 to skip the check
 * @param hosts hosts holding the blocks of the split's part of the file, most data first
 * @param pages the shard's page checksums from the manifest, or null when it has none
 */
public record BetonInputPartition(String path, int shardIndex, long fromSample, long toSample, long expectedBytes,
    long expectedSamples, String[] hosts, PageChecksums pages) implements InputPartition {

  /** A split without page checksums. */
  public BetonInputPartition(String path, int shardIndex, long fromSample, long toSample, long expectedBytes,
      long expectedSamples, String[] hosts) {
    this(path, shardIndex, fromSample, toSample, expectedBytes, expectedSamples, hosts, null);
  }

  public long numSamples() {
    return toSample - fromSample;
  }

  @Override
  public String[] preferredLocations() {
    return hosts.clone();
  }
}
