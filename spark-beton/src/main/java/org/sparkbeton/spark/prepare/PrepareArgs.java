package org.sparkbeton.spark.prepare;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.SaveMode;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.format.BetonFormat;
import org.sparkbeton.format.ByteSizes;
import org.sparkbeton.format.options.OptionNames;
import org.sparkbeton.spark.write.BetonWriteOptions;

/**
 * Command-line arguments of {@link PrepareJob}; with no {@code --input}, the embedded demo runs. Every flag's value
 * is checked here, so that a mistake is reported in the command line's terms (the flag), not in those of the
 * {@code format("beton")} option it becomes.
 *
 * @param writeOptions the write options the flags give; {@link #newDatasetOptions} adds the default image settings,
 *     which an append to a dataset takes from its manifest instead
 */
record PrepareArgs(String input, String output, Map<String, String> writeOptions, int shards, String master,
    SaveMode saveMode, int demoImages, double progressSeconds, boolean debug) {
  /** The image settings of a new dataset where no flag gives them: JPEGs of at most 256 px at quality 90. */
  private static final Map<String, String> DEFAULT_IMAGE_OPTIONS = Map.of("writeMode", "jpg", "maxResolution", "256",
      "jpegQuality", "90");

  /** System property: the demo's folder ({@code bin/beton-prepare} sets the checkout's target/beton-demo). */
  static final String DEMO_DIR_PROPERTY = "beton.demo.dir";
  static final String DEFAULT_DEMO_DIR = "target/beton-demo";
  /** Seconds between progress lines when standard error is not a terminal. */
  static final double DEFAULT_PROGRESS_SECONDS = 5;

  static final String USAGE = String.join("\n",
      "Usage: beton-prepare [--input DIR] [--output URI] [--overwrite | --append] [--max-resolution N]",
      "                     [--mode raw|jpg|smart|proportion] [--quality Q] [--smart-threshold S] [--page-size S]",
      "                     [--bad-images fail|skip|quarantine] [--max-image-pixels N] [--lenient-jpeg]",
      "                     [--pass-through-check decode|markers] [--shards N] [--master URL] [--demo-images N]",
      "                     [--read-ahead N] [--progress-interval SECONDS] [--debug]",
      "Turns an ImageFolder tree (one folder per class; labels = index of the sorted folder names, as",
      "torchvision's ImageFolder) into a sharded .beton dataset with Spark. Relative paths are taken from the",
      "current directory. A value follows its flag, or an = (--quality=80).",
      "Images are the files named *.{jpg,jpeg,png,bmp,gif,tif,tiff,webp} (any case) at any depth in a class",
      "folder; names starting with . are skipped, at every level. What is left out is counted in the summary.",
      "With no --input, draws a labelled demo set of shapes first (--demo-images, default 2000) into",
      "<checkout>/target/beton-demo/shapes and writes <checkout>/target/beton-demo/dataset (replacing it), or",
      "--output with --demo-images given (an --output without --input or --demo-images is refused: a forgotten",
      "--input would put the demo's shapes where a real dataset was meant to go).",
      "An existing dataset at --output is replaced with --overwrite or added to with --append; without either the",
      "job refuses it. A folder left by a failed or killed run (its own files only) is taken over and cleaned.",
      "Bad images fail the job naming the file (--bad-images fail), are skipped and counted (skip), or are",
      "listed with the reason in <output>/_quarantine/*.jsonl (quarantine). An image is bad when it does not",
      "decode, when its header says more than --max-image-pixels (default 89,478,485, PIL's limit), or when",
      "libjpeg reports corrupt data in a JPEG (--lenient-jpeg stores what libjpeg decodes around the damage, as",
      "FFCV does). A JPEG stored as it is gets a strict decode at 1/8 first (--pass-through-check markers checks",
      "only that its segments are whole: faster, but corrupt scan data is stored).",
      "An --input on another file system than the local one (s3a://, hdfs://) is read --read-ahead files ahead",
      "per task (default 16, 0 to 256; 0 reads each file as its turn comes).",
      "Progress goes to standard error: a live line on a terminal, else a line every --progress-interval seconds",
      "(default 5; 0 for none). The summary goes to standard output.",
      "Defaults: --mode jpg, --max-resolution 256, --quality 90, --master local[*], up to 4 write tasks (shards)",
      "per core, each of at least 256 images (--shards N sets the count, at most one per image). --mode smart",
      "stores an image as JPEG when its raw RGB is over --smart-threshold bytes (e.g. 256K). --debug prints stack",
      "traces of failures.");

  /** Every flag, as the usage names them: one list for the parser and for the nearest name to a misspelled one. */
  static final List<String> FLAGS = List.of("--input", "--output", "--overwrite", "--append", "--max-resolution",
      "--mode", "--quality", "--smart-threshold", "--page-size", "--bad-images", "--max-image-pixels",
      "--lenient-jpeg", "--pass-through-check", "--shards", "--master", "--demo-images", "--read-ahead", "--progress-interval",
      "--debug", "--help", "-h");
  /** The flags that take no value. */
  private static final List<String> SWITCHES = List.of("--overwrite", "--append", "--debug", "--lenient-jpeg",
      "--help", "-h");

  static PrepareArgs parse(String[] args) {
    String input = null;
    String output = null;
    Map<String, String> options = new LinkedHashMap<>();
    int shards = 0;
    String master = "local[*]";
    boolean overwrite = false;
    boolean append = false;
    int demo = 2000;
    boolean demoGiven = false;
    double progress = DEFAULT_PROGRESS_SECONDS;
    boolean debug = false;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      String v = null; // the value, given as --flag=value or in the next argument
      int eq = a.indexOf('=');
      if (a.startsWith("--") && eq > 2) {
        v = a.substring(eq + 1);
        a = a.substring(0, eq);
      }
      if (!a.startsWith("--") && !a.equals("-h")) {
        throw new UsageException("Unexpected argument '" + a + "'; options start with --");
      }
      if (!FLAGS.contains(a)) {
        throw new UsageException(unknownFlag(a));
      }
      if (SWITCHES.contains(a)) {
        if (v != null) {
          throw new UsageException("Option " + a + " takes no value, got '" + a + "=" + v + "'");
        }
        switch (a) {
          case "--overwrite" -> overwrite = true;
          case "--append" -> append = true;
          case "--debug" -> debug = true;
          case "--lenient-jpeg" -> options.put("jpegStrict", "false");
          default -> throw new UsageException(null); // -h, --help
        }
        continue;
      }
      if (v == null) {
        if (i + 1 >= args.length) {
          throw new UsageException("Option " + a + " needs a value");
        }
        v = args[++i];
        if (FLAGS.contains(v)) { // "--output --overwrite": the value left out, not a folder named --overwrite
          throw new UsageException("Option " + a + " needs a value, got the option " + v + " after it");
        }
      }
      switch (a) {
        case "--input" -> input = v;
        case "--output" -> output = v;
        case "--max-resolution" -> options.put("maxResolution", Integer.toString(positive(a, v)));
        case "--mode" -> options.put("writeMode", oneOf(a, v, "raw", "jpg", "smart", "proportion"));
        case "--quality" -> options.put("jpegQuality", Integer.toString(quality(v)));
        case "--smart-threshold" -> options.put("smartThreshold", Long.toString(size(a, v)));
        case "--page-size" -> options.put("pageSize", Long.toString(pageSize(v)));
        case "--bad-images" -> options.put("badImagePolicy", oneOf(a, v, "fail", "skip", "quarantine"));
        case "--max-image-pixels" -> options.put("maxImagePixels", Long.toString(pixels(a, v)));
        case "--pass-through-check" -> options.put("jpegPassThroughCheck", oneOf(a, v, "decode", "markers"));
        case "--shards" -> shards = positive(a, v);
        case "--master" -> master = v;
        case "--demo-images" -> {
          demo = positive(a, v);
          demoGiven = true;
        }
        case "--read-ahead" -> options.put("imageReadAhead", Integer.toString(readAhead(v)));
        case "--progress-interval" -> progress = seconds(a, v);
        default -> throw new IllegalStateException("the usage names " + a + " but nothing parses it");
      }
    }
    if (overwrite && append) {
      throw new UsageException("--overwrite and --append exclude each other: replace the dataset, or add to it");
    }
    if ("smart".equals(options.get("writeMode")) && !options.containsKey("smartThreshold")) {
      throw new UsageException("--mode smart needs --smart-threshold: the raw RGB size (bytes, or e.g. 256K) above"
          + " which an image is stored as JPEG");
    }
    String writeMode = options.getOrDefault("writeMode", "jpg");
    if (options.containsKey("smartThreshold") && !writeMode.equals("smart")) {
      throw new UsageException("--smart-threshold applies to --mode smart only (the mode is " + writeMode + "): give"
          + " --mode smart, or leave --smart-threshold out");
    }
    if (options.containsKey("jpegQuality") && writeMode.equals("raw")) {
      throw new UsageException("--quality applies to images stored as JPEG, and --mode raw stores every image as raw"
          + " RGB: leave --quality out, or choose another --mode");
    }
    if (input != null && demoGiven) {
      throw new UsageException("--demo-images draws the demo set, which --input replaces: give one of them");
    }
    if (input == null && output != null && !demoGiven) {
      throw new UsageException("--output without --input would write the demo set of shapes to " + output + "; give"
          + " --input DIR (an ImageFolder tree), or --demo-images N too to write the demo set there");
    }
    if (input == null) {
      String demoDir = System.getProperty(DEMO_DIR_PROPERTY, DEFAULT_DEMO_DIR);
      input = demoDir + "/shapes";
      if (output == null) {
        output = demoDir + "/dataset";
        overwrite = !append;
      }
    } else {
      demo = 0;
    }
    if (output == null) {
      throw new UsageException("--output is required with --input");
    }
    SaveMode mode = overwrite ? SaveMode.Overwrite : append ? SaveMode.Append : SaveMode.ErrorIfExists;
    return new PrepareArgs(input, output, options, shards, master, mode, demo, progress, debug);
  }

  /**
   * The write's options for a new dataset, or a replaced one: the flags given, and the default image settings where
   * none is given.
   */
  Map<String, String> newDatasetOptions() {
    Map<String, String> all = new LinkedHashMap<>(DEFAULT_IMAGE_OPTIONS);
    all.putAll(writeOptions);
    return all;
  }

  /** The error for a flag that is not one of {@link #FLAGS}: with the nearest flag where one is close. */
  private static String unknownFlag(String flag) {
    return "Unknown option " + flag + OptionNames.nearest(flag, FLAGS).map(f -> "; did you mean " + f + "?")
        .orElse(" (--help lists the options)");
  }

  /** A pixel count the codecs can decode: 1 to {@link JpegCodec#MAX_DECODE_PIXELS}. */
  private static long pixels(String option, String v) {
    try {
      long n = Long.parseLong(v.replace(",", "").replace("_", ""));
      if (n >= 1 && n <= JpegCodec.MAX_DECODE_PIXELS) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException("Option " + option + " must be a number of pixels from 1 to "
        + JpegCodec.MAX_DECODE_PIXELS + " (the codecs decode nothing larger), got '" + v + "'");
  }

  private static int positive(String option, String v) {
    try {
      int n = Integer.parseInt(v.trim());
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // fall through
    }
    throw new UsageException("Option " + option + " must be a positive integer, got '" + v + "'");
  }

  private static int readAhead(String v) {
    try {
      int n = Integer.parseInt(v.trim());
      if (n >= 0 && n <= BetonWriteOptions.MAX_IMAGE_READ_AHEAD) {
        return n;
      }
    } catch (NumberFormatException e) {
      // fall through
    }
    throw new UsageException("Option --read-ahead must be a number of image files from 0 to "
        + BetonWriteOptions.MAX_IMAGE_READ_AHEAD + ", got '" + v + "'");
  }

  private static int quality(String v) {
    try {
      int q = Integer.parseInt(v.trim());
      if (q >= 1 && q <= 100) {
        return q;
      }
    } catch (NumberFormatException e) {
      // fall through
    }
    throw new UsageException("Option --quality must be a JPEG quality from 1 to 100, got '" + v + "'");
  }

  private static String oneOf(String option, String v, String... allowed) {
    String lower = v.trim().toLowerCase(Locale.ROOT);
    for (String a : allowed) {
      if (a.equals(lower)) {
        return a;
      }
    }
    throw new UsageException("Option " + option + " must be " + String.join(", ", allowed).replaceFirst(", ([^,]+)$",
        " or $1") + ", got '" + v + "'");
  }

  private static long size(String option, String v) {
    try {
      long n = ByteSizes.parse(v);
      if (n > 0) {
        return n;
      }
      throw new IllegalArgumentException("it must be positive");
    } catch (IllegalArgumentException e) {
      throw new UsageException("Option " + option + ": " + e.getMessage());
    }
  }

  private static long pageSize(String v) {
    long n = size("--page-size", v);
    try {
      return BetonFormat.checkWritePageSize(n);
    } catch (IllegalArgumentException e) {
      throw new UsageException("Option --page-size must be a power of two from 2M to 1G, got '" + v + "'");
    }
  }

  private static double seconds(String option, String v) {
    try {
      double s = Double.parseDouble(v.trim());
      if (s >= 0 && Double.isFinite(s)) {
        return s;
      }
    } catch (NumberFormatException e) {
      // fall through
    }
    throw new UsageException("Option " + option + " must be a number of seconds (0 for no progress lines), got '" + v
        + "'");
  }

  /** A user mistake on the command line: printed as one line plus the usage. */
  static final class UsageException extends RuntimeException {
    UsageException(String message) {
      super(message);
    }
  }
}
