package org.sparkbeton.spark.read;

import org.apache.spark.sql.connector.metric.CustomSumMetric;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;

/** The read metrics shown in the Spark UI's SQL tab (and in {@code BatchScanExec.metrics()}). */
public final class BetonMetrics {
  public static final String SAMPLES_READ = "samplesRead";
  public static final String BYTES_READ = "bytesRead";
  public static final String SHARDS_SKIPPED = "shardsSkipped";
  public static final String CORRUPT_SHARDS_SKIPPED = "corruptShardsSkipped";
  public static final String MISSING_SHARDS_SKIPPED = "missingShardsSkipped";

  private BetonMetrics() {}

  /** Samples turned into rows. */
  public static final class SamplesRead extends CustomSumMetric {
    @Override public String name() { return SAMPLES_READ; }
    @Override public String description() { return "beton samples read"; }
  }

  /** Bytes fetched from shard files: header, descriptors, metadata, allocation table and payloads actually read. */
  public static final class BytesRead extends CustomSumMetric {
    @Override public String name() { return BYTES_READ; }
    @Override public String description() { return "beton bytes read"; }
  }

  /** Shards skipped on the driver because their manifest min/max cannot match the filters. */
  public static final class ShardsSkipped extends CustomSumMetric {
    @Override public String name() { return SHARDS_SKIPPED; }
    @Override public String description() { return "beton shards skipped by min/max"; }
  }

  /**
   * Shard ranges (a whole shard, or one sample range of a split shard) whose rest was skipped as corrupt under
   * {@code ignoreCorruptFiles}; a corrupt shard read in k ranges counts up to k, and a partition of packed shards
   * counts each corrupt one.
   */
  public static final class CorruptShardsSkipped extends CustomSumMetric {
    @Override public String name() { return CORRUPT_SHARDS_SKIPPED; }
    @Override public String description() { return "beton corrupt shard ranges skipped"; }
  }

  /** Shards skipped because they did not exist when opened, under {@code ignoreMissingFiles}. */
  public static final class MissingShardsSkipped extends CustomSumMetric {
    @Override public String name() { return MISSING_SHARDS_SKIPPED; }
    @Override public String description() { return "beton missing shards skipped"; }
  }

  static CustomTaskMetric value(String name, long value) {
    return new CustomTaskMetric() {
      @Override public String name() { return name; }
      @Override public long value() { return value; }
    };
  }
}
