package org.sparkbeton.spark.write;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import org.sparkbeton.codec.PixelLimit;
import org.sparkbeton.codec.jpeg.ChromaSubsampling;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.Strictness;
import org.sparkbeton.format.BetonFormat;
import org.sparkbeton.format.dataset.JsonText;
import org.sparkbeton.format.options.OptionNames;
import org.sparkbeton.format.dataset.DatasetFiles;

/**
 * The write options, parsed and checked once on the driver; small, immutable and serializable, so
 * it travels to executors as is. Messages name the option and what was expected; an option name that
 * is not one of {@link BetonWriteOptions#ALL} is refused with the nearest valid one.
 */
public final class BetonWriteConf implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Spark's own key: {@code save(path)} puts the path in the options. */
  /** Spark's key for {@code partitionBy(...)}'s columns in a V1 write's options. */
  private static final String PARTITION_COLUMNS = "__partition_columns";
  private static final OptionNames NAMES = OptionNames.of("format(\"beton\") writes", BetonWriteOptions.ALL,
      Set.of("path"), true);

  /** The {@code imageColumns}, as given (trimmed); matched to columns case-insensitively. */
  final List<String> imageColumns;
  /**
   * The options of {@link BetonWriteOptions#IMAGE_ONLY} that were given ({@code writeMode} only when not
   * {@code raw}), as documented: a write with any of them needs an image column.
   */
  final List<String> imageOptionsGiven;
  /**
   * The options given that only another {@code writeMode} uses ({@code smartThreshold} but for {@code smart};
   * {@code compressProbability} and {@code seed} but for {@code proportion}): a write refuses them, as a forgotten
   * {@code writeMode} would otherwise store every image raw.
   */
  final List<String> optionsOfOtherModes;
  /** {@link BetonWriteOptions#MAX_RESOLUTION} or {@link BetonWriteOptions#MIN_RESOLUTION}, or none */
  final ResolutionLimit resolution;
  final WriteMode writeMode;
  final int jpegQuality;
  /** {@link BetonWriteOptions#JPEG_SUBSAMPLING} */
  final ChromaSubsampling subsampling;
  /** {@link BetonWriteOptions#JPEG_RESIZE_SPACE} */
  final JpegResizeSpace resizeSpace;
  /** {@link BetonWriteOptions#MAX_IMAGE_PIXELS} */
  final long maxImagePixels;
  /** {@link BetonWriteOptions#JPEG_STRICT} */
  final Strictness jpegStrictness;
  /** {@link BetonWriteOptions#JPEG_PASS_THROUGH_CHECK} */
  final PassThroughCheck passThroughCheck;
  final double compressProbability;
  final long smartThreshold;
  final long seed;
  final long pageSize;
  final long targetShardSize;
  final BadImagePolicy badImages;
  final String sourceIdColumn;
  final long manifestLockTimeoutMillis;
  /** {@link BetonWriteOptions#NULL_POLICY} */
  final NullPolicy nullPolicy;
  /** {@link BetonWriteOptions#ARRAY_SHAPES} */
  final ArrayShapes arrayShapes;
  /** {@link BetonWriteOptions#STRING_ENCODING} */
  final StringEncoding stringEncoding;
  /** Whether the options give it: else a string column a beton read gave from a Bytes field stays bytes. */
  final boolean stringEncodingGiven;
  final String spoolDir;
  /** Bytes of a shard's pages kept in memory before the rest are spooled to a file. */
  final long spoolMemory;
  /** {@link BetonWriteOptions#IMAGE_READ_AHEAD}: rows whose remote image files a task reads ahead; 0 for none. */
  final int imageReadAhead;
  /** {@link BetonWriteOptions#COMPACT_EVERY}: a streaming write compacts after every this many batches; 0 never. */
  final int compactEvery;
  /** {@link BetonWriteOptions#KEEP_REPLACED_FOR}: how long those compactions keep the shards they replace. */
  final long keepReplacedMillis;
  /** {@link BetonWriteOptions#CLASS_NAMES}, or null. */
  final List<String> classNames;

  private BetonWriteConf(Map<String, String> o) {
    List<String> images = new ArrayList<>();
    for (String c : o.getOrDefault(key(BetonWriteOptions.IMAGE_COLUMNS), "").split(",")) {
      if (!c.isBlank() && images.stream().noneMatch(c.trim()::equalsIgnoreCase)) {
        images.add(c.trim());
      }
    }
    imageColumns = List.copyOf(images);
    OptionalInt maxResolution = positiveInt(o, BetonWriteOptions.MAX_RESOLUTION);
    OptionalInt minResolution = positiveInt(o, BetonWriteOptions.MIN_RESOLUTION);
    if (maxResolution.isPresent() && minResolution.isPresent()) {
      throw new IllegalArgumentException("Options maxResolution and minResolution are exclusive (as in FFCV); give one");
    }
    resolution = maxResolution.isPresent() ? new ResolutionLimit(ResolutionLimit.Side.LONGER, maxResolution.getAsInt())
        : minResolution.isPresent() ? new ResolutionLimit(ResolutionLimit.Side.SHORTER, minResolution.getAsInt())
        : ResolutionLimit.NONE;
    writeMode = WriteMode.parse(o.getOrDefault(key(BetonWriteOptions.WRITE_MODE), "raw"));
    jpegQuality = positiveInt(o, BetonWriteOptions.JPEG_QUALITY).orElse(90);
    if (jpegQuality > 100) {
      throw new IllegalArgumentException("Option jpegQuality must be 1..100, got " + jpegQuality);
    }
    String sub = o.getOrDefault(key(BetonWriteOptions.JPEG_SUBSAMPLING), "420").trim();
    if (!sub.equals("420") && !sub.equals("444")) {
      throw new IllegalArgumentException("Option jpegSubsampling must be 420 or 444, got '" + sub + "'");
    }
    subsampling = sub.equals("444") ? ChromaSubsampling.S444 : ChromaSubsampling.S420;
    resizeSpace = choice(o, BetonWriteOptions.JPEG_RESIZE_SPACE, JpegResizeSpace.YCBCR);
    maxImagePixels = longOption(o, BetonWriteOptions.MAX_IMAGE_PIXELS, PixelLimit.PIL_DEFAULT);
    if (maxImagePixels < 1 || maxImagePixels > JpegCodec.MAX_DECODE_PIXELS) {
      throw new IllegalArgumentException("Option maxImagePixels must be 1.." + JpegCodec.MAX_DECODE_PIXELS
          + " (the codecs decode nothing larger), got " + maxImagePixels);
    }
    jpegStrictness = booleanOption(o, BetonWriteOptions.JPEG_STRICT, true) ? Strictness.STRICT : Strictness.LENIENT;
    passThroughCheck = choice(o, BetonWriteOptions.JPEG_PASS_THROUGH_CHECK, PassThroughCheck.DECODE);
    compressProbability = probability(o.getOrDefault(key(BetonWriteOptions.COMPRESS_PROBABILITY), "0.5"));
    String threshold = o.get(key(BetonWriteOptions.SMART_THRESHOLD));
    if (writeMode == WriteMode.SMART && threshold == null) {
      throw new IllegalArgumentException("writeMode smart needs option smartThreshold (bytes of raw RGB above which"
          + " an image is stored as JPEG)");
    }
    smartThreshold = threshold == null ? Long.MAX_VALUE : SizeOption.parse(BetonWriteOptions.SMART_THRESHOLD, threshold);
    seed = longOption(o, BetonWriteOptions.SEED, 0);
    pageSize = BetonFormat.checkWritePageSize(
        SizeOption.parse(BetonWriteOptions.PAGE_SIZE, o.getOrDefault(key(BetonWriteOptions.PAGE_SIZE), "8M")));
    compactEvery = positiveInt(o, BetonWriteOptions.COMPACT_EVERY).orElse(0);
    String keep = o.get(key(BetonWriteOptions.KEEP_REPLACED_FOR));
    if (keep != null && compactEvery == 0) {
      throw new IllegalArgumentException("Option " + BetonWriteOptions.KEEP_REPLACED_FOR + " is for the compactions of"
          + " a streaming write with " + BetonWriteOptions.COMPACT_EVERY + "; give both (BetonCompaction.compact and"
          + " beton compact take it for other compactions)");
    }
    keepReplacedMillis = keep == null ? BetonCompaction.KEEP_REPLACED_MILLIS
        : BetonCompaction.duration(BetonWriteOptions.KEEP_REPLACED_FOR, keep);
    targetShardSize = SizeOption.parse(BetonWriteOptions.TARGET_SHARD_SIZE,
        o.getOrDefault(key(BetonWriteOptions.TARGET_SHARD_SIZE), "1G"));
    if (targetShardSize < 1) {
      throw new IllegalArgumentException("Option targetShardSize must be positive");
    }
    badImages = choiceLowerCase(o, BetonWriteOptions.BAD_IMAGE_POLICY, BadImagePolicy.FAIL);
    String source = o.get(key(BetonWriteOptions.SOURCE_ID_COLUMN));
    sourceIdColumn = source == null || source.isBlank() ? null : source.trim();
    manifestLockTimeoutMillis = 1000L * positiveInt(o, BetonWriteOptions.MANIFEST_LOCK_TIMEOUT).orElse(120);
    nullPolicy = choiceLowerCase(o, BetonWriteOptions.NULL_POLICY, NullPolicy.FAIL);
    arrayShapes = ArrayShapes.parse(o.getOrDefault(key(BetonWriteOptions.ARRAY_SHAPES), ""));
    stringEncoding = choiceLowerCase(o, BetonWriteOptions.STRING_ENCODING, StringEncoding.JSON);
    stringEncodingGiven = o.containsKey(key(BetonWriteOptions.STRING_ENCODING));
    spoolDir = o.getOrDefault(key(BetonWriteOptions.SPOOL_DIR), System.getProperty("java.io.tmpdir"));
    spoolMemory = SizeOption.parse(BetonWriteOptions.SPOOL_MEMORY, o.getOrDefault(key(BetonWriteOptions.SPOOL_MEMORY),
        "32M"));
    imageReadAhead = readAhead(o.getOrDefault(key(BetonWriteOptions.IMAGE_READ_AHEAD), "16"));
    String names = o.get(key(BetonWriteOptions.CLASS_NAMES));
    classNames = names == null ? null : classNames(names);
    List<String> given = new ArrayList<>();
    for (String option : BetonWriteOptions.IMAGE_ONLY) {
      if (o.containsKey(key(option)) && !(option.equals(BetonWriteOptions.WRITE_MODE) && writeMode == WriteMode.RAW)) {
        given.add(option);
      }
    }
    imageOptionsGiven = List.copyOf(given);
    List<String> otherModes = new ArrayList<>();
    if (writeMode != WriteMode.SMART && threshold != null) {
      otherModes.add(BetonWriteOptions.SMART_THRESHOLD);
    }
    for (String option : List.of(BetonWriteOptions.COMPRESS_PROBABILITY, BetonWriteOptions.SEED)) {
      if (writeMode != WriteMode.PROPORTION && o.containsKey(key(option))) {
        otherModes.add(option);
      }
    }
    optionsOfOtherModes = List.copyOf(otherModes);
  }

  static final int MAX_READ_AHEAD = BetonWriteOptions.MAX_IMAGE_READ_AHEAD;

  private static int readAhead(String value) {
    int n;
    try {
      n = Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      n = -1;
    }
    if (n < 0 || n > MAX_READ_AHEAD) {
      throw new IllegalArgumentException("Option imageReadAhead must be 0.." + MAX_READ_AHEAD
          + " (image files a task reads ahead from a remote file system; 0 reads each as its row comes), got '"
          + value + "'");
    }
    return n;
  }

  private static List<String> classNames(String value) {
    List<String> names;
    try {
      names = JsonText.stringList(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Option classNames must be a JSON list of strings, label 0's name first,"
          + " e.g. [\"cat\",\"dog\"]; got " + value);
    }
    if (names.isEmpty() || names.size() != new java.util.HashSet<>(names).size()) {
      throw new IllegalArgumentException("Option classNames must name each label once, and at least one; got " + value);
    }
    return List.copyOf(names);
  }

  /** What happens to a row whose image cannot be stored. */
  enum BadImagePolicy {
    FAIL, SKIP, QUARANTINE
  }

  /**
   * Parses options given with any case (Spark passes a case-insensitive map); throws IllegalArgumentException
   * for an unknown option name or a bad value.
   */
  /** Whether {@code name} is a write option (any case), Spark's {@code path} or a file system setting. */
  public static boolean accepts(String name) {
    return NAMES.accepts(name.toLowerCase(Locale.ROOT));
  }

  public static BetonWriteConf parse(Map<String, String> options) {
    refusePartitionBy(options);
    NAMES.check(options.keySet());
    Map<String, String> lower = new HashMap<>();
    options.forEach((k, v) -> lower.put(k.toLowerCase(Locale.ROOT), v));
    return new BetonWriteConf(lower);
  }

  /**
   * Why a dataset takes no partitioning, for every entry that refuses it ({@code partitionBy}, {@code PARTITIONED BY}
   * of a path table); {@code BetonSessionExtensions}, compiled for Java 8, words it for itself.
   */
  public static final String WHY_NOT_PARTITIONED =
      "a beton dataset is one directory of shards under one manifest, opened as one by FFCV and the loader";

  /**
   * Refuses {@code partitionBy(...)}, which Spark hands a V1 write as the option {@code __partition_columns} (a JSON
   * list of names): a .beton dataset is one directory of shards under one manifest, which FFCV and the loader open
   * as one, not a folder per value.
   */
  private static void refusePartitionBy(Map<String, String> options) {
    for (Map.Entry<String, String> e : options.entrySet()) {
      if (e.getKey().equalsIgnoreCase(PARTITION_COLUMNS)) {
        List<String> columns = JsonText.stringList(e.getValue());
        String first = columns.isEmpty() ? "column" : columns.get(0);
        throw new IllegalArgumentException("format(\"beton\") writes take no partitionBy(" + String.join(", ", columns)
            + "): " + WHY_NOT_PARTITIONED + ". Keep the column as a field (where() and groupBy() on it are answered"
            + " from the manifest and the metadata), or write a dataset per value, e.g. df.where(\"" + first + " = 0\")"
            + ".write().format(\"beton\").save(path + \"/" + first + "=0\")");
      }
    }
  }

  /** The settings recorded in the manifest's recipe. */
  public Map<String, String> recipe() {
    Map<String, String> r = new LinkedHashMap<>();
    r.put("write_mode", writeMode.name().toLowerCase(Locale.ROOT));
    r.put("max_resolution", resolution.recipe(ResolutionLimit.Side.LONGER));
    r.put("min_resolution", resolution.recipe(ResolutionLimit.Side.SHORTER));
    r.put("jpeg_quality", Integer.toString(jpegQuality));
    r.put("jpeg_subsampling", subsampling == ChromaSubsampling.S444 ? "444" : "420");
    if (writeMode == WriteMode.PROPORTION) {
      r.put("compress_probability", Double.toString(compressProbability));
      r.put("seed", Long.toString(seed));
    }
    if (writeMode == WriteMode.SMART) {
      r.put("smart_threshold", Long.toString(smartThreshold));
    }
    r.put("resize_filter", "area (OpenCV INTER_AREA equivalent)");
    r.put("jpeg_resize_space", resizeSpace == JpegResizeSpace.YCBCR && subsampling == ChromaSubsampling.S420
        ? "ycbcr (YCbCr JPEGs stored as 4:2:0: Y, Cb, Cr planes resized as stored; other images in RGB)" : "rgb");
    r.put("max_image_pixels", Long.toString(maxImagePixels));
    r.put("jpeg_strict", Boolean.toString(jpegStrictness == Strictness.STRICT));
    r.put("jpeg_pass_through_check", Choices.label(passThroughCheck));
    r.put("page_size", Long.toString(pageSize));
    r.put("target_shard_size", Long.toString(targetShardSize));
    r.put("bad_image_policy", Choices.label(badImages));
    r.put("null_policy", Choices.label(nullPolicy));
    if (classNames != null) {
      r.put(DatasetFiles.CLASS_NAMES, BetonWriteOptions.classNames(classNames));
    }
    return r;
  }

  boolean isImageColumn(String name) {
    for (String c : imageColumns) {
      if (c.equalsIgnoreCase(name)) {
        return true;
      }
    }
    return false;
  }

  long[] arrayShape(String column) {
    return arrayShapes.of(column);
  }

  private static String key(String option) {
    return option.toLowerCase(Locale.ROOT);
  }

  /** The option's value, or empty when it is not given. */
  private static OptionalInt positiveInt(Map<String, String> o, String option) {
    String v = o.get(key(option));
    if (v == null) {
      return OptionalInt.empty();
    }
    try {
      int n = Integer.parseInt(v.trim());
      if (n < 1) {
        throw new NumberFormatException();
      }
      return OptionalInt.of(n);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Option " + option + " must be a positive integer, got '" + v + "'");
    }
  }

  /** The option's {@link Choices choice}, {@code dflt} when not given. */
  private static <E extends Enum<E>> E choice(Map<String, String> o, String option, E dflt) {
    String v = o.get(key(option));
    return v == null ? dflt : Choices.parse(option, v, dflt.getDeclaringClass());
  }

  /** As {@link #choice}, a bad value quoted in lower case in the message. */
  private static <E extends Enum<E>> E choiceLowerCase(Map<String, String> o, String option, E dflt) {
    String v = o.get(key(option));
    return v == null ? dflt : Choices.parse(option, v.toLowerCase(Locale.ROOT), dflt.getDeclaringClass());
  }

  private static long longOption(Map<String, String> o, String option, long dflt) {
    String v = o.get(key(option));
    try {
      return v == null ? dflt : Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Option " + option + " must be an integer, got '" + v + "'");
    }
  }

  private static boolean booleanOption(Map<String, String> o, String option, boolean dflt) {
    String v = o.get(key(option));
    if (v == null) {
      return dflt;
    }
    String t = v.trim().toLowerCase(Locale.ROOT);
    if (!t.equals("true") && !t.equals("false")) {
      throw new IllegalArgumentException("Option " + option + " must be true or false, got '" + v + "'");
    }
    return t.equals("true");
  }

  private static double probability(String v) {
    try {
      double p = Double.parseDouble(v.trim());
      if (p >= 0 && p <= 1) {
        return p;
      }
    } catch (NumberFormatException e) {
      // fall through to the message
    }
    throw new IllegalArgumentException("Option compressProbability must be a number in [0, 1], got '" + v + "'");
  }
}
