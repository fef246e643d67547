package org.sparkbeton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.DatasetVerifier;
import org.sparkbeton.format.dataset.ManifestField;
import org.sparkbeton.format.dataset.ShardChecksum;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.testing.GoldenFiles;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.io.LocalPaths;

/**
 * Paths on the command line: non-ASCII names, and {@code file:} URIs in the forms Hadoop and Spark print them (the
 * prepare summary says {@code dataset file:/data/x}), name the local file; other schemes are refused in one line.
 */
class PathArgumentsTest {
  @TempDir Path tmp;
  private Path dir;
  private Path shard;
  private long samples;

  @BeforeEach
  void dataset() throws Exception {
    dir = tmp.resolve("photos (ç)").resolve("données");
    Files.createDirectories(dir);
    shard = dir.resolve("part-00000-é.beton");
    Files.copy(GoldenFiles.path("jpg_labels"), shard);
    java.util.List<ManifestField> fields;
    try (BetonReader reader = BetonReader.open(shard)) {
      samples = reader.numSamples();
      fields = reader.fields().stream().map(ManifestField::of).toList();
    }
    ShardEntry entry = new ShardEntry(shard.getFileName().toString(), samples, Files.size(shard),
        new ShardChecksum(ShardChecksum.SHA256, DatasetVerifier.checksum(shard, ShardChecksum.SHA256)), Map.of());
    Files.writeString(dir.resolve(DatasetManifest.FILE_NAME),
        new DatasetManifest(fields, java.util.List.of(entry), Map.of(), "test").toJson());
  }

  @ParameterizedTest
  @ValueSource(strings = {"plain", "file:/", "file:///", "file://localhost/", "escaped"})
  void inspectNamesTheSameFileEveryWay(String form) {
    Cli.Result plain = Cli.run("inspect", shard);
    Cli.Result r = Cli.run("inspect", spelled(shard, form));

    assertThat(r.err()).isEmpty();
    assertThat(r.exitCode()).isZero();
    assertThat(r.out()).isEqualTo(plain.out()).contains("part-00000-é.beton");
  }

  @ParameterizedTest
  @ValueSource(strings = {"plain", "file:/", "file:///", "escaped"})
  void verifyChecksADatasetDirectoryGivenEveryWay(String form) {
    Cli.Result r = Cli.run("verify", spelled(dir, form));

    assertThat(r.exitCode()).isZero();
    assertThat(r.outLines()).containsExactly(dir + ": OK (1 shard, " + samples + " samples)");
  }

  @Test
  void benchAndDoctorTakeHadoopsFormOfALocalDataset() {
    try (DatasetArgument.Dataset ds = DatasetArgument.open("file:" + dir, new RemoteFlags())) {
      assertThat(ds.path).isEqualTo(dir);
      assertThat(ds.remote).isNull();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"rewrite", "merge"})
  void aRemotePathIsRefusedNamingTheCommandsThatReadOne(String command) {
    Cli.Result r = Cli.run(command, "hdfs://namenode:8020/datasets/photos");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines()).hasSize(2);
    assertThat(r.errLines().get(0)).startsWith("beton: Invalid value for positional parameter at index 0").endsWith(
        "): hdfs://namenode:8020/datasets/photos is not a local path: this command reads and writes local files"
        + " (`beton inspect`, `verify`, `dump`, `gc`, `bench` and `doctor` read datasets and files on hdfs://, s3a:// and"
        + " other Hadoop file systems; copy one here first for the others, e.g. `hadoop fs -get"
        + " hdfs://namenode:8020/datasets/photos`)");
  }

  /** hdfs:/// as a cluster's tools write it: Hadoop's "no host" said nothing of where the namenode comes from. */
  @ParameterizedTest
  @ValueSource(strings = {"inspect", "verify", "gc"})
  void anHdfsPathWithoutItsNamenodeSaysHowToGiveIt(String command) {
    // Hadoop runs on Java 17 to 23 (on later ones the command says so instead: DoctorErrorsTest)
    org.junit.jupiter.api.Assumptions.assumeTrue(org.sparkbeton.format.io.HadoopJavaSupport.refusal().isEmpty());
    Cli.Result r = Cli.run(command, "hdfs:///datasets/photos");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines().get(0)).contains("Incomplete HDFS URI, no host").endsWith(" (hdfs:///path takes its"
        + " namenode from fs.defaultFS: give -D fs.defaultFS=hdfs://<namenode>:<port>, --hadoop-conf <core-site.xml>"
        + " or HADOOP_CONF_DIR, or write hdfs://<namenode>:<port>/path)");
  }

  @Test
  void aFileUriOfAnotherHostIsRefused() {
    Cli.Result r = Cli.run("rewrite", "file://fileserver" + shard, tmp.resolve("out.beton"));

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines()).containsExactly("beton: Invalid value for positional parameter at index 0 (IN):"
        + " file://fileserver" + shard + ": a file: URI with a host (fileserver); name a file of this machine, e.g."
        + " file:///data/x", "Try 'beton rewrite --help' for usage.");
    // inspect and dump take remote files too: the same refusal, as its own line
    for (String command : List.of("inspect", "dump")) {
      assertThat(Cli.run(command, "file://fileserver" + shard).errLines()).containsExactly("beton: file://fileserver"
          + shard + ": a file: URI with a host (fileserver); name a file of this machine, e.g. file:///data/x");
    }
  }

  @Test
  void aRelativeNameWithAColonIsAPath() throws Exception {
    Path odd = tmp.resolve("a:b.beton");
    Files.copy(GoldenFiles.path("jpg_labels"), odd);
    Cli.Result r = Cli.run("inspect", odd);

    assertThat(r.exitCode()).isZero();
  }

  /**
   * A name the JVM cannot hold as a path: under the POSIX locale any non-ASCII name ("Malformed input or input
   * contains unmappable characters", with no word on why), here a NUL, which no locale holds.
   */
  @Test
  void aNameTheJvmCannotHoldIsRefusedInOneLine() {
    String refused = "bad\0name: not a file name this JVM can use (Nul character not allowed)"
        + LocalPaths.nameCharsetHint();
    for (String command : List.of("verify", "inspect", "dump")) {
      Cli.Result r = Cli.run(command, "bad\0name");
      assertThat(r.exitCode()).isEqualTo(2);
      assertThat(r.errLines()).containsExactly("beton: " + refused);
    }
    Cli.Result r = Cli.run("rewrite", "bad\0name", tmp.resolve("out.beton"));
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines().get(0)).isEqualTo("beton: Invalid value for positional parameter at index 0 (IN): "
        + refused);
  }

  private static String spelled(Path p, String form) {
    return switch (form) {
      case "plain" -> p.toString();
      case "escaped" -> p.toUri().toASCIIString();
      default -> form + p.toString().substring(1);
    };
  }
}
