package org.sparkbeton.spark.prepare;

import java.util.LinkedHashMap;
import java.util.Map;

/** Command-line arguments of {@link PrepareJob}; with none, the embedded demo runs. */
record PrepareArgs(String input, String output, Map<String, String> writeOptions, int shards, String master,
    boolean overwrite, int demoImages) {

  static final String USAGE = String.join("\n",
      "Usage: beton-prepare [--input DIR] [--output URI] [--max-resolution N] [--mode raw|jpg|smart|proportion]",
      "                     [--quality Q] [--page-size S] [--shards N] [--master URL] [--overwrite] [--demo-images N]",
      "                     [--bad-images fail|skip|quarantine]",
      "Turns an ImageFolder tree (one folder per class; labels = index of the sorted folder names, as",
      "torchvision's ImageFolder) into a sharded .beton dataset with Spark.",
      "With no --input, draws a labelled demo set of shapes first (--demo-images, default 2000) into",
      "target/beton-demo/shapes and writes target/beton-demo/dataset (replacing it).",
      "Bad images fail the job naming the file (--bad-images fail), are skipped and counted (skip), or are",
      "listed with the reason in <output>/_quarantine/*.jsonl (quarantine).",
      "Defaults: --mode jpg, --max-resolution 256, --quality 90, --master local[*], one write task (shard) per",
      "core. On large inputs --shards N with N = 2-4x the cores balances the cores better (each shard costs",
      "~1.5 pages of padding, 12 MiB at the default 8 MiB page size).");

  static PrepareArgs parse(String[] args) {
    String input = null;
    String output = null;
    Map<String, String> options = new LinkedHashMap<>();
    options.put("writeMode", "jpg");
    options.put("maxResolution", "256");
    options.put("jpegQuality", "90");
    int shards = 0;
    String master = "local[*]";
    boolean overwrite = false;
    int demo = 2000;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--overwrite")) {
        overwrite = true;
        continue;
      }
      if (a.equals("-h") || a.equals("--help")) {
        throw new UsageException(null);
      }
      if (i + 1 >= args.length) {
        throw new UsageException("Option " + a + " needs a value");
      }
      String v = args[++i];
      switch (a) {
        case "--input" -> input = v;
        case "--output" -> output = v;
        case "--max-resolution" -> options.put("maxResolution", v);
        case "--mode" -> options.put("writeMode", v);
        case "--quality" -> options.put("jpegQuality", v);
        case "--page-size" -> options.put("pageSize", v);
        case "--bad-images" -> options.put("badImagePolicy", v);
        case "--shards" -> shards = positive(a, v);
        case "--master" -> master = v;
        case "--demo-images" -> demo = positive(a, v);
        default -> throw new UsageException("Unknown option " + a);
      }
    }
    if (input == null) {
      input = "target/beton-demo/shapes";
      if (output == null) {
        output = "target/beton-demo/dataset";
        overwrite = true;
      }
    } else {
      demo = 0;
    }
    if (output == null) {
      throw new UsageException("--output is required with --input");
    }
    return new PrepareArgs(input, output, options, shards, master, overwrite, demo);
  }

  private static int positive(String option, String v) {
    try {
      int n = Integer.parseInt(v);
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // fall through
    }
    throw new UsageException("Option " + option + " must be a positive integer, got '" + v + "'");
  }

  /** A user mistake on the command line: printed as one line plus the usage. */
  static final class UsageException extends RuntimeException {
    UsageException(String message) {
      super(message);
    }
  }
}
