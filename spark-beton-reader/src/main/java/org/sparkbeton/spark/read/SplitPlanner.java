package org.sparkbeton.spark.read;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Plans a scan's input partitions the way Spark's file sources do ({@code FilePartition.getFilePartitions}), with
 * shard order kept. The split size is Spark's: {@code min(maxPartitionBytes, max(openCostInBytes, total /
 * minPartitionNum))}, where {@code total} is the bytes the scan reads plus {@code openCostInBytes} per shard. A
 * shard larger than that is cut into sample ranges of about that many bytes (estimated from its average bytes per
 * sample; metadata records have a fixed width, so any range is as cheap to start as the beginning); then
 * consecutive ranges (whole small shards, tails of large ones) are packed into one partition while its bytes, each
 * range charged {@code openCostInBytes} extra, stay within the split size (Spark's "next fit", without its sort by
 * size, so a partition's rows come in dataset order). Both are capped at {@code maxSamplesPerPartition} samples.
 * Sizes count the bytes a scan will actually read: a metadata-only scan (scalar columns, image sizes, {@code
 * count()}) reads about {@value #METADATA_BYTES_PER_SAMPLE} bytes per sample however large the payloads are, so it
 * gets far fewer, larger partitions.
 */
public final class SplitPlanner {
  /** Where the bytes of a file live. */
  @FunctionalInterface
  public interface BlockLocator {
    /** The bytes of {@code [start, start+length)} of {@code path} that each host holds; empty (or null) when unknown. */
    Map<String, Long> bytesByHost(String path, long start, long length);
  }

  /** Upper estimate of a metadata record (FFCV records are 8 to a few dozen bytes). */
  public static final long METADATA_BYTES_PER_SAMPLE = 64;
  /** Preferred locations per partition, as Spark's {@code FilePartition}. */
  static final int MAX_HOSTS = 3;

  private SplitPlanner() {}

  /** Samples {@code [from, to)} of shard {@code shard}: what a stream's batch reads of a shard it starts or ends in. */
  public record Slice(int shard, long from, long to) {
  }

  /**
   * @param shardIndices the shards to read (after pruning), in dataset order
   * @param metadataOnly true when the scan reads no payload, so sizes count metadata bytes
   */
  public static List<BetonInputPartition> plan(List<DatasetInputs.Shard> shards, List<Integer> shardIndices,
      ReadConf conf, boolean metadataOnly, BlockLocator locator) {
    List<Slice> whole = new ArrayList<>();
    for (int index : shardIndices) {
      whole.add(new Slice(index, 0, shards.get(index).samples()));
    }
    return planSlices(shards, whole, conf, metadataOnly, locator);
  }

  /** As {@link #plan}, for parts of shards ({@code slices}, in dataset order). */
  public static List<BetonInputPartition> planSlices(List<DatasetInputs.Shard> shards, List<Slice> slices,
      ReadConf conf, boolean metadataOnly, BlockLocator locator) {
    long total = 0;
    for (Slice slice : slices) {
      DatasetInputs.Shard s = shards.get(slice.shard());
      long n = slice.to() - slice.from();
      if (n > 0) {
        total += (metadataOnly ? n * METADATA_BYTES_PER_SAMPLE : s.bytes() * n / Math.max(1, s.samples()))
            + conf.openCostInBytes();
      }
    }
    long splitBytes = splitBytes(total, conf);
    Packer packer = new Packer(splitBytes, conf.openCostInBytes(), conf.maxSamplesPerPartition());
    for (Slice slice : slices) {
      int index = slice.shard();
      DatasetInputs.Shard s = shards.get(index);
      long n = s.samples();
      if (slice.to() <= slice.from()) {
        continue;
      }
      long bytesPerSample = metadataOnly ? METADATA_BYTES_PER_SAMPLE : Math.max(1, s.bytes() / n);
      long perSplit = Math.max(1, Math.min(conf.maxSamplesPerPartition(), splitBytes / bytesPerSample));
      for (long from = slice.from(); from < slice.to(); from += perSplit) {
        long to = Math.min(slice.to(), from + perSplit);
        long byteStart = (long) ((double) s.bytes() * from / n);
        long byteEnd = (long) ((double) s.bytes() * to / n);
        long scanned = metadataOnly ? (to - from) * METADATA_BYTES_PER_SAMPLE : byteEnd - byteStart;
        Map<String, Long> hosts = locator.bytesByHost(s.path(), byteStart, Math.max(1, byteEnd - byteStart));
        packer.add(new ShardRange(s.path(), index, from, to, s.listedInManifest() ? s.bytes() : -1,
            s.listedInManifest() ? s.samples() : -1, s.pages()), scanned, hosts);
      }
    }
    return packer.finish();
  }

  /** Spark's split size for a scan of {@code totalBytes} (open costs included). */
  static long splitBytes(long totalBytes, ReadConf conf) {
    return Math.min(conf.maxPartitionBytes(), Math.max(conf.openCostInBytes(), totalBytes / conf.minPartitionNum()));
  }

  /** Next fit, in order: a range joins the open partition if it still fits, else the partition is closed. */
  private static final class Packer {
    private final long splitBytes;
    private final long openCost;
    private final long maxSamples;
    private final List<BetonInputPartition> out = new ArrayList<>();
    private final List<ShardRange> ranges = new ArrayList<>();
    private final Map<String, Long> hostBytes = new LinkedHashMap<>();
    private long bytes;
    private long samples;

    Packer(long splitBytes, long openCost, long maxSamples) {
      this.splitBytes = splitBytes;
      this.openCost = openCost;
      this.maxSamples = maxSamples;
    }

    void add(ShardRange range, long scanned, Map<String, Long> hosts) {
      if (!ranges.isEmpty() && (bytes + scanned > splitBytes || samples + range.numSamples() > maxSamples)) {
        close();
      }
      ranges.add(range);
      bytes += scanned + openCost;
      samples += range.numSamples();
      if (hosts != null) {
        hosts.forEach((h, b) -> hostBytes.merge(h, b, Long::sum));
      }
    }

    private void close() {
      List<Map.Entry<String, Long>> ranked = new ArrayList<>(hostBytes.entrySet());
      ranked.sort(Map.Entry.<String, Long>comparingByValue().reversed());
      String[] hosts = ranked.stream().limit(MAX_HOSTS).map(Map.Entry::getKey).toArray(String[]::new);
      out.add(new BetonInputPartition(ranges, hosts));
      ranges.clear();
      hostBytes.clear();
      bytes = 0;
      samples = 0;
    }

    List<BetonInputPartition> finish() {
      if (!ranges.isEmpty()) {
        close();
      }
      return out;
    }
  }
}
