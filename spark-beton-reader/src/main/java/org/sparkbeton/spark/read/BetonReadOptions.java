package org.sparkbeton.spark.read;

import java.util.List;

/**
 * Every option of {@code spark.read.format("beton")}, in one place. Option names are
 * case-insensitive (Spark passes a {@code CaseInsensitiveStringMap}); any other name is refused when
 * the read is planned (see {@link #ALL}).
 */
public final class BetonReadOptions {
  /**
   * How RGBImage fields come back. {@code binary} (default): the stored payload (JPEG or raw RGB bytes)
   * in column {@code <field>}, plus {@code <field>_width}, {@code <field>_height} (int) and
   * {@code <field>_mode} ("jpg" or "raw"), all four read from metadata except the payload.
   * {@code raw}: the same four columns, but {@code <field>} holds decoded H x W x 3 RGB bytes.
   * {@code image}: one column {@code <field>} with Spark's image struct (origin, height, width,
   * nChannels=3, mode=16 (CV_8UC3), data in BGR order). Decoding JPEG needs beton-codec on the
   * classpath; without it a JPEG fails the task with a message naming this option.
   */
  public static final String IMAGE_MODE = "imageMode";

  /**
   * {@code true} to skip shards that turn out corrupt (bad header, bad allocation table, size not
   * what the manifest says, bad pointer, I/O error while reading) instead of failing the task; they
   * are counted in the {@code corruptShardsSkipped} metric. Rows already returned from a shard
   * that fails midway stay. Default: the session's {@code spark.sql.files.ignoreCorruptFiles}
   * (false unless set).
   */
  public static final String IGNORE_CORRUPT_FILES = "ignoreCorruptFiles";

  /**
   * {@code true} to skip shards that do not exist when a task opens them (deleted after the query was planned:
   * the dataset overwritten while the query ran, or files removed by hand) instead of failing the task; they are
   * counted in the {@code missingShardsSkipped} metric. A missing shard is never skipped as corrupt, as in Spark's
   * file sources. Default: the session's {@code spark.sql.files.ignoreMissingFiles} (false unless set).
   */
  public static final String IGNORE_MISSING_FILES = "ignoreMissingFiles";

  /**
   * Most bytes per input partition: a larger shard is split into sample ranges of about this many bytes
   * (metadata records have a fixed width, so a range starts anywhere for free), and small shards are packed
   * together up to it, each charged the session's {@code spark.sql.files.openCostInBytes}; a small scan gets a
   * smaller size, spreading it over {@code spark.sql.files.minPartitionNum} partitions (default: the default
   * parallelism), as Spark's file sources do ({@link SplitPlanner}). Default: the session's
   * {@code spark.sql.files.maxPartitionBytes} (128 MiB).
   */
  public static final String MAX_PARTITION_BYTES = "maxPartitionBytes";

  /**
   * Maximum samples per input partition (a packed one counts every shard's), applied with
   * {@link #MAX_PARTITION_BYTES}. Default: no limit. Mostly for tests and for metadata-only datasets with many tiny records.
   */
  public static final String MAX_SAMPLES_PER_PARTITION = "maxSamplesPerPartition";

  /**
   * The most shards a micro-batch of a streaming read ({@code spark.readStream().format("beton")}) takes, oldest
   * first; the rest wait for the next batches. Default: no limit (a batch takes every shard appended since the last).
   * Refused by batch reads ({@link #STREAMING_ONLY}).
   */
  public static final String MAX_SHARDS_PER_TRIGGER = "maxShardsPerTrigger";

  /**
   * Where a new streaming read starts: {@code earliest} (default) reads what the dataset holds, then its appends;
   * {@code latest} only what is appended after the query starts. A query going on from its checkpoint goes on from
   * there either way. Refused by batch reads ({@link #STREAMING_ONLY}).
   */
  public static final String STARTING_POSITION = "startingPosition";

  /**
   * Layout of custom (type 255) fields, which FFCV files cannot describe themselves:
   * {@code name:size:alignment[,name:size:alignment...]}, the metadata bytes and numpy alignment of
   * each custom field. Custom fields come back as their raw metadata bytes (BinaryType), with a
   * warning. Default: none; reading a file that has a custom field without it fails and says so.
   */
  public static final String CUSTOM_FIELD_LAYOUT = "customFieldLayout";

  /**
   * Largest dataset (in samples) whose unfiltered aggregates over scalar columns ({@code GROUP BY} Int, Float
   * or image width/height columns, with {@code COUNT}, {@code MIN}, {@code MAX}) are computed on the driver
   * from the metadata records, without a Spark job: a label histogram of ImageNet (1.28M samples, ~40 bytes
   * of metadata each) reads ~50 MB sequentially. Larger datasets, other functions and filtered queries run
   * as usual. {@code 0} turns it off. A global {@code COUNT(*)} is always answered from the sample counts.
   * Default: 2,000,000.
   */
  public static final String AGGREGATE_PUSHDOWN_MAX_SAMPLES = "aggregatePushdownMaxSamples";

  /**
   * Whether the driver keeps aggregates it answered from a dataset directory's metadata and answers an
   * identical query over the same shards from that memo (at most 64 answers of at most 10,000 rows). Safe
   * because shard names are unique per write and never rewritten; turn it off if files under a manifest are
   * changed by other means. Files and globs read without a manifest are never memoised. Default: true.
   */
  public static final String MEMOIZE_AGGREGATES = "memoizeAggregates";

  /**
   * Whether each page a task reads from a dataset directory's shard is checked against the CRC32C the manifest
   * keeps for it (header and descriptors, metadata records, data pages, allocation table alike), so that a shard
   * damaged after it was written fails the task naming the shard, the page and the region (or, with
   * {@link #IGNORE_CORRUPT_FILES}, is skipped) instead of returning wrong values. A task reads and checks whole
   * pages: the pages its payloads lie in, never a data page for a metadata-only query. Files read without a
   * manifest, and shards of manifests written before page checksums, have nothing to be checked against and are
   * read unchecked. {@code false} turns the checks off, at the risk of damaged bytes coming back as good rows.
   * Default: true.
   */
  public static final String VERIFY_CHECKSUMS = "verifyChecksums";

  /**
   * Every option above, in the order error messages list them. A read given any other name fails before any
   * task runs, with the nearest of these; Spark's own {@code path} and {@code paths} and names containing a dot
   * (Hadoop settings such as {@code fs.s3a.endpoint}, copied into the read's Hadoop configuration) pass.
   */
  public static final List<String> ALL = List.of(IMAGE_MODE, IGNORE_CORRUPT_FILES, IGNORE_MISSING_FILES,
      MAX_PARTITION_BYTES, MAX_SAMPLES_PER_PARTITION, CUSTOM_FIELD_LAYOUT, AGGREGATE_PUSHDOWN_MAX_SAMPLES,
      MEMOIZE_AGGREGATES, VERIFY_CHECKSUMS, MAX_SHARDS_PER_TRIGGER, STARTING_POSITION);

  /**
   * The options only a streaming read ({@code spark.readStream()}) acts on: a batch read ({@code spark.read()}) given
   * one is refused when it is planned, as it would read every shard whatever the option says.
   */
  public static final List<String> STREAMING_ONLY = List.of(MAX_SHARDS_PER_TRIGGER, STARTING_POSITION);

  /** Values of {@link #IMAGE_MODE}. */
  public static final String IMAGE_MODE_BINARY = "binary";
  public static final String IMAGE_MODE_IMAGE = "image";
  public static final String IMAGE_MODE_RAW = "raw";

  private BetonReadOptions() {}
}
