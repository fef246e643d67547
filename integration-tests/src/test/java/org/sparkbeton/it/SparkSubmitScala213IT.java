package org.sparkbeton.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.codec.testing.TestPhotos;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.it.UserCommand.Finished;

/**
 * The Scala 2.13 runtime jar ({@code spark-beton-runtime-3.5_2.13}) run the way users of Spark 3.5's Scala 2.13 build
 * run it: a standalone cluster of Master and Worker JVMs from that build's own jars (none of ours), the README's
 * prepare and compaction commands through {@code SparkSubmit}, the jar the application or fetched by its Maven
 * coordinates ({@code --packages}). Maven Central has no {@code spark-repl_2.13} of Spark 3.5, so no spark-shell
 * here: the dataset is read back in this JVM, shard by shard.
 * {@link SparkSubmitIT} runs the Scala 2.12 jar, with the shells and Kryo.
 */
class SparkSubmitScala213IT {
  @TempDir static Path tmp;
  static Path photos;
  static SparkDistribution spark;
  static StandaloneCluster cluster;

  @BeforeAll
  static void startCluster() throws Exception {
    assertThat(runtimeJar()).as("the Scala 2.13 runtime jar (spark-beton-runtime-2.13's package phase builds it)")
        .isRegularFile();
    photos = tmp.resolve("photos");
    TestPhotos.writeImageFolder(photos, SparkSubmitIT.PHOTOS, SparkSubmitIT.CLASSES, 11);
    spark = SparkDistribution.create(tmp.resolve("spark-home"), SparkSubmitIT.clusterDefaults(tmp),
        SparkDistribution.ScalaLine.V2_13);
    cluster = new StandaloneCluster(tmp, spark, List.of("127.0.0.1"), 2);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void preparesAndCompactsWithTheScala213JarAsApplication() throws Exception {
    Path dataset = tmp.resolve("dataset");
    Map<String, String> variables = variables(dataset);
    Finished prepare = UserCommand.run(ReadmeCommands.PREPARE, variables, spark, tmp, "prepare", null,
        SparkSubmitIT.TIMEOUT_MINUTES);
    SparkSubmitIT.assertPrepared(prepare, dataset, runtimeJar());
    int shards = DatasetManifest.parse(Files.readString(dataset.resolve(DatasetManifest.FILE_NAME))).shards().size();

    Finished compact = UserCommand.run(ReadmeCommands.COMPACT, variables, spark, tmp, "compact", null,
        SparkSubmitIT.TIMEOUT_MINUTES);

    assertThat(compact.exitCode()).as(compact.describe()).isZero();
    assertThat(compact.stdout()).as(compact.describe()).contains("beton compaction of " + dataset + ": " + shards
        + " shards into 1 (1 run merged, " + SparkSubmitIT.PHOTOS + " samples, ");
    assertThat(SparkSubmitIT.assertEveryPhotoOnce(dataset).shards()).hasSize(1);
  }

  /** The prepare job from the 2.13 jar's Maven coordinates: the README's command with {@code _2.13}, as it says. */
  @Test
  void preparesWithTheScala213JarFromMavenCoordinates() throws Exception {
    Path dataset = tmp.resolve("dataset-packages");
    String command = ReadmeCommands.PREPARE_PACKAGES.replace("spark-beton-runtime-3.5_2.12:",
        "spark-beton-runtime-3.5_2.13:");
    assertThat(command).isNotEqualTo(ReadmeCommands.PREPARE_PACKAGES);
    // on a cluster whose Ivy reaches only the repository --repositories names
    SparkDistribution airGapped = SparkDistribution.create(tmp.resolve("spark-home-air-gapped"),
        SparkSubmitIT.airGapped(tmp), SparkDistribution.ScalaLine.V2_13);
    Finished prepare = UserCommand.run(command, variables(dataset), airGapped, tmp, "prepare-packages", null,
        SparkSubmitIT.TIMEOUT_MINUTES);
    assertThat(prepare.stderr()).as(prepare.describe()).contains("found org.sparkbeton#spark-beton-runtime-3.5_2.13;"
        + System.getProperty("spark.it.runtimeVersion") + " in repo-1");
    SparkSubmitIT.assertPrepared(prepare, dataset, runtimeJar());
  }

  private static Map<String, String> variables(Path dataset) {
    return SparkSubmitIT.variables(cluster, runtimeJar(), photos, dataset);
  }

  private static Path runtimeJar() {
    return Path.of(System.getProperty("spark.it.runtimeJar213"));
  }
}
