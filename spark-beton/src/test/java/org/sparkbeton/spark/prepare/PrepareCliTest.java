package org.sparkbeton.spark.prepare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.codec.testing.CorruptionCorpus;
import org.sparkbeton.codec.testing.TestPhotos;

/**
 * {@code beton-prepare} as a user runs it: its own JVM, with the command line's logging configuration
 * ({@code bin/log4j2-quiet.properties}), standard output and error captured. A bad image under the default policy is
 * one line on standard error naming the image and the flag to set, and the same command succeeds once the image is
 * fixed, although the failed run left its output folder behind.
 */
class PrepareCliTest {
  /** Surefire runs in the module directory. */
  static final Path ROOT = Path.of("").toAbsolutePath().getParent();
  private static final long TIMEOUT_MINUTES = 4;

  @TempDir Path tmp;

  record Run(int exitCode, List<String> out, List<String> err) {
  }

  /** PrepareJob in a new JVM, in {@code tmp}: this JVM's class path and Spark's --add-opens, at most 1 GiB of heap. */
  Run prepare(String... args) throws Exception {
    return prepare(List.of(), args);
  }

  /** {@link #prepare(String...)} with more JVM options, such as the {@code -Dspark.*} settings spark-submit passes. */
  Run prepare(List<String> jvmOptions, String... args) throws Exception {
    return prepareOn(Path.of(System.getProperty("java.home"), "bin", "java"), jvmOptions, args);
  }

  /** {@link #prepare(List, String...)} in the JVM that {@code java} starts. */
  Run prepareOn(Path java, List<String> jvmOptions, String... args) throws Exception {
    return runOn(java, jvmOptions, PrepareJob.class, args);
  }

  /** The compaction job ({@code beton compact}) in a new JVM, as {@link #prepare(String...)} runs the prepare job. */
  Run compact(String... args) throws Exception {
    return runOn(Path.of(System.getProperty("java.home"), "bin", "java"), List.of(), CompactJob.class, args);
  }

  /** {@code main} with {@code args} in the JVM that {@code java} starts, in {@code tmp}. */
  Run runOn(Path java, List<String> jvmOptions, Class<?> main, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(java.toString()));
    for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (a.startsWith("--add-opens") || a.startsWith("--add-exports")) {
        cmd.add(a);
      }
    }
    // no Spark UI: on a machine running other Spark jobs its port may be taken, which Spark reports with a warning
    cmd.addAll(List.of("-Xmx1g", "-Dlog4j2.configurationFile=" + ROOT.resolve("bin/log4j2-quiet.properties"),
        "-Dspark.ui.enabled=false", "-Djava.io.tmpdir=" + tmp));
    cmd.addAll(jvmOptions);
    cmd.addAll(List.of("-cp",
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
        main.getName()));
    cmd.addAll(Arrays.asList(args));
    Path out = tmp.resolve("stdout.txt");
    Path err = tmp.resolve("stderr.txt");
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(tmp.toFile()).redirectOutput(out.toFile())
        .redirectError(err.toFile());
    pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    Process p = pb.start();
    if (!p.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
      p.destroyForcibly().waitFor();
      fail("beton-prepare still running after " + TIMEOUT_MINUTES + " minutes; stderr so far:\n" + Files.readString(err));
    }
    return new Run(p.exitValue(), Files.readAllLines(out, StandardCharsets.UTF_8),
        Files.readAllLines(err, StandardCharsets.UTF_8));
  }

  @Test
  void aBadImageIsOneLineAndTheRetryAfterFixingItSucceeds() throws Exception {
    Path photos = tmp.resolve("photos");
    TestPhotos.writeImageFolder(photos, 16, 2, 31);
    Path broken = photos.resolve("class_01").resolve("broken.jpg");
    byte[] photo = TestPhotos.photo(31, 50);
    Files.write(broken, Arrays.copyOf(photo, photo.length / 2));
    // relative paths: taken from the working directory
    String[] command = {"--input", "photos", "--output", "dataset", "--master", "local[2]", "--page-size", "2M",
        "--max-resolution", "96", "--progress-interval", "0"};

    Run failed = prepare(command);

    assertThat(failed.exitCode()).as("exit code; stderr: %s", failed.err()).isEqualTo(2);
    assertThat(failed.out()).isEmpty();
    assertThat(failed.err()).hasSize(1);
    assertThat(failed.err().get(0))
        .startsWith("beton-prepare: bad image in column 'image', row ")
        .contains("(source " + broken.toUri().toString().replace("file:///", "file:/") + "): ")
        .contains("Premature end of JPEG file")
        .endsWith("; pass --bad-images skip to leave such images out, or --bad-images quarantine to list them in"
            + " dataset/_quarantine/");

    Files.write(broken, TestPhotos.photo(31, 50));
    Run retried = prepare(command);

    assertThat(retried.exitCode()).as("exit code; stderr: %s", retried.err()).isZero();
    assertThat(retried.err()).isEmpty();
    assertThat(retried.out()).contains("images listed     17", "samples written   17", "rows skipped      0",
        "rows quarantined  0");
    assertThat(retried.out().get(0)).isEqualTo("dataset           " + tmp.resolve("dataset").toUri().toString()
        .replace("file:///", "file:/").replaceFirst("/$", ""));
    assertThat(tmp.resolve("dataset").resolve("_manifest.json")).exists();

    // an append without image flags stores the new photos as the dataset's (96 px, not the default 256), and labels
    // class_01's photos 1 although the new input holds no class_00
    Path more = Files.createDirectories(tmp.resolve("more").resolve("class_01"));
    Files.write(more.resolve("new.jpg"), TestPhotos.photo(31, 60));
    Run appended = prepare("--input", "more", "--output", "dataset", "--append", "--master", "local[2]",
        "--progress-interval", "0");
    assertThat(appended.exitCode()).as("exit code; stderr: %s", appended.err()).isZero();
    assertThat(appended.out()).anySatisfy(l -> assertThat(l).matches("1 +class_01 +10"));
    org.sparkbeton.format.dataset.DatasetManifest manifest = org.sparkbeton.format.dataset.DatasetManifest.parse(
        Files.readString(tmp.resolve("dataset").resolve("_manifest.json")));
    assertThat(manifest.recipe()).containsEntry("max_resolution", "96").containsEntry("write_mode", "jpg")
        .containsEntry("class_names", "[\"class_00\",\"class_01\"]");

    // beton compact: the first write's two shards merged into one, the recipe kept; the append's shard has other
    // pages (8 MiB, the default, not the first write's 2 MiB), so it stays as it is
    assertThat(manifest.shards()).hasSize(3);
    String mib = String.format(java.util.Locale.ROOT, "%.1f", manifest.shards().stream().limit(2)
        .mapToLong(org.sparkbeton.format.dataset.ShardEntry::bytes).sum() / 1048576.0);
    Run dry = compact("dataset", "--dry-run");
    assertThat(dry.out()).as("stderr: %s", dry.err()).containsExactly("beton compaction of dataset (dry run): would"
        + " merge 3 shards into 2 (1 run, 17 samples, " + mib + " MiB to move); nothing changed");
    assertThat(Files.readString(tmp.resolve("dataset").resolve("_manifest.json"))).isEqualTo(manifest.toJson());
    Run compacted = compact("dataset");
    assertThat(compacted.exitCode()).as("exit code; stderr: %s", compacted.err()).isZero();
    assertThat(compacted.out()).containsExactly("beton compaction of dataset: 3 shards into 2 (1 run merged, 17"
        + " samples, " + mib + " MiB moved)");
    org.sparkbeton.format.dataset.DatasetManifest after = org.sparkbeton.format.dataset.DatasetManifest.parse(
        Files.readString(tmp.resolve("dataset").resolve("_manifest.json")));
    assertThat(after.shards()).extracting(org.sparkbeton.format.dataset.ShardEntry::samples).containsExactly(17L, 1L);
    assertThat(after.recipe()).containsEntry("class_names", "[\"class_00\",\"class_01\"]")
        .containsEntry("dataset_id", manifest.recipe().get("dataset_id"));
    assertThat(compact("dataset", "--target-shard-size", "lots").err()).containsExactly("beton-compact: Option"
        + " targetShardSize: 'lots' is not a size; use bytes or a binary unit, e.g. 8M, 2MiB, 1G");
  }

  /**
   * A master Spark cannot start on is one line naming it and why, exit 2 (a bad argument): not Spark's stack traces,
   * and not a minute of retries of a standalone master that nobody answers at.
   */
  @Test
  void aMasterSparkCannotStartOnIsOneLine() throws Exception {
    Path photos = tmp.resolve("photos");
    TestPhotos.writeImageFolder(photos, 2, 1, 53);
    Run unparsed = prepare("--input", "photos", "--output", "dataset", "--master", "foo", "--progress-interval", "0");
    assertThat(unparsed.exitCode()).as("exit code; stderr: %s", unparsed.err()).isEqualTo(2);
    assertThat(unparsed.out()).isEmpty();
    assertThat(unparsed.err()).containsExactly("beton-prepare: Spark could not start on --master foo: Could not parse"
        + " Master URL: 'foo'");

    int port;
    try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
      port = free.getLocalPort();
    }
    String master = "spark://127.0.0.1:" + port;
    long t0 = System.nanoTime();
    Run unanswered = prepare("--input", "photos", "--output", "dataset", "--master", master, "--progress-interval", "0");
    assertThat(unanswered.exitCode()).as("exit code; stderr: %s", unanswered.err()).isEqualTo(2);
    assertThat(unanswered.err()).containsExactly("beton-prepare: Spark could not start on --master " + master + ": no"
        + " master answers at 127.0.0.1:" + port + " (Connection refused)");
    assertThat((System.nanoTime() - t0) / 1e9).as("seconds").isLessThan(30); // Spark retries for 60
    assertThat(tmp.resolve("dataset")).doesNotExist();
  }

  /**
   * {@code --shards} beyond the images writes one shard per image (100,000 empty tasks took minutes), says so, and
   * the advice about small shards that follows is in flags ({@code --shards}, {@code beton compact}), not the
   * DataFrame API's {@code df.coalesce}.
   */
  @Test
  void moreShardsThanImagesAreOnePerImageWithAdviceInFlags() throws Exception {
    Path photos = tmp.resolve("photos");
    TestPhotos.writeImageFolder(photos, 40, 2, 59);
    Run run = prepare("--input", "photos", "--output", "dataset", "--shards", "100000", "--master", "local[2]",
        "--max-resolution", "32", "--page-size", "2M", "--progress-interval", "0");
    assertThat(run.exitCode()).as("exit code; stderr: %s", run.err()).isZero();
    assertThat(run.out()).anySatisfy(l -> assertThat(l).matches("shards {12}40, [0-9.]+ MB \\(--shards 100,000 is more"
        + " than the images: at most one shard per image\\)"));
    String dataset = tmp.resolve("dataset").toUri().toString().replace("file:///", "file:/").replaceFirst("/$", "");
    assertThat(run.err()).singleElement().asString().startsWith("beton-prepare: note: 40 shards of ")
        .contains(" on average: small shards slow every open of the dataset (reads and the loader open each one);"
            + " --shards 1 writes shards of about ")
        .endsWith(", and beton compact " + dataset + " merges the shards written");
  }

  /** Image names that are links to nothing are left out, as Hadoop's listing leaves them out, with one warning. */
  @Test
  void danglingLinksAreLeftOutWithAWarning() throws Exception {
    Path photos = tmp.resolve("photos");
    TestPhotos.writeImageFolder(photos, 4, 2, 43);
    Files.createSymbolicLink(photos.resolve("class_01").resolve("moved.jpg"), tmp.resolve("elsewhere").resolve("x.jpg"));
    Run run = prepare("--input", "photos", "--output", "dataset", "--master", "local[2]", "--page-size", "2M",
        "--max-resolution", "64", "--progress-interval", "0");
    assertThat(run.exitCode()).as("exit code; stderr: %s", run.err()).isZero();
    assertThat(run.out()).contains("images listed     4", "samples written   4");
    assertThat(run.err()).singleElement().asString().endsWith(" WARN ImageFolderListing: Left out 1 image name(s) in "
        + photos.resolve("class_01").toUri().toString().replace("file:///", "file:/").replaceFirst("/$", "")
        + " that are symbolic links to nothing: moved.jpg");
  }

  /**
   * Files that are not images are counted in the summary, per extension, and a class folder that held only such
   * files is named on standard error; a file name whose bytes are not UTF-8 is bad input (exit 2) in one line with
   * its fix.
   */
  @Test
  void leftOutFilesAreReportedAndAnUnreadableNameIsBadInput() throws Exception {
    Path photos = tmp.resolve("photos");
    TestPhotos.writeImageFolder(photos, 4, 2, 61);
    Files.writeString(photos.resolve("class_00").resolve("README.txt"), "x");
    Path heic = Files.createDirectories(photos.resolve("heic"));
    Files.writeString(heic.resolve("IMG_0001.HEIC"), "x");
    Files.writeString(heic.resolve("IMG_0002.heic"), "x");
    Files.copy(photos.resolve("class_00").resolve("photo_00000.jpg"), photos.resolve("stray.jpg"));
    String[] command = {"--input", "photos", "--output", "dataset", "--overwrite", "--master", "local[2]",
        "--page-size", "2M", "--max-resolution", "64", "--progress-interval", "0"};

    Run run = prepare(command);
    assertThat(run.exitCode()).as("exit code; stderr: %s", run.err()).isZero();
    assertThat(run.out()).contains("images listed     4", "left out          1 image directly under the input, in no"
        + " class folder, 3 files that are not images by their extension (2 .heic, 1 .txt)", "samples written   4");
    assertThat(run.out()).anySatisfy(l -> assertThat(l).matches("2 +heic +0"));
    assertThat(run.err()).containsExactly("beton-prepare: warning: 1 image lies directly under the input, in no class"
        + " folder, and was left out: a sample's class is its image's folder, so move it into one",
        "beton-prepare: warning: class folder 'heic' has no images, so its class gets 0 samples: left out 2 files that"
        + " are not images by their extension (2 .heic)");

    Path folder = photos.resolve("class_01");
    ImageFolderListingTest.writeLatin1Name(folder);
    Run refused = prepare(command);
    assertThat(refused.exitCode()).as("exit code; stderr: %s", refused.err()).isEqualTo(2);
    assertThat(refused.out()).isEmpty();
    assertThat(refused.err()).containsExactly("beton-prepare: Cannot read the name of an entry of folder file:"
        + folder + " (it reads as 'photo_\ufffdt\ufffd.jpg'): its bytes are not UTF-8; rename it in UTF-8, e.g. with"
        + " convmv -f latin1 -t utf8 -r --notest " + folder + " where names were written in Latin-1 (without"
        + " --notest convmv only shows what it would rename)");
  }

  /** A JPEG only a strict decode refuses: the one line names --lenient-jpeg first, and that flag stores it. */
  @Test
  void aJpegOnlyAStrictDecodeRefusesNamesLenientJpeg() throws Exception {
    Path photos = tmp.resolve("photos");
    TestPhotos.writeImageFolder(photos, 6, 2, 41);
    Files.write(photos.resolve("class_00").resolve("padded.jpg"),
        CorruptionCorpus.withPaddingBeforeEoi(TestPhotos.photo(41, 60), 240));
    List<String> command = new ArrayList<>(List.of("--input", "photos", "--output", "dataset", "--master", "local[2]",
        "--page-size", "2M", "--max-resolution", "64", "--progress-interval", "0"));

    Run refused = prepare(command.toArray(String[]::new));
    assertThat(refused.exitCode()).as("exit code; stderr: %s", refused.err()).isEqualTo(2);
    assertThat(refused.err()).singleElement().asString().contains("Corrupt JPEG data: ")
        .contains("; pass --lenient-jpeg to store what libjpeg decodes around the damage (as FFCV does), --bad-images"
            + " skip to leave such images out, or --bad-images quarantine to list them in dataset/_quarantine/");

    command.add("--lenient-jpeg");
    Run stored = prepare(command.toArray(String[]::new));
    assertThat(stored.exitCode()).as("exit code; stderr: %s", stored.err()).isZero();
    assertThat(stored.out()).contains("images listed     7", "samples written   7");
  }

  /**
   * A cluster whose spark-defaults.conf sets Kryo and requires registration: the job registers what it sends (its
   * listing's slices, its write tasks' results) with both ways of listing, by the driver and by tasks.
   */
  @Test
  void preparesWhereKryoRequiresRegistration() throws Exception {
    Path photos = tmp.resolve("photos");
    TestPhotos.writeImageFolder(photos, 12, 3, 37);
    List<String> kryo = List.of("-Dspark.serializer=org.apache.spark.serializer.KryoSerializer",
        "-Dspark.kryo.registrationRequired=true");
    List<String> listedByTasks = new ArrayList<>(kryo);
    listedByTasks.add("-D" + ImageFolderListing.PARALLEL_LISTING_THRESHOLD + "=1");
    for (List<String> options : List.of(kryo, listedByTasks)) {
      Run run = prepare(options, "--input", "photos", "--output", "dataset", "--overwrite", "--master",
          "local[2]", "--page-size", "2M", "--max-resolution", "64", "--progress-interval", "0");
      assertThat(run.exitCode()).as("exit code with %s; stderr: %s", options, run.err()).isZero();
      assertThat(run.out()).as("with %s", options).contains("images listed     12", "samples written   12");
    }
  }

  /**
   * On a Java that Hadoop 3.3 cannot run on (24 and later), Spark cannot start: one line says why and which Java to
   * use, before Spark prints its stack trace, and nothing is written. Runs where {@code BETON_NEWER_JAVA} names such a
   * Java (.ci/run sets it where the machine has one).
   */
  @Test
  void onAJavaHadoopCannotRunOnOneLineSaysWhichJavaToUse() throws Exception {
    String newer = System.getenv("BETON_NEWER_JAVA");
    assumeTrue(newer != null && !newer.isBlank(), "BETON_NEWER_JAVA names no newer Java");
    Path java = Path.of(newer);
    int feature = featureVersion(java);
    assumeTrue(feature >= 24, "BETON_NEWER_JAVA is Java " + feature + ", which Hadoop 3.3 runs on");
    Path photos = tmp.resolve("photos");
    TestPhotos.writeImageFolder(photos, 2, 1, 47);
    Run run = prepareOn(java, List.of("--enable-native-access=ALL-UNNAMED"), "--input", "photos", "--output",
        "dataset", "--master", "local[1]", "--progress-interval", "0");
    assertThat(run.exitCode()).as("exit code; stderr: %s", run.err()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    // Spark's --add-opens name a package Java 24 removed: the JVM says so before the job starts
    assertThat(run.err()).filteredOn(line -> !line.equals("WARNING: package sun.security.action not in java.base"))
        .containsExactly("beton-prepare: Spark 3.5 cannot start on this Java: Hadoop 3.3 cannot run"
        + " on this Java " + feature + ": its UserGroupInformation asks Subject.getSubject for the caller's identity,"
        + " which Java 24 and later refuse (Java 23 unless started with -Djava.security.manager=allow). Run it on Java"
        + " 17 to 22 (set JAVA_HOME to one)");
    assertThat(tmp.resolve("dataset")).doesNotExist();
  }

  /** The feature release of the JDK whose {@code bin/java} is {@code java}, from its {@code release} file. */
  static int featureVersion(Path java) throws java.io.IOException {
    Path release = java.toAbsolutePath().getParent().getParent().resolve("release");
    for (String line : Files.readAllLines(release)) {
      if (line.startsWith("JAVA_VERSION=")) {
        return Runtime.Version.parse(line.substring("JAVA_VERSION=".length()).replace("\"", "")).feature();
      }
    }
    throw new IllegalStateException(release + " names no JAVA_VERSION");
  }

  @Test
  void addsOurKryoRegistratorToTheClustersOwn() {
    String ours = "org.sparkbeton.spark.BetonKryoRegistrator";
    assertThat(PrepareJob.withOurRegistrator(null)).isEqualTo(ours);
    assertThat(PrepareJob.withOurRegistrator(" ")).isEqualTo(ours);
    assertThat(PrepareJob.withOurRegistrator("com.example.Reg")).isEqualTo("com.example.Reg," + ours);
    assertThat(PrepareJob.withOurRegistrator("com.example.Reg, " + ours)).isEqualTo("com.example.Reg, " + ours);
  }
}
