package org.sparkbeton.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sparkbeton.codec.testing.TestPhotos;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.dataset.DatasetVerifier;
import org.sparkbeton.format.dataset.PageChecksums;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.format.io.HadoopJavaSupport;
import org.sparkbeton.format.testing.GoldenFiles;
import org.sparkbeton.format.write.BetonWriter;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.LoaderFailedException;
import org.sparkbeton.loader.PhotoDatasets;
import org.sparkbeton.loader.decoders.CenterCropRgbDecoder;
import org.sparkbeton.loader.pipeline.Operation;
import org.sparkbeton.loader.pipeline.SampleContext;
import org.sparkbeton.loader.pipeline.TensorSpec;
import org.sparkbeton.loader.testing.PhotoFiles;

/** {@code doctor} and {@code bench}: wrong flags and unreadable datasets give one line (plus the --help hint for flags). */
class DoctorErrorsTest {
  @TempDir
  static Path tmp;
  static Path photos;

  @BeforeAll
  static void write() throws IOException {
    photos = PhotoFiles.write(tmp, "photos", 8, 5);
  }

  /** Exit 2, the one error line, and for a usage error the hint; never a stack trace. */
  static void fails(Cli.Result r, String line, boolean usage) {
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ");
    if (usage) {
      assertThat(r.errLines()).hasSize(2);
      assertThat(r.errLines().get(1)).matches("Try 'beton (doctor|bench) --help' for usage\\.");
    } else {
      assertThat(r.errLines()).hasSize(1);
    }
    assertThat(r.errLines().get(0)).isEqualTo(line);
  }

  /**
   * A remote dataset's failure: {@code line} where Hadoop runs on this Java; where it cannot (Java 24 and later, CI's
   * newer-Java leg), the refusal that says so, before any remote flag or scheme is looked at.
   */
  static void failsRemote(Cli.Result r, String dataset, String line) {
    fails(r, HadoopJavaSupport.refusal().map(why -> "beton: " + dataset + ": " + why + "; local files and dataset"
        + " directories read on this Java (copy the dataset here first, e.g. `hadoop fs -get " + dataset + "`)")
        .orElse(line), false);
  }

  @ParameterizedTest
  @ValueSource(strings = {"doctor", "bench"})
  void unreadableDatasets(String command) throws IOException {
    Path missing = tmp.resolve("nope.beton");
    fails(Cli.run(command, missing), "beton: " + missing + ": no such file or directory", false);

    Path empty = Files.createDirectories(tmp.resolve("empty-" + command));
    fails(Cli.run(command, empty), "beton: " + empty + " has no _manifest.json: not a dataset directory", false);

    byte[] bytes = GoldenFiles.bytes("jpg_labels");
    Path truncated = tmp.resolve("short-" + command + ".beton");
    Files.write(truncated, Arrays.copyOf(bytes, bytes.length - 100));
    fails(Cli.run(command, truncated), "beton: " + truncated + ": allocation table at offset 4194304: "
        + (bytes.length - 100 - 4194304L) + " bytes to end of file is not a multiple of 24", false);

    Path scalars = GoldenFiles.path("scalars_only");
    assertThat(Cli.run(command, scalars).errLines().get(0)).startsWith("beton: " + scalars + " has no image field"
        + " (its fields: ").endsWith("); the doctor measures image pipelines");

    failsRemote(Cli.run(command, "s3://bucket/train"), "s3://bucket/train",
        "beton: s3://bucket/train: no Hadoop FileSystem for scheme 's3' on"
        + " the classpath; the loader reads local files and dataset directories, and hdfs:// and other Hadoop file"
        + " systems");
    failsRemote(Cli.run(command, "s3a://bucket/train"), "s3a://bucket/train",
        "beton: s3a://bucket/train: no Hadoop FileSystem for scheme 's3a'"
        + " (s3a:// needs hadoop-aws 3.3.4, the AWS SDK bundle and commons-lang3 on the classpath: BETON_CLASSPATH; see"
        + " beton-cli/README.md); the"
        + " loader reads local files and dataset directories, and hdfs:// and other Hadoop file systems");
    failsRemote(Cli.run(command, "nosuch://host/train"), "nosuch://host/train",
        "beton: nosuch://host/train: no Hadoop FileSystem for scheme"
        + " 'nosuch' on the classpath; the loader reads local files and dataset directories, and hdfs:// and other"
        + " Hadoop file systems");
  }

  @Test
  void aFileUriIsALocalPath() {
    Cli.Result r = Cli.run("doctor", tmp.resolve("nope.beton").toUri());
    fails(r, "beton: " + tmp.resolve("nope.beton") + ": no such file or directory", false);
  }

  @ParameterizedTest
  @ValueSource(strings = {"doctor", "bench"})
  void remoteFlagsOnALocalDatasetAndWrongRemoteFlags(String command) {
    fails(Cli.run(command, photos, "--cache-dir", tmp.resolve("c"), "--downloads", 2), "beton: --cache-dir,"
        + " --downloads: for remote datasets (hdfs://, s3a://, ...); " + photos + " is read in place", false);
    fails(Cli.run(command, photos, "-D", "fs.defaultFS=hdfs://x:1"), "beton: -D: for remote datasets (hdfs://,"
        + " s3a://, ...); " + photos + " is read in place", false);
    failsRemote(Cli.run(command, "hdfs://localhost:1/x", "--cache-bytes", "lots"), "hdfs://localhost:1/x",
        "beton: --cache-bytes lots: " + sizeError("lots"));
    failsRemote(Cli.run(command, "hdfs://localhost:1/x", "--downloads", 0), "hdfs://localhost:1/x",
        "beton: --downloads must be >= 1, got 0");
    Path none = tmp.resolve("no-site.xml");
    failsRemote(Cli.run(command, "hdfs://localhost:1/x", "--hadoop-conf", none), "hdfs://localhost:1/x",
        "beton: --hadoop-conf " + none + ": no such file");
  }

  static String sizeError(String text) {
    try {
      org.sparkbeton.format.ByteSizes.parse(text);
      throw new AssertionError(text + " parsed");
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"doctor", "bench"})
  void wrongFlags(String command) {
    fails(Cli.run(command, photos, "--pipeline", "resnet"),
        "beton: Invalid value for option '--pipeline': expected rrc224, center224 or simple, got 'resnet'", true);
    fails(Cli.run(command, photos, "--order", "shuffled"),
        "beton: Invalid value for option '--order': expected random, quasi_random or sequential, got 'shuffled'", true);
    fails(Cli.run(command, photos, "--cache", "disk"),
        "beton: Invalid value for option '--cache': Cache 'disk': expected os or process:SIZE (e.g. process:4G)", true);
    assertThat(Cli.run(command, photos, "--cache", "process:lots").errLines().get(0))
        .startsWith("beton: Invalid value for option '--cache': Cache 'process:lots': ");
    fails(Cli.run(command, photos, "--threads", 0), "beton: --threads must be >= 1, got 0", false);
    int processors = Runtime.getRuntime().availableProcessors();
    fails(Cli.run(command, photos, "--threads", 100000), "beton: --threads 100000 is more than "
        + LoaderFlags.maxThreads(processors) + ", 8 per processor of this machine (" + processors + "): threads beyond"
        + " the processors only wait for them; the default is one per processor", false);
    fails(Cli.run(command, photos, "--batch", -3), "beton: --batch must be >= 1, got -3", false);
    fails(Cli.run(command, photos, "--batch", "many"),
        "beton: Invalid value for option '--batch': 'many' is not an int", true);
    fails(Cli.run(command, photos, "--no-such-flag"), "beton: Unknown option '--no-such-flag'", true);
  }

  @Test
  void doctorFlags() {
    fails(Cli.run("doctor", photos, "--consumer-ms", 5, "--consumer-rate", 100),
        "beton: Error: --consumer-ms=M, --consumer-rate=IMAGES_PER_S are mutually exclusive (specify only one)", true);
    fails(Cli.run("doctor", photos, "--consumer-ms", 0),
        "beton: --consumer-ms must be a positive number of milliseconds per batch, got 0.0", false);
    fails(Cli.run("doctor", photos, "--consumer-rate", -2),
        "beton: --consumer-rate must be a positive number of images per second, got -2.0", false);
    fails(Cli.run("doctor", photos, "--seconds", 0), "beton: --seconds must be in (0, 3600], got 0.0", false);
    fails(Cli.run("doctor", photos, "--sample", 0), "beton: --sample must be >= 1, got 0", false);
    fails(Cli.run("doctor", photos, "--batch", 9, "--seconds", 1),
        "beton: --batch 9 is larger than the 8 samples of " + photos, false);
    fails(Cli.run("doctor", photos, "--pipeline", "simple", "--seconds", 1), "beton: --pipeline simple decodes images"
        + " as stored, so they must all have one size, but the images of " + photos + " do not; use --pipeline rrc224"
        + " or center224", false);
  }

  @Test
  void benchFlags() {
    fails(Cli.run("bench", photos, "--epochs", 1),
        "beton: --epochs must be >= 2 (epoch 1 is reported apart from the rest), got 1", false);
    fails(Cli.run("bench", photos, "--samples", -1), "beton: --samples must be >= 0 (0: all), got -1", false);
    fails(Cli.run("bench", photos, "--batch", 9),
        "beton: --batch 9 is larger than the 8 samples per epoch (--samples)", false);
  }

  @ParameterizedTest
  @ValueSource(strings = {"doctor", "bench"})
  void aCorruptJpegNamesTheSample(String command) throws IOException {
    Path bad = tmp.resolve("corrupt-" + command + ".beton");
    try (BetonWriter w = BetonWriter.builder(List.of(new BetonField("image", RgbImageField.INSTANCE)))
        .pageSize(2 << 20).open(bad)) {
      for (int i = 0; i < 8; i++) {
        byte[] jpeg = TestPhotos.photo(5, i);
        int[] size = PhotoFiles.size(jpeg);
        w.append(RgbImage.jpeg(size[0], size[1], i == 6 ? Arrays.copyOf(jpeg, jpeg.length / 3) : jpeg));
      }
      w.finish();
    }
    Cli.Result r = Cli.run(command, bad, command.equals("doctor") ? "--seconds" : "--epochs", 2, "--threads", 1,
        "--batch", 4);

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines()).as(r.err()).hasSize(1);
    assertThat(r.errLines().get(0)).startsWith("beton: ").contains("sample 6").contains("Premature end of JPEG file")
        .doesNotContain("bug");
  }

  /** 8 photos; sample 6 is a PNG of the photo's size stored as a JPEG (the metadata says jpg). */
  private static Path pngAsJpeg(String name) throws IOException {
    Path file = tmp.resolve(name + ".beton");
    try (BetonWriter w = BetonWriter.builder(List.of(new BetonField("image", RgbImageField.INSTANCE)))
        .pageSize(2 << 20).open(file)) {
      for (int i = 0; i < 8; i++) {
        byte[] jpeg = TestPhotos.photo(5, i);
        int[] size = PhotoFiles.size(jpeg);
        w.append(RgbImage.jpeg(size[0], size[1], i == 6 ? png(size[0], size[1]) : jpeg));
      }
      w.finish();
    }
    return file;
  }

  private static byte[] png(int width, int height) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ImageIO.write(new BufferedImage(width, height, BufferedImage.TYPE_3BYTE_BGR), "png", out);
    return out.toByteArray();
  }

  @Test
  void benchOnAPngStoredAsAJpegSaysWhereInOneLineNotABug() throws IOException {
    Path bad = pngAsJpeg("png-bench");
    Cli.Result r = Cli.run("bench", bad, "--epochs", 2, "--threads", 1, "--batch", 4, "--order", "sequential");

    fails(r, "beton: Loader failed in epoch 0, batch 1, sample 6, output 'image': " + bad + ", sample 6, field"
        + " 'image': the JPEG payload has no readable frame header (SOF marker)", false);
  }

  @Test
  void doctorOnAPngStoredAsAJpegNamesTheDatasetsFileNotItsCopy() throws IOException {
    Path bad = pngAsJpeg("png-doctor");
    Cli.Result r = Cli.run("doctor", bad, "--seconds", 1, "--threads", 1, "--batch", 4);

    fails(r, "beton: " + bad + ", sample 6, field 'image': the JPEG payload has no readable frame header (SOF"
        + " marker) (sample 6 of " + bad + ", read by the doctor's training loader from its copy of 8 samples in"
        + " memory)", false);
  }

  @Test
  void aWorkersOwnFailureStillLooksLikeABug() throws IOException {
    Operation npe = input -> new Operation.Stage() {
      @Override
      public TensorSpec output() {
        return input;
      }

      @Override
      public void apply(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset, SampleContext ctx) {
        throw new NullPointerException("a bug");
      }
    };
    LoaderFailedException e;
    try (Loader loader = Loader.builder(photos).batchSize(4).numThreads(1)
        .pipeline("image", new CenterCropRgbDecoder(16, 16, 0.875), npe).build()) {
      e = catchThrowableOfType(() -> loader.iterator().next(), LoaderFailedException.class);
    }

    assertThat(e).isNotNull();
    assertThat(BetonCli.isUserError(e)).isFalse();
    assertThat(DatasetArgument.userFacing(e)).isSameAs(e);
    assertThat(BetonCli.userMessage(e)).startsWith("LoaderFailedException: Loader failed in epoch 0, batch 0, sample ")
        .endsWith(": java.lang.NullPointerException: a bug");
  }

  /**
   * Two shards of 8 photos with page checksums in the manifest; one byte of shard 1's data page inverted, inside a
   * JPEG header, so the image still decodes and only the page's checksum tells.
   */
  private static Path damagedPage(String name) throws Exception {
    Path dir = PhotoDatasets.write(tmp.resolve(name), List.of(PhotoDatasets.samples(5, 8),
        PhotoDatasets.samples(6, 8)));
    PageChecksums sums = DatasetVerifier.manifest(dir).shards().get(1).pageChecksums();
    try (RandomAccessFile f = new RandomAccessFile(dir.resolve("part-00001.beton").toFile(), "rw")) {
      long at = sums.unitStart(sums.dataUnit(0)) + 100;
      f.seek(at);
      int b = f.read();
      f.seek(at);
      f.write(b ^ 0xFF);
    }
    return dir;
  }

  @ParameterizedTest
  @ValueSource(strings = {"doctor", "bench"})
  void aPageThatFailsTheManifestsChecksumFailsAsInTheLoader(String command) throws Exception {
    Path dir = damagedPage("flip-" + command);
    Cli.Result r = Cli.run(command, dir, command.equals("doctor") ? "--seconds" : "--epochs", 2, "--threads", 1,
        "--batch", 4, "--order", "sequential");

    assertThat(r.exitCode()).as(r.out()).isEqualTo(2);
    assertThat(r.errLines()).as(r.err()).hasSize(1);
    // the bench meets the page in its loader; the doctor before that, reading its sample of the images
    String where = command.equals("bench") ? "Loader failed in epoch 0, batch 2, sample 8, output 'image': " : "";
    assertThat(r.errLines().get(0)).startsWith("beton: " + where + dir.resolve("part-00001.beton")
        + ": page 0 (data region, bytes [").contains("CRC32C is ").contains(" but the manifest says ")
        .endsWith(": the shard changed after it was written");
  }
}
