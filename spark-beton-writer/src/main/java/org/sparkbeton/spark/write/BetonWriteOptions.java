package org.sparkbeton.spark.write;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every option of {@code df.write.format("beton")}, case-insensitive. Defaults mirror FFCV's
 * {@code RGBImageField} / {@code DatasetWriter} where FFCV has one. Any other name is refused when the write is
 * planned (see {@link #ALL}).
 */
public final class BetonWriteOptions {
  private BetonWriteOptions() {}

  /**
   * Comma-separated columns to store as RGBImage fields: binary columns holding encoded images (any format the
   * codec reads), or string columns holding the paths or URIs of image files, which the executors read
   * themselves through Hadoop's file systems (a missing file is bad input, see {@link #BAD_IMAGE_POLICY}) —
   * cheaper per row than {@code binaryFile}'s content column. Spark {@code image} structs and the image columns of a
   * {@code format("beton")} read ({@link ReadImageColumns}) are image columns without being listed. Default: none.
   */
  public static final String IMAGE_COLUMNS = "imageColumns";

  /** Longest side after resizing (FFCV {@code max_resolution}); never upscales. Default: no limit. */
  public static final String MAX_RESOLUTION = "maxResolution";

  /** Shorter side after resizing (FFCV v1.1 {@code min_resolution}); exclusive with maxResolution. Default: no limit. */
  public static final String MIN_RESOLUTION = "minResolution";

  /** How images are stored: {@code raw}, {@code jpg}, {@code smart} or {@code proportion} (FFCV write modes). Default {@code raw}, as FFCV. */
  public static final String WRITE_MODE = "writeMode";

  /** JPEG quality 1–100 for re-encoded images. Default 90, as FFCV. */
  public static final String JPEG_QUALITY = "jpegQuality";

  /** Chroma subsampling of re-encoded JPEGs: {@code 420} (default, what FFCV's OpenCV encoder writes) or {@code 444}. */
  public static final String JPEG_SUBSAMPLING = "jpegSubsampling";

  /**
   * Where a YCbCr JPEG stored as a 4:2:0 JPEG is resized: {@code ycbcr} (default: its Y, Cb and Cr planes as
   * stored, skipping libjpeg's chroma upsampling and colour conversion both ways, about 10% faster per image)
   * or {@code rgb} (decoded to RGB first, as FFCV's OpenCV path). Other images are always resized in RGB.
   */
  public static final String JPEG_RESIZE_SPACE = "jpegResizeSpace";

  /**
   * The largest image accepted, in pixels (width times height), checked from the image's header before anything is
   * decoded: a larger one is bad input (see {@link #BAD_IMAGE_POLICY}), so a small file that declares a huge image
   * (a PNG of 1 MB claiming 30000x30000, a JPEG header patched to 65500x65500) costs a header read, not gigabytes.
   * 1 to 268,435,456 (2^28, the codecs' own limit). Default 89,478,485, PIL's {@code Image.MAX_IMAGE_PIXELS}.
   */
  public static final String MAX_IMAGE_PIXELS = "maxImagePixels";

  /**
   * {@code true} (default): a JPEG that libjpeg reports as corrupt (a bad Huffman code, a marker inside the scan,
   * bytes outside any segment, a frame header whose size disagrees with its scan) is bad input. libjpeg would decode
   * around the damage, filling blocks with grey or smearing rows, and FFCV stores the result. {@code false} stores
   * what libjpeg recovers, failing only on a stream cut short.
   */
  public static final String JPEG_STRICT = "jpegStrict";

  /**
   * How a JPEG stored as it is ({@code jpg} mode at its own size) is checked, since nothing else decodes it before a
   * loader does: {@code decode} (default) decodes it at 1/8 scale (every coefficient is still read, so all of
   * libjpeg's checks run; see {@link #JPEG_STRICT}) and refuses it unless that succeeds, which also refuses a frame
   * header that lies about the size; {@code markers} only checks that its segments are whole and an end-of-image
   * marker follows the scan. With {@code markers}, corrupt scan data and lying headers are stored as they are: a
   * loader decodes them to damaged pixels, or fails on them in the middle of training.
   */
  public static final String JPEG_PASS_THROUGH_CHECK = "jpegPassThroughCheck";

  /** {@code proportion} mode: probability that an image is stored as JPEG. Default 0.5, as FFCV. */
  public static final String COMPRESS_PROBABILITY = "compressProbability";

  /** {@code smart} mode: store as JPEG when the raw size H*W*3 exceeds this many bytes (FFCV compares bytes). Required by {@code smart}. */
  public static final String SMART_THRESHOLD = "smartThreshold";

  /** Seed of the {@code proportion} draws; each row's draw depends on (seed, partition, row in partition) only. Default 0. */
  public static final String SEED = "seed";

  /** Page size of every shard: a power of two in [2 MiB, 1 GiB]; accepts {@code 8M}, {@code 8MiB}, bytes. Default 8 MiB, as FFCV. */
  public static final String PAGE_SIZE = "pageSize";

  /** A task starts a new shard file once its current one holds this many payload bytes; accepts {@code 512M}, {@code 1G}. Default 1 GiB. */
  public static final String TARGET_SHARD_SIZE = "targetShardSize";

  /**
   * What to do with an image that cannot be stored (corrupt or truncated data, unsupported format, zero size,
   * over {@link #MAX_IMAGE_PIXELS}, over 65535 pixels a side, a sample too large for a page; any failure confined
   * to one image): {@code fail} the task (default; the message names the row, its source and the
   * reason), {@code skip} the row (counted in the metrics), or {@code quarantine}: skip it and record its
   * source, column and reason as a JSON line under the dataset's {@code _quarantine/} directory (one file per
   * committed task; files of failed attempts are deleted), so users can fix their data.
   */
  public static final String BAD_IMAGE_POLICY = "badImagePolicy";

  /** What to do with a null value: {@code fail} (default, naming the column) or {@code skip} the row (counted). */
  public static final String NULL_POLICY = "nullPolicy";

  /** Shapes of array columns stored as NDArray fields, e.g. {@code emb:3x4;mask:16}. Required for each array column of numbers. */
  public static final String ARRAY_SHAPES = "arrayShapes";

  /** How string columns are stored: {@code json} (default: a JSON string literal in a JSON field, so FFCV's unpack gives the str) or {@code bytes} (UTF-8 in a Bytes field). */
  public static final String STRING_ENCODING = "stringEncoding";

  /**
   * A column that identifies each row's source (e.g. {@code path} from {@code spark.read.format("binaryFile")}):
   * quoted in error messages and quarantine records, and not stored in the dataset. Default: none (rows are
   * identified by partition and row number).
   */
  public static final String SOURCE_ID_COLUMN = "sourceIdColumn";

  /**
   * How long a job waits for another job's lock on the dataset's manifest ({@code _manifest.lock}) before
   * failing, in seconds. Jobs hold it only while they publish (milliseconds); a lock older than this is
   * reported with its owner, for a user to delete if that job died. Default 120.
   */
  public static final String MANIFEST_LOCK_TIMEOUT = "manifestLockTimeout";

  /** Directory for the per-task page spool files (shards are streamed to the target file system once complete). Default: java.io.tmpdir. */
  public static final String SPOOL_DIR = "spoolDir";

  /**
   * Bytes of a shard's pages each running task keeps in memory (whole pages) before it spools the rest to a file in
   * {@link #SPOOL_DIR}: a shard this small never touches the spool directory. {@code 0} spools every page. Accepts
   * {@code 32M}, bytes. Default 32 MiB.
   */
  public static final String SPOOL_MEMORY = "spoolMemory";

  /**
   * Image files a task reads ahead where an image column of paths names files on a file system other than the local
   * one (an object store, HDFS): that many rows wait in the task while their files are read at once, on as many
   * threads, instead of one file after the other. {@code 0} reads each file as its row comes. Local files are always
   * read as their rows come. Default 16, at most {@link #MAX_IMAGE_READ_AHEAD}. The files read ahead share 64 MiB of
   * direct memory per task (beyond 256 KiB each): larger files wait until their row is next, so that a task never
   * holds 16 large files at once.
   */
  public static final String IMAGE_READ_AHEAD = "imageReadAhead";
  /** The most files a task reads ahead: each holds a thread and a buffer of the largest file it read. */
  public static final int MAX_IMAGE_READ_AHEAD = 256;

  /**
   * The names of the label values, in order: a JSON list of strings ({@code ["cat","dog"]}: label 0 is {@code cat}),
   * recorded in the manifest's recipe ({@code DatasetFiles.CLASS_NAMES}). {@code beton prepare} gives its class folders' names,
   * and takes them back on {@code --append} so that a folder keeps its label. Default: none.
   */
  public static final String CLASS_NAMES = "classNames";

  /**
   * Streaming writes: after every N-th micro-batch (by its number, so restarts keep the rhythm) the dataset's runs of
   * small shards, the micro-batches' among them, are merged in place into shards of up to {@link #TARGET_SHARD_SIZE}
   * ({@link BetonCompaction}: streams reading the dataset go on; the shards replaced stay an hour for reads planned
   * before). The next micro-batch starts after it. A compaction that fails is logged, and the stream goes on: its
   * batches are published already. Refused by batch writes. Default: none.
   */
  public static final String COMPACT_EVERY = "compactEvery";

  /**
   * With {@link #COMPACT_EVERY}: how long its compactions keep the shards they replace, for reads planned before
   * (a duration with its unit: {@code 0s}, {@code 10m}, {@code 2h}), as {@link BetonCompaction#KEEP_REPLACED_FOR}.
   * Refused without it. Default: an hour.
   */
  public static final String KEEP_REPLACED_FOR = "keepReplacedFor";

  /**
   * Every option above, in the order error messages list them. A write given any other name fails before any
   * task runs, with the nearest of these; Spark's own {@code path} and names containing a dot (Hadoop settings
   * such as {@code fs.s3a.endpoint}, copied into the write's Hadoop configuration) pass.
   */
  public static final List<String> ALL = List.of(IMAGE_COLUMNS, MAX_RESOLUTION, MIN_RESOLUTION, WRITE_MODE,
      JPEG_QUALITY, JPEG_SUBSAMPLING, JPEG_RESIZE_SPACE, MAX_IMAGE_PIXELS, JPEG_STRICT, JPEG_PASS_THROUGH_CHECK,
      COMPRESS_PROBABILITY, SMART_THRESHOLD, SEED, PAGE_SIZE,
      TARGET_SHARD_SIZE, BAD_IMAGE_POLICY, NULL_POLICY, ARRAY_SHAPES, STRING_ENCODING, SOURCE_ID_COLUMN,
      MANIFEST_LOCK_TIMEOUT, SPOOL_DIR, SPOOL_MEMORY, IMAGE_READ_AHEAD, CLASS_NAMES, COMPACT_EVERY,
      KEEP_REPLACED_FOR);

  /**
   * The options that only change how image columns are stored: given (with {@link #WRITE_MODE} other than
   * {@code raw}) to a write without an image column, they would do nothing, so the write fails instead, naming
   * them. {@link #SEED} is here because it seeds only {@code proportion}'s draws.
   */
  static final List<String> IMAGE_ONLY = List.of(WRITE_MODE, MAX_RESOLUTION, MIN_RESOLUTION, JPEG_QUALITY,
      JPEG_SUBSAMPLING, JPEG_RESIZE_SPACE, MAX_IMAGE_PIXELS, JPEG_STRICT, JPEG_PASS_THROUGH_CHECK, COMPRESS_PROBABILITY,
      SMART_THRESHOLD, SEED, BAD_IMAGE_POLICY);

  /** Manifest recipe entries (as {@code BetonWriteConf.recipe} records them) and the options that give them back. */
  private static final Map<String, String> RECIPE_OPTIONS = recipeOptions();

  private static Map<String, String> recipeOptions() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("write_mode", WRITE_MODE);
    m.put("max_resolution", MAX_RESOLUTION);
    m.put("min_resolution", MIN_RESOLUTION);
    m.put("jpeg_quality", JPEG_QUALITY);
    m.put("jpeg_subsampling", JPEG_SUBSAMPLING);
    m.put("compress_probability", COMPRESS_PROBABILITY);
    m.put("smart_threshold", SMART_THRESHOLD);
    m.put("seed", SEED);
    return java.util.Collections.unmodifiableMap(m); // in this order, for messages
  }

  /**
   * {@code options} with the image settings of a dataset's manifest {@code recipe} (write mode, resolution, JPEG
   * quality and subsampling, the {@code smart} and {@code proportion} settings) added where the options give none,
   * so that images written with them are stored as that dataset's were: a stored JPEG read back passes through
   * unchanged, a new photo is resized and encoded as the rest. A resolution given in either form replaces the
   * recipe's (the two are exclusive).
   */
  public static Map<String, String> withRecipe(Map<String, String> options, Map<String, String> recipe) {
    Map<String, String> out = new LinkedHashMap<>(options);
    boolean resolutionGiven = given(options, MAX_RESOLUTION) || given(options, MIN_RESOLUTION);
    RECIPE_OPTIONS.forEach((entry, option) -> {
      String value = recipe.get(entry);
      boolean resolution = option.equals(MAX_RESOLUTION) || option.equals(MIN_RESOLUTION);
      if (value != null && !value.equals("none") && !given(options, option) && !(resolution && resolutionGiven)) {
        out.put(option, value);
      }
    });
    return out;
  }

  /**
   * {@code options} with the shapes of {@code stored}'s NDArray fields added to {@link #ARRAY_SHAPES} for the
   * columns of {@code columns} it gives none: an append of arrays to a dataset stores them as its fields are, as an
   * append of images takes the dataset's image settings ({@link #withRecipe}), instead of asking for the shapes the
   * manifest records.
   */
  public static Map<String, String> withArrayShapes(Map<String, String> options,
      org.sparkbeton.format.dataset.DatasetManifest stored,
      org.apache.spark.sql.types.StructType columns) {
    String key = options.keySet().stream().filter(ARRAY_SHAPES::equalsIgnoreCase).findFirst().orElse(ARRAY_SHAPES);
    String given = options.getOrDefault(key, "");
    ArrayShapes shapes = ArrayShapes.parse(given);
    StringBuilder added = new StringBuilder(given);
    for (org.sparkbeton.format.dataset.ManifestField f : stored.fields()) {
      boolean column = java.util.Arrays.stream(columns.fieldNames()).anyMatch(f.name()::equalsIgnoreCase);
      if (f.dtype() != null && column && shapes.of(f.name()) == null) {
        added.append(added.length() == 0 ? "" : ";").append(f.name()).append(':').append(java.util.Arrays
            .stream(f.shape()).mapToObj(Long::toString).collect(java.util.stream.Collectors.joining("x")));
      }
    }
    if (added.toString().equals(given)) {
      return options;
    }
    Map<String, String> out = new LinkedHashMap<>(options);
    out.put(key, added.toString());
    return out;
  }

  /** The recipe entries of a write's image settings, the ones {@link #withRecipe} takes back as options. */
  static java.util.Set<String> recipeImageEntries() {
    return RECIPE_OPTIONS.keySet();
  }

  /** Whether {@code options} hold {@code option}, in any case. */
  public static boolean given(Map<String, String> options, String option) {
    return options.keySet().stream().anyMatch(option::equalsIgnoreCase);
  }

  /** The value of {@link #CLASS_NAMES} for {@code names}: their JSON list. */
  public static String classNames(List<String> names) {
    StringBuilder sb = new StringBuilder("[");
    for (String n : names) {
      JsonValues.string(sb.append(sb.length() > 1 ? "," : ""), n);
    }
    return sb.append(']').toString();
  }
}
