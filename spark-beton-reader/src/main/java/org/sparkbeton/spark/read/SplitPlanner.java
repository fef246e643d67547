package org.sparkbeton.spark.read;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts shards into input partitions: at least one per non-empty shard, and a large shard into sample
 * ranges of about {@code maxPartitionBytes} (estimated from the shard's average bytes per sample),
 * capped at {@code maxSamplesPerPartition}. Metadata records have a fixed width, so any range is as
 * cheap to start as the beginning. Sizes count the bytes a scan will actually read: a metadata-only scan
 * (scalar columns, image sizes, {@code count()}) reads about {@value #METADATA_BYTES_PER_SAMPLE} bytes
 * per sample however large the payloads are, so it gets far fewer, larger splits.
 */
public final class SplitPlanner {
  /** Where the bytes {@code [start, start+length)} of a file live; empty when unknown. */
  @FunctionalInterface
  public interface BlockLocator {
    String[] hosts(String path, long start, long length);
  }

  /** Upper estimate of a metadata record (FFCV records are 8 to a few dozen bytes). */
  public static final long METADATA_BYTES_PER_SAMPLE = 64;

  private SplitPlanner() {}

  /**
   * @param metadataOnly true when the scan reads no payload, so splits are sized by metadata bytes
   */
  public static List<BetonInputPartition> plan(List<DatasetInputs.Shard> shards, List<Integer> shardIndices,
      ReadConf conf, boolean metadataOnly, BlockLocator locator) {
    List<BetonInputPartition> out = new ArrayList<>();
    for (int index : shardIndices) {
      DatasetInputs.Shard s = shards.get(index);
      long n = s.samples();
      if (n == 0) {
        continue;
      }
      long bytesPerSample = metadataOnly ? METADATA_BYTES_PER_SAMPLE : Math.max(1, s.bytes() / n);
      long perSplit = Math.max(1, Math.min(conf.maxSamplesPerPartition(), conf.maxPartitionBytes() / bytesPerSample));
      for (long from = 0; from < n; from += perSplit) {
        long to = Math.min(n, from + perSplit);
        long byteStart = (long) ((double) s.bytes() * from / n);
        long byteEnd = (long) ((double) s.bytes() * to / n);
        String[] hosts = locator.hosts(s.path(), byteStart, Math.max(1, byteEnd - byteStart));
        out.add(new BetonInputPartition(s.path(), index, from, to, s.listedInManifest() ? s.bytes() : -1,
            s.listedInManifest() ? s.samples() : -1, hosts == null ? new String[0] : hosts, s.pages()));
      }
    }
    return out;
  }
}
