package org.sparkbeton.spark.read;

import java.io.Serializable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.sparkbeton.format.options.OptionNames;

/**
 * The read options parsed once on the driver; small, immutable and serializable, so it travels to
 * executors with the reader factory. An option name that is not one of {@link BetonReadOptions#ALL} is
 * refused with the nearest valid one.
 */
public final class ReadConf implements Serializable {
  private static final long serialVersionUID = 1L;
  /** Spark's own keys: {@code load(path)} puts {@code path} in the options, {@code load(a, b)} {@code paths}. */
  private static final OptionNames NAMES = OptionNames.of("format(\"beton\") reads", BetonReadOptions.ALL,
      Set.of("path", "paths"), true);
  private static final long DEFAULT_MAX_PARTITION_BYTES = 128L << 20;
  private static final long DEFAULT_OPEN_COST_IN_BYTES = 4L << 20;
  private static final long DEFAULT_AGGREGATE_PUSHDOWN_MAX_SAMPLES = 2_000_000;

  /** One custom field's metadata layout. */
  public record CustomLayout(int size, int alignment) implements Serializable {}

  private final String imageMode;
  private final boolean ignoreCorruptFiles;
  private final boolean ignoreMissingFiles;
  private final long maxPartitionBytes;
  private final long maxSamplesPerPartition;
  private final long openCostInBytes;
  private final int minPartitionNum;
  private final Map<String, CustomLayout> customFields;
  private final long aggregatePushdownMaxSamples;
  private final boolean memoizeAggregates;
  private final boolean verifyChecksums;
  /** 0: no limit. */
  private final int maxShardsPerTrigger;
  /** A new streaming read starts after the shards there when it starts. */
  private final boolean startAtLatest;
  /** The options of {@link BetonReadOptions#STREAMING_ONLY} given, as named there: a batch read refuses them. */
  private final List<String> streamingOnlyGiven;

  private ReadConf(String imageMode, boolean ignoreCorruptFiles, boolean ignoreMissingFiles, long maxPartitionBytes,
      long maxSamplesPerPartition, long openCostInBytes, int minPartitionNum, Map<String, CustomLayout> customFields,
      long aggregatePushdownMaxSamples, boolean memoizeAggregates, boolean verifyChecksums, int maxShardsPerTrigger,
      boolean startAtLatest, List<String> streamingOnlyGiven) {
    this.streamingOnlyGiven = List.copyOf(streamingOnlyGiven);
    this.maxShardsPerTrigger = maxShardsPerTrigger;
    this.startAtLatest = startAtLatest;
    this.openCostInBytes = openCostInBytes;
    this.minPartitionNum = minPartitionNum;
    this.verifyChecksums = verifyChecksums;
    this.aggregatePushdownMaxSamples = aggregatePushdownMaxSamples;
    this.memoizeAggregates = memoizeAggregates;
    this.imageMode = imageMode;
    this.ignoreCorruptFiles = ignoreCorruptFiles;
    this.ignoreMissingFiles = ignoreMissingFiles;
    this.maxPartitionBytes = maxPartitionBytes;
    this.maxSamplesPerPartition = maxSamplesPerPartition;
    this.customFields = Collections.unmodifiableMap(new LinkedHashMap<>(customFields));
  }

  public static ReadConf defaults() {
    return parse(Map.of(), Map.of());
  }

  /**
   * @param options the data source options (keys compared case-insensitively)
   * @param sessionDefaults session-level settings, when set: {@code spark.sql.files.ignoreCorruptFiles} and
   *     {@code spark.sql.files.ignoreMissingFiles},
   *     {@code spark.sql.files.maxPartitionBytes} (defaults of the options), {@code spark.sql.files.openCostInBytes}
   *     (4 MiB when absent) and {@code spark.sql.files.minPartitionNum} (1 when absent; the data source passes
   *     Spark's default parallelism when the session does not set it), which size input partitions as Spark's file
   *     sources do ({@link SplitPlanner})
   * @throws IllegalArgumentException for an unknown option name or a bad value
   */
  /** Whether {@code name} is a read option (any case), Spark's {@code path} or a file system setting. */
  public static boolean accepts(String name) {
    return NAMES.accepts(name.toLowerCase(java.util.Locale.ROOT));
  }

  public static ReadConf parse(Map<String, String> options, Map<String, String> sessionDefaults) {
    NAMES.check(options.keySet());
    Map<String, String> o = new LinkedHashMap<>();
    options.forEach((k, v) -> o.put(k.toLowerCase(Locale.ROOT), v));
    String mode = o.getOrDefault(BetonReadOptions.IMAGE_MODE.toLowerCase(Locale.ROOT), BetonReadOptions.IMAGE_MODE_BINARY)
        .toLowerCase(Locale.ROOT);
    if (!mode.equals(BetonReadOptions.IMAGE_MODE_BINARY) && !mode.equals(BetonReadOptions.IMAGE_MODE_IMAGE)
        && !mode.equals(BetonReadOptions.IMAGE_MODE_RAW)) {
      throw new IllegalArgumentException("Option " + BetonReadOptions.IMAGE_MODE + " must be binary, image or raw, got '"
          + mode + "'");
    }
    boolean ignoreCorrupt = bool(o, BetonReadOptions.IGNORE_CORRUPT_FILES,
        Boolean.parseBoolean(sessionDefaults.getOrDefault("spark.sql.files.ignoreCorruptFiles", "false")));
    boolean ignoreMissing = bool(o, BetonReadOptions.IGNORE_MISSING_FILES,
        Boolean.parseBoolean(sessionDefaults.getOrDefault("spark.sql.files.ignoreMissingFiles", "false")));
    long maxBytes = positive(BetonReadOptions.MAX_PARTITION_BYTES, o.getOrDefault(
        BetonReadOptions.MAX_PARTITION_BYTES.toLowerCase(Locale.ROOT),
        sessionDefaults.getOrDefault("spark.sql.files.maxPartitionBytes", Long.toString(DEFAULT_MAX_PARTITION_BYTES))));
    String maxSamplesText = o.get(BetonReadOptions.MAX_SAMPLES_PER_PARTITION.toLowerCase(Locale.ROOT));
    long maxSamples = maxSamplesText == null ? Long.MAX_VALUE
        : positive(BetonReadOptions.MAX_SAMPLES_PER_PARTITION, maxSamplesText);
    long openCost = sessionNumber(sessionDefaults, "spark.sql.files.openCostInBytes", DEFAULT_OPEN_COST_IN_BYTES, 0,
        Long.MAX_VALUE);
    long minPartitions = sessionNumber(sessionDefaults, "spark.sql.files.minPartitionNum", 1, 1, Integer.MAX_VALUE);
    Map<String, CustomLayout> custom = parseCustom(o.get(BetonReadOptions.CUSTOM_FIELD_LAYOUT.toLowerCase(Locale.ROOT)));
    String aggText = o.get(BetonReadOptions.AGGREGATE_PUSHDOWN_MAX_SAMPLES.toLowerCase(Locale.ROOT));
    long aggMax = aggText == null ? DEFAULT_AGGREGATE_PUSHDOWN_MAX_SAMPLES
        : nonNegative(BetonReadOptions.AGGREGATE_PUSHDOWN_MAX_SAMPLES, aggText);
    boolean memo = bool(o, BetonReadOptions.MEMOIZE_AGGREGATES, true);
    boolean verify = bool(o, BetonReadOptions.VERIFY_CHECKSUMS, true);
    String maxShardsText = o.get(BetonReadOptions.MAX_SHARDS_PER_TRIGGER.toLowerCase(Locale.ROOT));
    long maxShards = maxShardsText == null ? 0 : positive(BetonReadOptions.MAX_SHARDS_PER_TRIGGER, maxShardsText);
    if (maxShards > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("Option " + BetonReadOptions.MAX_SHARDS_PER_TRIGGER + " must be at most "
          + Integer.MAX_VALUE + ", got '" + maxShardsText + "'");
    }
    String start = o.getOrDefault(BetonReadOptions.STARTING_POSITION.toLowerCase(Locale.ROOT), "earliest")
        .toLowerCase(Locale.ROOT);
    if (!start.equals("earliest") && !start.equals("latest")) {
      throw new IllegalArgumentException("Option " + BetonReadOptions.STARTING_POSITION + " must be earliest or latest,"
          + " got '" + start + "'");
    }
    return new ReadConf(mode, ignoreCorrupt, ignoreMissing, maxBytes, maxSamples, openCost, (int) minPartitions,
        custom, aggMax, memo, verify, (int) maxShards, start.equals("latest"), BetonReadOptions.STREAMING_ONLY.stream()
        .filter(option -> o.containsKey(option.toLowerCase(Locale.ROOT))).toList());
  }

  /**
   * Refuses a batch read ({@code spark.read()}) given an option of {@link BetonReadOptions#STREAMING_ONLY}: it would
   * read every shard whatever the option says, as the write side refuses its streaming-only {@code compactEvery}.
   */
  public void requireBatchRead() {
    if (streamingOnlyGiven.isEmpty()) {
      return;
    }
    boolean one = streamingOnlyGiven.size() == 1;
    throw new IllegalArgumentException((one ? "Option " : "Options ") + String.join(" and ", streamingOnlyGiven)
        + (one ? " applies" : " apply") + " to streaming reads (spark.readStream().format(\"beton\")), not to a batch"
        + " read (spark.read()), which reads every shard the dataset lists whatever " + (one ? "it says" : "they say")
        + ": leave " + (one ? "it" : "them") + " out, or read the dataset as a stream");
  }

  private static boolean bool(Map<String, String> options, String option, boolean defaultValue) {
    String text = options.getOrDefault(option.toLowerCase(Locale.ROOT), Boolean.toString(defaultValue));
    if (!text.equalsIgnoreCase("true") && !text.equalsIgnoreCase("false")) {
      throw new IllegalArgumentException("Option " + option + " must be true or false, got '" + text + "'");
    }
    return Boolean.parseBoolean(text);
  }

  /** A session setting's whole number in {@code [min, max]}, or {@code defaultValue} when it is absent. */
  private static long sessionNumber(Map<String, String> session, String key, long defaultValue, long min, long max) {
    String text = session.get(key);
    if (text == null) {
      return defaultValue;
    }
    try {
      long v = Long.parseLong(text.trim());
      if (v >= min && v <= max) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("Setting " + key + " must be a whole number from " + min + " to " + max
        + ", got '" + text + "'");
  }

  private static long nonNegative(String option, String text) {
    try {
      long v = Long.parseLong(text.trim().replace("_", "").replace(",", ""));
      if (v >= 0) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("Option " + option + " must be a whole number >= 0 (0 turns it off), got '"
        + text + "'");
  }

  private static long positive(String option, String text) {
    long v;
    try {
      v = parseBytes(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Option " + option + " must be a positive number, got '" + text + "'");
    }
    if (v <= 0) {
      throw new IllegalArgumentException("Option " + option + " must be positive, got '" + text + "'");
    }
    return v;
  }


  /** Plain numbers, or sizes such as {@code 64m}, {@code 1g}, {@code 512k}, {@code 128b}. */
  private static long parseBytes(String text) {
    try {
      return org.sparkbeton.format.ByteSizes.parse(text);
    } catch (IllegalArgumentException e) {
      throw new NumberFormatException(text);
    }
  }

  private static Map<String, CustomLayout> parseCustom(String text) {
    Map<String, CustomLayout> out = new LinkedHashMap<>();
    if (text == null || text.isBlank()) {
      return out;
    }
    for (String entry : text.split(",")) {
      String[] parts = entry.trim().split(":");
      try {
        if (parts.length != 3) {
          throw new NumberFormatException();
        }
        int size = Integer.parseInt(parts[1].trim());
        int align = Integer.parseInt(parts[2].trim());
        if (size < 0 || align < 1 || (align & (align - 1)) != 0) {
          throw new NumberFormatException();
        }
        out.put(parts[0].trim(), new CustomLayout(size, align));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("Option " + BetonReadOptions.CUSTOM_FIELD_LAYOUT
            + " must be name:size:alignment entries separated by commas (size >= 0, alignment a power of two), got '"
            + entry.trim() + "'");
      }
    }
    return out;
  }

  public String imageMode() { return imageMode; }
  public boolean ignoreCorruptFiles() { return ignoreCorruptFiles; }
  public boolean ignoreMissingFiles() { return ignoreMissingFiles; }
  public long maxPartitionBytes() { return maxPartitionBytes; }
  public long maxSamplesPerPartition() { return maxSamplesPerPartition; }
  /** The most shards a streaming read's micro-batch takes; 0 for no limit. */
  public int maxShardsPerTrigger() { return maxShardsPerTrigger; }
  /** Whether a new streaming read skips the shards there when it starts ({@code startingPosition=latest}). */
  public boolean startAtLatest() { return startAtLatest; }
  /** What opening one more shard costs, in bytes, when packing shards into input partitions. */
  public long openCostInBytes() { return openCostInBytes; }
  /** The number of input partitions a scan aims for at least, when its data is small. */
  public int minPartitionNum() { return minPartitionNum; }
  public Map<String, CustomLayout> customFields() { return customFields; }
  public long aggregatePushdownMaxSamples() { return aggregatePushdownMaxSamples; }

  public boolean memoizeAggregates() { return memoizeAggregates; }

  /** Whether shards are checked against the manifest's page checksums as they are read. */
  public boolean verifyChecksums() { return verifyChecksums; }
}
