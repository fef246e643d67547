package org.sparkbeton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sparkbeton.format.SparkBetonVersion;
import org.sparkbeton.format.testing.GoldenFiles;

/** Every user mistake: exit code 2 and one clear line on stderr, never a stack trace. */
class ErrorsTest {
  @TempDir
  Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"inspect", "dump", "verify"})
  void missingFile(String command) {
    Path missing = tmp.resolve("nope.beton");

    Cli.Result r = Cli.run(command, missing);

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines()).containsExactly("beton: " + missing + ": no such file");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void missingMergeInput() {
    Path missing = tmp.resolve("nope.beton");
    Cli.Result r = Cli.run("merge", tmp.resolve("out.beton"), GoldenFiles.path("jpg_labels"), missing);

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines()).containsExactly("beton: " + missing + ": no such file");
  }

  @Test
  void directoryInsteadOfFile() {
    Cli.Result r = Cli.run("dump", tmp);

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines()).containsExactly("beton: " + tmp + ": is a directory, expected a .beton file");
  }

  @Test
  void inspectOfADirectoryWithoutManifestSaysWhatItLacksAndWhatToName() throws Exception {
    Cli.Result empty = Cli.run("inspect", tmp);
    assertThat(empty.exitCode()).isEqualTo(2);
    assertThat(empty.errLines()).containsExactly("beton: " + tmp + " has no _manifest.json: not a dataset directory;"
        + " inspect takes a .beton file, or a dataset directory as Spark writes it (with its _manifest.json)");

    Files.copy(GoldenFiles.path("jpg_labels"), tmp.resolve("a.beton"));
    Cli.Result files = Cli.run("inspect", tmp);
    assertThat(files.exitCode()).isEqualTo(2);
    assertThat(files.errLines()).containsExactly("beton: " + tmp + " has no _manifest.json: not a dataset directory;"
        + " inspect takes a .beton file, or a dataset directory as Spark writes it (with its _manifest.json); it"
        + " holds 1 .beton file: name one, e.g. `beton inspect " + tmp.resolve("a.beton") + "`");
  }

  @Test
  void directoryOfBetonFilesNamesTheFirst() throws Exception {
    Files.copy(GoldenFiles.path("jpg_labels"), tmp.resolve("b.beton"));
    Files.copy(GoldenFiles.path("jpg_labels"), tmp.resolve("a.beton"));
    Cli.Result r = Cli.run("dump", tmp);

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines()).containsExactly("beton: " + tmp + ": is a directory, expected a .beton file; it holds 2"
        + " .beton files, the first " + tmp.resolve("a.beton"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"inspect", "dump", "rewrite"})
  void truncatedFile(String command) throws Exception {
    byte[] bytes = GoldenFiles.bytes("jpg_labels");
    Path bad = tmp.resolve("short.beton");
    Files.write(bad, Arrays.copyOf(bytes, bytes.length - 100));

    Cli.Result r = command.equals("rewrite") ? Cli.run(command, bad, tmp.resolve("out.beton")) : Cli.run(command, bad);

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines()).containsExactly("beton: " + bad + ": allocation table at offset 4194304: "
        + "4195164 bytes to end of file is not a multiple of 24".replace("4195164", Long.toString(bytes.length - 100 - 4194304L)));
    assertThat(Files.exists(tmp.resolve("out.beton"))).isFalse();
  }

  @Test
  void tinyFile() throws Exception {
    Path bad = tmp.resolve("tiny.beton");
    Files.write(bad, new byte[] {2, 0, 1});

    Cli.Result r = Cli.run("dump", bad);

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines()).containsExactly("beton: " + bad + ": header at offset 0: file is 3 bytes, shorter than"
        + " the 24-byte header");
  }

  @ParameterizedTest
  @ValueSource(strings = {"inspect", "dump", "verify"})
  void gzippedFileSaysSo(String command) throws Exception {
    Path gz = tmp.resolve("jpg_labels.beton.gz");
    try (var in = ErrorsTest.class.getResourceAsStream("/golden/jpg_labels.beton.gz")) {
      Files.copy(in, gz);
    }

    Cli.Result r = Cli.run(command, gz);

    String expected = gz + ": header at offset 0: this file is gzip-compressed; gunzip it first";
    if (command.equals("verify")) {
      assertThat(r.exitCode()).isEqualTo(1);
      assertThat(r.out()).contains(expected);
    } else {
      assertThat(r.exitCode()).isEqualTo(2);
      assertThat(r.errLines()).containsExactly("beton: " + expected);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"3M", "1K", "0", "2Q", "-4M", "2G", "99999999999999999999"})
  void badPageSize(String size) {
    Cli.Result r = Cli.run("rewrite", GoldenFiles.path("jpg_labels"), tmp.resolve("out.beton"), "--page-size", size);

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines()).hasSize(2);
    assertThat(r.errLines().get(0)).startsWith("beton: Invalid value for option '--page-size': ");
    assertThat(r.errLines().get(1)).isEqualTo("Try 'beton rewrite --help' for usage.");
    assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ");
  }

  @Test
  void badThreadCount() {
    Cli.Result r = Cli.run("rewrite", GoldenFiles.path("jpg_labels"), tmp.resolve("out.beton"), "--threads", 0);

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines().get(0)).isEqualTo("beton: --threads must be >= 1, got 0");
  }

  @Test
  void negativeOptionValues() {
    assertThat(Cli.run("dump", GoldenFiles.path("jpg_labels"), "--from", -1).errLines().get(0))
        .isEqualTo("beton: --from must be >= 0, got -1");
    assertThat(Cli.run("dump", GoldenFiles.path("jpg_labels"), "--count", -5).errLines().get(0))
        .isEqualTo("beton: --count must be >= 0, got -5");
    Cli.Result sizes = Cli.run("inspect", GoldenFiles.path("jpg_labels"), "--sizes", -1);
    assertThat(sizes.exitCode()).isEqualTo(2);
    assertThat(sizes.errLines().get(0)).isEqualTo("beton: --sizes must be >= 0, got -1");
  }

  @Test
  void noCommandAndUnknownCommandAndUnknownOption() {
    assertThat(Cli.run().exitCode()).isEqualTo(2);
    assertThat(Cli.run().errLines().get(0)).startsWith("beton: a command is required");
    Cli.Result unknown = Cli.run("frobnicate");
    assertThat(unknown.exitCode()).isEqualTo(2);
    assertThat(unknown.errLines().get(0)).isEqualTo("beton: Unknown command 'frobnicate'. Commands: inspect, verify,"
        + " dump, rewrite, merge, gc, prepare, compact, doctor, bench");
    Cli.Result option = Cli.run("dump", "--frm", 3, GoldenFiles.path("jpg_labels"));
    assertThat(option.exitCode()).isEqualTo(2);
    assertThat(option.errLines()).containsExactly("beton: Unknown option '--frm'; did you mean '--from'?",
        "Try 'beton dump --help' for usage.");
  }

  @Test
  void misspelledCommandsAndOptionsAreNamedWithTheNearestOnes() {
    assertThat(Cli.run("inpsect", GoldenFiles.path("jpg_labels")).errLines().get(0))
        .isEqualTo("beton: Unknown command 'inpsect'; did you mean 'inspect'?");
    Cli.Result value = Cli.run("dump", GoldenFiles.path("jpg_labels"), "--cuont=2");
    assertThat(value.exitCode()).isEqualTo(2);
    assertThat(value.errLines().get(0)).isEqualTo("beton: Unknown option '--cuont'; did you mean '--count'?");
    Cli.Result two = Cli.run("dump", GoldenFiles.path("jpg_labels"), "--cuont", 2, "--zzz");
    assertThat(two.errLines().get(0))
        .isEqualTo("beton: Unknown options: '--cuont' (did you mean '--count'?), '--zzz'");
  }

  @Test
  void prepareFromTheJarSaysHowToRunIt() {
    Cli.Result r = Cli.run("prepare", "--input", "photos", "--output", "dataset");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines()).containsExactly("beton: prepare runs with Spark on its class path, which this jar does"
        + " not have: run it as 'bin/beton prepare' (or bin/beton-prepare), or spark-submit --class"
        + " org.sparkbeton.spark.prepare.PrepareJob spark-beton-runtime-3.5_2.12-<version>.jar");
    assertThat(Cli.run("prepare", "--help").out()).contains("bin/beton prepare --help");
  }

  @Test
  void compactFromTheJarSaysHowToRunIt() {
    Cli.Result r = Cli.run("compact", "hdfs:///datasets/photos");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines()).containsExactly("beton: compact runs with Spark on its class path, which this jar does"
        + " not have: run it as 'bin/beton compact', or spark-submit --class org.sparkbeton.spark.prepare.CompactJob"
        + " spark-beton-runtime-3.5_2.12-<version>.jar");
    assertThat(Cli.run("compact", "--help").out()).contains("bin/beton compact --help");
    assertThat(Cli.run("--help").out()).contains("compact");
  }

  @Test
  void debugPrintsTheStackTrace() {
    Path missing = tmp.resolve("nope.beton");
    Cli.Result r = Cli.run("dump", "--debug", missing);

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines().get(0)).isEqualTo("beton: " + missing + ": no such file");
    assertThat(r.err()).contains("CliException").contains("\tat ");
  }

  @Test
  void helpAndVersion() {
    Cli.Result help = Cli.run("--help");
    assertThat(help.exitCode()).isZero();
    assertThat(help.out()).contains("inspect").contains("verify").contains("dump").contains("rewrite").contains("merge")
        .containsPattern("\\n +prepare +Prepare a sharded \\.beton dataset from an ImageFolder tree with Spark\\.");
    Cli.Result version = Cli.run("--version");
    assertThat(version.exitCode()).isZero();
    assertThat(version.out()).startsWith("beton ")
        .contains("beton " + SparkBetonVersion.version() + " (spark-beton; .beton format version 2)")
        .contains("JPEG codec: " + org.sparkbeton.codec.jpeg.JpegCodecs.description() + " (");
    if (org.sparkbeton.codec.jpeg.JpegCodecs.nativeAvailable()) {
      assertThat(version.out()).containsPattern("JPEG codec: libjpeg-turbo [0-9.]+ \\(libjpeg API 62\\) through JNI"
          + " \\(/native/linux-(x86_64|aarch64)/libbetoncodec-[^/]+\\.so\\)");
    }
  }
}
