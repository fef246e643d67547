package org.sparkbeton.spark.write;

import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.metric.CustomSumMetric;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;

/**
 * Write metrics shown in the Spark UI (each a class with a no-argument constructor, as Spark requires). Spark
 * registers each as a SQL metric named by its description, updated every 100 rows of a task and once before the
 * task commits: a {@code SparkListener} finds a task's values by those names in its accumulator updates (live, from
 * executor heartbeats, and final, at task end), which is how {@code beton prepare} shows its progress.
 */
public final class BetonWriteMetrics {
  /** The descriptions (accumulator names) of the metrics a progress display needs. */
  public static final String SAMPLES_WRITTEN = "samples written";
  public static final String ROWS_SKIPPED = "rows skipped (nulls, bad images)";
  public static final String ROWS_QUARANTINED = "rows quarantined (bad images recorded under _quarantine/)";
  public static final String ROWS_WITH_BAD_IMAGES = "rows with a bad image (skipped or quarantined)";
  public static final String SHARD_FILES_WRITTEN = "shard files written";

  static final String SAMPLES = "betonSamplesWritten";
  static final String SHARDS = "betonShardsWritten";
  static final String BYTES = "betonBytesWritten";
  static final String PASSED_THROUGH = "betonImagesPassedThrough";
  static final String REENCODED = "betonImagesEncoded";
  static final String SKIPPED = "betonRowsSkipped";
  static final String QUARANTINED = "betonRowsQuarantined";
  static final String BAD_IMAGES = "betonRowsWithBadImages";
  static final String IMAGE_BYTES_IN = "betonImageBytesIn";
  static final String DECODE_MS = "betonDecodeMs";
  static final String RESIZE_MS = "betonResizeMs";
  static final String ENCODE_MS = "betonEncodeMs";

  private BetonWriteMetrics() {}

  static CustomMetric[] supported() {
    return new CustomMetric[] {new Samples(), new Shards(), new Bytes(), new PassedThrough(), new Encoded(), new Skipped(),
        new Quarantined(), new BadImages(), new ImageBytesIn(), new DecodeMs(), new ResizeMs(), new EncodeMs()};
  }

  static CustomTaskMetric task(String name, long value) {
    return new CustomTaskMetric() {
      @Override public String name() { return name; }
      @Override public long value() { return value; }
    };
  }

  public static final class Samples extends CustomSumMetric {
    @Override public String name() { return SAMPLES; }
    @Override public String description() { return SAMPLES_WRITTEN; }
  }

  public static final class Shards extends CustomSumMetric {
    @Override public String name() { return SHARDS; }
    @Override public String description() { return SHARD_FILES_WRITTEN; }
  }

  public static final class Bytes extends CustomSumMetric {
    @Override public String name() { return BYTES; }
    @Override public String description() { return "shard bytes written (a task's last shard: its data pages; the Output column is exact)"; }
  }

  public static final class PassedThrough extends CustomSumMetric {
    @Override public String name() { return PASSED_THROUGH; }
    @Override public String description() { return "JPEGs stored unchanged"; }
  }

  public static final class Encoded extends CustomSumMetric {
    @Override public String name() { return REENCODED; }
    @Override public String description() { return "images encoded as JPEG"; }
  }

  public static final class Skipped extends CustomSumMetric {
    @Override public String name() { return SKIPPED; }
    @Override public String description() { return ROWS_SKIPPED; }
  }

  public static final class Quarantined extends CustomSumMetric {
    @Override public String name() { return QUARANTINED; }
    @Override public String description() { return ROWS_QUARANTINED; }
  }

  public static final class BadImages extends CustomSumMetric {
    @Override public String name() { return BAD_IMAGES; }
    @Override public String description() { return ROWS_WITH_BAD_IMAGES; }
  }

  public static final class ImageBytesIn extends CustomSumMetric {
    @Override public String name() { return IMAGE_BYTES_IN; }
    @Override public String description() { return "encoded image bytes read"; }
  }

  public static final class DecodeMs extends CustomSumMetric {
    @Override public String name() { return DECODE_MS; }
    @Override public String description() { return "image decode time (ms, all tasks)"; }
  }

  public static final class ResizeMs extends CustomSumMetric {
    @Override public String name() { return RESIZE_MS; }
    @Override public String description() { return "image resize time (ms, all tasks)"; }
  }

  public static final class EncodeMs extends CustomSumMetric {
    @Override public String name() { return ENCODE_MS; }
    @Override public String description() { return "JPEG encode time (ms, all tasks)"; }
  }
}
