package org.sparkbeton.spark.read;

import org.apache.spark.sql.connector.read.InputPartition;

/**
 * Samples {@code [fromSample, toSample)} of one shard file.
 *
 * @param expectedBytes the shard's size per the manifest, or -1 to skip the check
 * @param expectedSamples the shard's sample count per the manifest, or -1 to skip the check
 * @param hosts hosts holding the blocks of the split's part of the file, most data first
 */
public record BetonInputPartition(String path, int shardIndex, long fromSample, long toSample, long expectedBytes,
    long expectedSamples, String[] hosts) implements InputPartition {

  public long numSamples() {
    return toSample - fromSample;
  }

  @Override
  public String[] preferredLocations() {
    return hosts.clone();
  }
}
