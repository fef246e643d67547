package org.sparkbeton.spark.prepare;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import org.apache.spark.sql.SaveMode;
import org.junit.jupiter.api.Test;

/** The command line speaks in its own flags: every mistake names the flag, never the DataFrame option. */
class PrepareArgsTest {
  static PrepareArgs parse(String... args) {
    return PrepareArgs.parse(args);
  }

  static void refused(String message, String... args) {
    assertThatThrownBy(() -> PrepareArgs.parse(args)).isInstanceOf(PrepareArgs.UsageException.class)
        .hasMessage(message);
  }

  @Test
  void saveModes() {
    assertThat(parse("--input", "in", "--output", "out").saveMode()).isEqualTo(SaveMode.ErrorIfExists);
    assertThat(parse("--input", "in", "--output", "out", "--overwrite").saveMode()).isEqualTo(SaveMode.Overwrite);
    assertThat(parse("--input", "in", "--output", "out", "--append").saveMode()).isEqualTo(SaveMode.Append);
    refused("--overwrite and --append exclude each other: replace the dataset, or add to it",
        "--input", "in", "--output", "out", "--overwrite", "--append");
  }

  @Test
  void flagsBecomeWriteOptions() {
    PrepareArgs a = parse("--input", "in", "--output", "out", "--mode", "SMART", "--smart-threshold", "256K",
        "--quality", "85", "--page-size", "4M", "--bad-images", "quarantine", "--max-resolution", "512",
        "--progress-interval", "0.5", "--read-ahead", "64", "--debug");
    assertThat(a.writeOptions()).containsEntry("imageReadAhead", "64");
    assertThat(parse("--input", "in", "--output", "out", "--read-ahead=0").writeOptions())
        .containsEntry("imageReadAhead", "0");
    assertThat(parse("--input", "in", "--output", "out").writeOptions()).doesNotContainKey("imageReadAhead");
    assertThat(a.writeOptions()).containsEntry("writeMode", "smart").containsEntry("smartThreshold", "262144")
        .containsEntry("jpegQuality", "85").containsEntry("pageSize", "4194304")
        .containsEntry("badImagePolicy", "quarantine").containsEntry("maxResolution", "512");
    assertThat(a.writeOptions()).doesNotContainKeys("maxImagePixels", "jpegStrict", "jpegPassThroughCheck");
    assertThat(a.newDatasetOptions()).containsEntry("writeMode", "smart").containsEntry("maxResolution", "512")
        .containsEntry("jpegQuality", "85");
    assertThat(a.progressSeconds()).isEqualTo(0.5);
    assertThat(a.debug()).isTrue();
    assertThat(a.demoImages()).isZero();
  }

  @Test
  void badInputFlagsBecomeTheWritersChecks() {
    PrepareArgs a = parse("--input", "in", "--output", "out", "--max-image-pixels", "40,000,000", "--lenient-jpeg",
        "--pass-through-check", "markers");
    assertThat(a.writeOptions()).containsEntry("maxImagePixels", "40000000").containsEntry("jpegStrict", "false")
        .containsEntry("jpegPassThroughCheck", "markers").doesNotContainKeys("writeMode", "maxResolution", "jpegQuality");
    // the image settings no flag gives: the defaults for a new dataset (an append takes the dataset's)
    assertThat(a.newDatasetOptions()).containsEntry("writeMode", "jpg").containsEntry("maxResolution", "256")
        .containsEntry("jpegQuality", "90").containsEntry("jpegStrict", "false");
    refused("Option --max-image-pixels must be a number of pixels from 1 to 268435456 (the codecs decode nothing"
        + " larger), got '300000000'", "--max-image-pixels", "300000000");
    refused("Option --max-image-pixels must be a number of pixels from 1 to 268435456 (the codecs decode nothing"
        + " larger), got 'lots'", "--max-image-pixels", "lots");
    refused("Option --pass-through-check must be decode or markers, got 'none'", "--pass-through-check", "none");
  }

  @Test
  void mistakesNameTheFlag() {
    refused("Option --mode must be raw, jpg, smart or proportion, got 'png'", "--mode", "png");
    refused("Option --bad-images must be fail, skip or quarantine, got 'ignore'", "--bad-images", "ignore");
    refused("Option --quality must be a JPEG quality from 1 to 100, got '101'", "--quality", "101");
    refused("Option --page-size must be a power of two from 2M to 1G, got '3M'", "--page-size", "3M");
    refused("Option --page-size: 'lots' is not a size; use bytes or a binary unit, e.g. 8M, 2MiB, 1G",
        "--page-size", "lots");
    refused("Option --max-resolution must be a positive integer, got '0'", "--max-resolution", "0");
    refused("Option --shards must be a positive integer, got '0'", "--shards", "0");
    refused("Option --read-ahead must be a number of image files from 0 to 256, got '257'", "--read-ahead", "257");
    refused("Option --read-ahead must be a number of image files from 0 to 256, got '-1'", "--read-ahead", "-1");
    refused("Option --progress-interval must be a number of seconds (0 for no progress lines), got '-1'",
        "--progress-interval", "-1");
    refused("--mode smart needs --smart-threshold: the raw RGB size (bytes, or e.g. 256K) above which an image is"
        + " stored as JPEG", "--input", "in", "--output", "out", "--mode", "smart");
    refused("--smart-threshold applies to --mode smart only (the mode is jpg): give --mode smart, or leave"
        + " --smart-threshold out", "--input", "in", "--output", "out", "--smart-threshold", "256K");
    refused("--quality applies to images stored as JPEG, and --mode raw stores every image as raw RGB: leave --quality"
        + " out, or choose another --mode", "--input", "in", "--output", "out", "--mode", "raw", "--quality", "80");
    refused("--demo-images draws the demo set, which --input replaces: give one of them", "--input", "in",
        "--output", "out", "--demo-images", "100");
    refused("--output is required with --input", "--input", "x");
    refused("Option --output needs a value", "--input", "x", "--output");
    refused("Unknown option --colour (--help lists the options)", "--colour", "red");
    refused("Unexpected argument 'photos'; options start with --", "photos");
  }

  @Test
  void aMisspelledFlagIsNamedWithTheNearestOne() {
    refused("Unknown option --inptu; did you mean --input?", "--inptu", "photos", "--output", "out");
    refused("Unknown option --max-resolutoin; did you mean --max-resolution?", "--max-resolutoin", "224");
    refused("Unknown option --bad-image; did you mean --bad-images?", "--bad-image", "skip");
    refused("Unknown option --Overwrite; did you mean --overwrite?", "--Overwrite");
  }

  @Test
  void valuesMayFollowAnEqualsSign() {
    PrepareArgs a = parse("--input=photos", "--output=s3a://bucket/a=b", "--quality=80", "--bad-images", "skip");
    assertThat(a.input()).isEqualTo("photos");
    assertThat(a.output()).isEqualTo("s3a://bucket/a=b");
    assertThat(a.writeOptions()).containsEntry("jpegQuality", "80").containsEntry("badImagePolicy", "skip");
    refused("Option --overwrite takes no value, got '--overwrite=yes'", "--input", "in", "--output", "out",
        "--overwrite=yes");
    refused("Option --quality must be a JPEG quality from 1 to 100, got ''", "--quality=");
  }

  @Test
  void aFlagWhereAValueShouldBeIsRefusedNotTakenAsTheValue() {
    refused("Option --output needs a value, got the option --overwrite after it", "--input", "in", "--output",
        "--overwrite");
    refused("Option --input needs a value, got the option --output after it", "--input", "--output", "out");
  }

  @Test
  void theUsageNamesEveryFlagAndNoOther() {
    java.util.Set<String> named = new java.util.TreeSet<>();
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("--[a-z-]+[a-z]").matcher(PrepareArgs.USAGE);
    while (m.find()) {
      named.add(m.group());
    }
    java.util.Set<String> flags = new java.util.TreeSet<>(PrepareArgs.FLAGS);
    flags.remove("-h");
    flags.remove("--help"); // the usage is what --help prints
    assertThat(named).isEqualTo(flags);
  }

  @Test
  void theDemoWritesUnderItsOwnFolder() {
    PrepareArgs demo = parse();
    assertThat(demo.saveMode()).isEqualTo(SaveMode.Overwrite);
    assertThat(demo.demoImages()).isEqualTo(2000);
    assertThat(demo.input()).isEqualTo(PrepareArgs.DEFAULT_DEMO_DIR + "/shapes");
    assertThat(demo.output()).isEqualTo(PrepareArgs.DEFAULT_DEMO_DIR + "/dataset");
    assertThat(demo.newDatasetOptions()).containsEntry("writeMode", "jpg").containsEntry("maxResolution", "256");
    String before = System.getProperty(PrepareArgs.DEMO_DIR_PROPERTY);
    System.setProperty(PrepareArgs.DEMO_DIR_PROPERTY, "/checkout/target/beton-demo");
    try {
      PrepareArgs anchored = parse("--output", "mine", "--demo-images", "100");
      assertThat(anchored.input()).isEqualTo("/checkout/target/beton-demo/shapes");
      assertThat(anchored.output()).isEqualTo("mine");
      assertThat(anchored.saveMode()).isEqualTo(SaveMode.ErrorIfExists);
      assertThat(anchored.demoImages()).isEqualTo(100);
      // a forgotten --input: the demo's shapes would replace (with --overwrite) the dataset meant to be written
      refused("--output without --input would write the demo set of shapes to real; give --input DIR (an ImageFolder"
          + " tree), or --demo-images N too to write the demo set there", "--output", "real", "--overwrite");
    } finally {
      if (before == null) {
        System.clearProperty(PrepareArgs.DEMO_DIR_PROPERTY);
      } else {
        System.setProperty(PrepareArgs.DEMO_DIR_PROPERTY, before);
      }
    }
  }

  /** What main prints for a UsageException: exit code, stdout, stderr. */
  private static String[] usage(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrepareArgs.UsageException e = catchThrowableOfType(() -> PrepareArgs.parse(args),
        PrepareArgs.UsageException.class);
    int code = PrepareJob.usage(e, new PrintStream(out, true, UTF_8), new PrintStream(err, true, UTF_8));
    return new String[] {Integer.toString(code), out.toString(UTF_8), err.toString(UTF_8)};
  }

  @Test
  void helpGoesToStandardOutputAndAMistakeToStandardError() {
    String usage = PrepareArgs.USAGE + System.lineSeparator();
    assertThat(usage("--help")).containsExactly("0", usage, "");
    assertThat(usage("-h")).containsExactly("0", usage, "");
    assertThat(usage("--input", "in", "--output", "out", "--overwrite", "--append")).containsExactly("2", "",
        "beton-prepare: --overwrite and --append exclude each other: replace the dataset, or add to it"
            + System.lineSeparator() + usage);
  }
}
