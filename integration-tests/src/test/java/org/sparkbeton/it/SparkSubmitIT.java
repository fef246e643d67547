package org.sparkbeton.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.codec.testing.TestPhotos;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.verify.BetonVerifier;
import org.sparkbeton.it.UserCommand.Finished;

/**
 * The runtime jar run the way users run it: a standalone cluster of Master and Worker JVMs from Spark's own
 * jars, jobs submitted through {@code SparkSubmit} with the README's commands, and the jar reaching the driver
 * and the executors only as the application jar, through {@code --jars} or through {@code --packages}. The
 * prepare job turns a folder of real photos into a dataset; spark-shell reads it back.
 */
class SparkSubmitIT {
  static final int PHOTOS = 250;
  static final int CLASSES = 4;
  static final int TIMEOUT_MINUTES = 10;
  /** A line of the prepare job's summary: label, class folder, samples. */
  private static final Pattern SUMMARY_ROW = Pattern.compile("(?m)^(\\d+)\\s+class_\\d+\\s+([\\d,]+)$");
  /** A row of {@code show()}'s table of label and count. */
  private static final Pattern SHOW_ROW = Pattern.compile("(?m)^\\|\\s*(\\d+)\\|\\s*(\\d+)\\|$");

  @TempDir static Path tmp;
  static Path photos;
  static SparkDistribution spark;
  static StandaloneCluster cluster;

  @BeforeAll
  static void startCluster() throws Exception {
    assertThat(runtimeJar()).as("the runtime jar (the package phase builds it)").isRegularFile();
    photos = tmp.resolve("photos");
    TestPhotos.writeImageFolder(photos, PHOTOS, CLASSES, 11);
    spark = SparkDistribution.create(tmp.resolve("spark-home"), clusterDefaults(tmp));
    cluster = new StandaloneCluster(tmp, spark, List.of("127.0.0.1"), 2);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void preparesWithTheJarAsApplicationThenReadsBackInSparkShellWithJars() throws Exception {
    Path dataset = tmp.resolve("dataset-jar");
    Finished prepare = UserCommand.run(ReadmeCommands.PREPARE, variables(dataset), spark, tmp, "prepare-jar", null,
        TIMEOUT_MINUTES);
    assertPrepared(prepare, dataset, runtimeJar());
    // its shards compacted into one, by the job the README submits; the shell reads the compacted dataset back
    int shards = DatasetManifest.parse(Files.readString(dataset.resolve(DatasetManifest.FILE_NAME))).shards().size();
    Finished compact = UserCommand.run(ReadmeCommands.COMPACT, variables(dataset), spark, tmp, "compact-jar", null,
        TIMEOUT_MINUTES);
    assertThat(compact.exitCode()).as(compact.describe()).isZero();
    assertThat(compact.stdout()).as(compact.describe()).contains("beton compaction of " + dataset + ": " + shards
        + " shards into 1 (1 run merged, " + PHOTOS + " samples, ");
    assertThat(DatasetManifest.parse(Files.readString(dataset.resolve(DatasetManifest.FILE_NAME))).shards())
        .hasSize(1);

    // then a copy saved by a relative path: the driver's directory, not the executors' work directories
    String session = "val dataset = \"" + dataset + "\"\n" + String.join("\n", ReadmeCommands.SHELL_READ_BACK) + "\n"
        + "df.write.format(\"beton\").save(\"relative-copy\")\n"
        + "spark.read.format(\"beton\").load(\"relative-copy\").count()\n"
        // the jar's session extension, loaded by the shell's session: a replace that would drop the table is refused
        + "spark.sql(\"create table kept using beton as select 1L as id\")\n"
        + "try { spark.sql(\"create or replace table kept using beton as select 2L as id\") } catch {"
        + " case e: Throwable => println(\"REFUSED \" + e.getMessage.take(80)) }\n"
        + "spark.table(\"kept\").first().getLong(0) * 1000\n"
        // SQL on the dataset by its path, through the jar's path catalog registered as the README shows
        + "spark.conf.set(\"" + ReadmeCommands.PATH_CATALOG_KEY + "\", \"" + ReadmeCommands.PATH_CATALOG + "\")\n"
        + "spark.sql(\"select count(*) from beton.`\" + dataset + \"`\").first().getLong(0) + 7000000\n";
    Finished shell = UserCommand.run(ReadmeCommands.SHELL, variables(dataset), spark, tmp, "shell-jars", session,
        TIMEOUT_MINUTES);
    assertReadBackAndCopied(shell, tmp.resolve("relative-copy"));
    assertThat(shell.stdout()).as(shell.describe())
        .contains("REFUSED Table default.kept cannot be replaced by a query (CREATE")
        .containsPattern("(?m)^res\\d+: Long = 1000$")
        .containsPattern("(?m)^res\\d+: Long = " + (7_000_000 + PHOTOS) + "$");
  }

  /**
   * The README's packages command on a cluster with no way out but its own repository (Ivy's settings name no
   * other), which holds what the README says to publish: the jar, its POM and the parent POM. The parent POM once
   * imported junit-bom, which Ivy then looked for and could not find.
   */
  @Test
  void preparesWithTheJarFromMavenCoordinates() throws Exception {
    Path dataset = tmp.resolve("dataset-packages");
    SparkDistribution airGapped = SparkDistribution.create(tmp.resolve("spark-home-air-gapped"), airGapped(tmp));
    Finished prepare = UserCommand.run(ReadmeCommands.PREPARE_PACKAGES, variables(dataset), airGapped, tmp,
        "prepare-packages", null, TIMEOUT_MINUTES);
    // from the test's repository, not a copy some build left in ~/.m2 or Maven Central
    assertThat(prepare.stderr()).as(prepare.describe()).contains("found org.sparkbeton#spark-beton-runtime-3.5_2.12;"
        + System.getProperty("spark.it.runtimeVersion") + " in repo-1");
    assertPrepared(prepare, dataset, runtimeJar());
  }

  /**
   * A cluster whose spark-defaults.conf sets Kryo and requires registration: the prepare job as the README runs
   * it, then the README's Kryo shell reads the dataset and writes a copy of it (a write's task results travel in
   * Kryo), a streaming query writes its labels as a dataset of their own, and another reads the dataset as a stream
   * into a dataset of its photos.
   */
  @Test
  void preparesAndWritesWhereKryoRequiresRegistration() throws Exception {
    SparkDistribution kryo = SparkDistribution.create(tmp.resolve("spark-home-kryo"), Map.of(
        "spark.jars.ivy", tmp.resolve("ivy").toString(), "spark.ui.enabled", "false", "spark.executor.memory", "512m",
        "spark.serializer", "org.apache.spark.serializer.KryoSerializer", "spark.kryo.registrationRequired", "true"));
    Path dataset = tmp.resolve("dataset-kryo");
    assertPrepared(UserCommand.run(ReadmeCommands.PREPARE, variables(dataset), kryo, tmp, "prepare-kryo", null,
        TIMEOUT_MINUTES), dataset, runtimeJar());

    String session = "val dataset = \"" + dataset + "\"\n" + String.join("\n", ReadmeCommands.SHELL_READ_BACK) + "\n"
        + "df.write.format(\"beton\").save(dataset + \"-copy\")\n"
        + "spark.read.format(\"beton\").load(dataset + \"-copy\").count()\n"
        // a streaming query of the labels into a dataset: its micro-batches' writers and results on the executors
        + "df.select(\"label\").write.json(dataset + \"-labels\")\n"
        + "spark.readStream.schema(\"label BIGINT\").json(dataset + \"-labels\").writeStream.format(\"beton\")"
        + ".option(\"checkpointLocation\", dataset + \"-checkpoint\")"
        + ".trigger(org.apache.spark.sql.streaming.Trigger.AvailableNow()).start(dataset + \"-stream\")"
        + ".awaitTermination(600000L)\n"
        + "spark.read.format(\"beton\").load(dataset + \"-stream\").count() + 9000000\n"
        // the dataset read as a stream, two shards a batch, into a dataset of its images: tasks read and write photos
        + "spark.readStream.format(\"beton\").option(\"maxShardsPerTrigger\", \"2\").load(dataset)"
        + ".writeStream.format(\"beton\").option(\"checkpointLocation\", dataset + \"-read-checkpoint\")"
        + ".trigger(org.apache.spark.sql.streaming.Trigger.AvailableNow()).start(dataset + \"-streamed\")"
        + ".awaitTermination(600000L)\n"
        + "spark.read.format(\"beton\").load(dataset + \"-streamed\").where(\"image_mode = 'jpg'\").count()"
        + " + 8000000\n";
    Finished shell = UserCommand.run(ReadmeCommands.SHELL_KRYO, variables(dataset), kryo, tmp, "shell-kryo", session,
        TIMEOUT_MINUTES);
    assertThat(shell.stdout()).as(shell.describe()).containsPattern("(?m)^res\\d+: Boolean = true$")
        .containsPattern("(?m)^res\\d+: Long = " + (9_000_000 + PHOTOS) + "$")
        .containsPattern("(?m)^res\\d+: Long = " + (8_000_000 + PHOTOS) + "$");
    assertReadBackAndCopied(shell, Path.of(dataset + "-copy"));
  }

  /**
   * The shell ran the README's read-back lines (the label counts, the count) without an error, then wrote a copy of
   * the dataset to {@code copy} and counted it: every photo in both.
   */
  private static void assertReadBackAndCopied(Finished shell, Path copy) throws IOException {
    assertThat(shell.exitCode()).as(shell.describe()).isZero();
    assertThat(counts(SHOW_ROW, shell.stdout())).as(shell.describe()).isEqualTo(expectedLabels());
    assertThat(shell.stdout()).as(shell.describe()).doesNotContain("error:", "Exception");
    assertThat(Pattern.compile("(?m)^res\\d+: Long = " + PHOTOS + "$").matcher(shell.stdout()).results().count())
        .as("counts of the dataset and its copy; %s", shell.describe()).isEqualTo(2);
    DatasetManifest written = DatasetManifest.parse(Files.readString(copy.resolve(DatasetManifest.FILE_NAME)));
    assertThat(written.totalSamples()).isEqualTo(PHOTOS);
  }

  private static Map<String, String> variables(Path dataset) {
    return variables(cluster, runtimeJar(), photos, dataset);
  }

  /** The values of the README commands' variables for a run of {@code jar} on {@code cluster}. */
  static Map<String, String> variables(StandaloneCluster cluster, Path jar, Path photos, Path dataset) {
    return Map.of("MASTER", cluster.masterUrl(), "JAR", jar.toString(),
        "VERSION", System.getProperty("spark.it.runtimeVersion"),
        "REPO", Path.of(System.getProperty("spark.it.repository")).toUri().toString(),
        "PHOTOS", photos.toString(), "DATASET", dataset.toString());
  }

  /**
   * {@link #clusterDefaults} of a cluster whose Ivy reaches no repository but those {@code --repositories} names (its
   * settings file, written here, has only an empty one; Spark then adds no Maven Central and no ~/.m2), with an Ivy
   * home of its own so nothing comes from the other tests' cache.
   */
  static Map<String, String> airGapped(Path tmp) throws IOException {
    Path nowhere = Files.createDirectories(tmp.resolve("empty-repository"));
    Path settings = tmp.resolve("ivysettings-air-gapped.xml");
    Files.writeString(settings, "<ivysettings>\n  <settings defaultResolver=\"internal-only\"/>\n  <resolvers>\n"
        + "    <ibiblio name=\"internal-only\" m2compatible=\"true\" root=\"" + nowhere.toUri() + "\"/>\n"
        + "  </resolvers>\n</ivysettings>\n");
    Map<String, String> defaults = new java.util.HashMap<>(clusterDefaults(tmp));
    defaults.put("spark.jars.ivy", tmp.resolve("ivy-air-gapped").toString());
    defaults.put("spark.jars.ivySettings", settings.toString());
    return defaults;
  }

  /** What a cluster's spark-defaults.conf would say; the Ivy home keeps packages resolution out of ~/.ivy2. */
  static Map<String, String> clusterDefaults(Path tmp) {
    return Map.of("spark.jars.ivy", tmp.resolve("ivy").toString(), "spark.ui.enabled", "false",
        "spark.executor.memory", "512m");
  }

  /**
   * The job succeeded, printed its summary, and the dataset holds every photo once, written natively where {@code jar}
   * has the native codec.
   */
  static void assertPrepared(Finished run, Path dataset, Path jar) throws IOException {
    assertThat(run.exitCode()).as(run.describe()).isZero();
    assertThat(run.stdout()).as(run.describe()).containsPattern("(?m)^dataset +file:" + Pattern.quote(dataset.toString()) + "$")
        .containsPattern("(?m)^images listed +" + PHOTOS + "$").containsPattern("(?m)^samples written +" + PHOTOS + "$");
    assertThat(counts(SUMMARY_ROW, run.stdout())).as(run.describe()).isEqualTo(expectedLabels());
    DatasetManifest manifest = assertEveryPhotoOnce(dataset);
    // each write task reports the codec its executor used; one value means every executor used the same
    String codec = manifest.recipe().get("jpeg_codec");
    if (jarHasNativeLibrary(jar)) {
      assertThat(codec).as("the executors' JPEG codec").matches("libjpeg-turbo [^;]* through JNI");
    } else {
      assertThat(codec).as("the executors' JPEG codec (a jar built with -Pno-native)").endsWith("pure Java");
    }
  }

  /** Each shard of the dataset verifies, and the labels are every photo's once; returns its manifest. */
  static DatasetManifest assertEveryPhotoOnce(Path dataset) throws IOException {
    DatasetManifest manifest = DatasetManifest.parse(Files.readString(dataset.resolve(DatasetManifest.FILE_NAME)));
    assertThat(manifest.totalSamples()).isEqualTo(PHOTOS);
    Map<Long, Long> labels = new TreeMap<>();
    for (ShardEntry s : manifest.shards()) {
      try (BetonReader r = BetonReader.open(dataset.resolve(s.path()))) {
        assertThat(BetonVerifier.verify(r).problems()).as(s.path()).isEmpty();
        int label = r.fieldIndex("label");
        for (long k = 0; k < r.numSamples(); k++) {
          labels.merge(r.intValue(k, label), 1L, Long::sum);
        }
      }
    }
    assertThat(labels).isEqualTo(expectedLabels());
    return manifest;
  }

  /** Photo {@code i} of {@link TestPhotos#writeImageFolder} is in class {@code i % CLASSES}. */
  private static Map<Long, Long> expectedLabels() {
    Map<Long, Long> labels = new TreeMap<>();
    for (int i = 0; i < PHOTOS; i++) {
      labels.merge((long) (i % CLASSES), 1L, Long::sum);
    }
    return labels;
  }

  private static Map<Long, Long> counts(Pattern row, String output) {
    Map<Long, Long> counts = new TreeMap<>();
    Matcher m = row.matcher(output);
    while (m.find()) {
      counts.put(Long.parseLong(m.group(1)), Long.parseLong(m.group(2).replace(",", "")));
    }
    return counts;
  }

  private static Path runtimeJar() {
    return Path.of(System.getProperty("spark.it.runtimeJar"));
  }

  private static boolean jarHasNativeLibrary(Path file) throws IOException {
    try (JarFile jar = new JarFile(file.toFile())) {
      return jar.stream().anyMatch(e -> e.getName().matches("native/linux-x86_64/libbetoncodec[^/]*\\.so"));
    }
  }
}
