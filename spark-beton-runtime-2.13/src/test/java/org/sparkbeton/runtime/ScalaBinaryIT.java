package org.sparkbeton.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.codec.testing.TestPhotos;

/**
 * Each runtime jar alone on Spark 3.5's Scala 2.13 build, as {@code spark-submit --jars} puts it there: the class
 * path of this module's tests (Spark 2.13) without any of our classes, plus the jar, in a JVM of its own
 * ({@link ScalaBinaryProbe}). The 2.13 jar does everything; the 2.12 jar refuses each beton step with the jar to use
 * (where each failed with a NoSuchMethodError before) and leaves Parquet tables alone.
 */
class ScalaBinaryIT {
  @TempDir
  static Path tmp;
  static Path photos;

  @BeforeAll
  static void photos() throws IOException {
    photos = Files.createDirectories(tmp.resolve("photos"));
    TestPhotos.writeFlat(photos, 3, 7);
  }

  @Test
  void theScala213JarRunsEveryStep() throws Exception {
    Map<String, String> steps = run(Path.of(System.getProperty("runtime.jar")), tmp.resolve("jar213"));

    assertThat(steps).containsExactly(Map.entry("parquet-table", "ok 4"), Map.entry("beton-write", "ok "),
        Map.entry("beton-read", "ok 4"), Map.entry("beton-images", "ok 3"), Map.entry("beton-table", "ok 3"));
  }

  @Test
  void theScala212JarRefusesBetonNamingThe213JarAndLeavesParquetAlone() throws Exception {
    Map<String, String> steps = run(Path.of(System.getProperty("runtime.jar212")), tmp.resolve("jar212"));

    String refusal = "failed java.lang.UnsupportedOperationException: This spark-beton jar is built for Scala 2.12"
        + " (spark-beton-runtime-3.5_2.12), but this Spark runs Scala 2.13.";
    assertThat(steps.get("parquet-table")).isEqualTo("ok 4");
    assertThat(steps).hasSize(5);
    for (String beton : List.of("beton-write", "beton-read", "beton-images", "beton-table")) {
      assertThat(steps.get(beton)).as(beton).startsWith(refusal)
          .contains(": use org.sparkbeton:spark-beton-runtime-3.5_2.13, the jar for Spark 3.5 on Scala 2.13");
    }
  }

  /** Runs the probe with {@code jar} on this JVM's Spark class path; its steps by name. */
  private static Map<String, String> run(Path jar, Path dir) throws Exception {
    assertThat(jar).as("the runtime jar (built by its module's package phase)").isRegularFile();
    Files.createDirectories(dir);
    List<String> classPath = new ArrayList<>();
    classPath.add(jar.toString());
    classPath.add(Path.of(ScalaBinaryProbe.class.getProtectionDomain().getCodeSource().getLocation().toURI())
        .toString());
    for (String entry : testClassPath()) {
      if (!ours(entry)) {
        classPath.add(entry);
      }
    }
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx1g");
    command.addAll(Arrays.asList(System.getProperty("spark.opens", "").trim().split("\\s+")));
    command.add("-cp");
    command.add(String.join(File.pathSeparator, classPath));
    command.add(ScalaBinaryProbe.class.getName());
    command.add(dir.toString());
    command.add(photos.toString());
    Path log = dir.resolve("probe.log");
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1"); // as the other child JVMs of the suite
    Process p = pb.start();
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly().waitFor();
      fail("the probe still ran after 5 minutes; its output:\n" + Files.readString(log));
    }
    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as(String.join("\n", lines)).isZero();
    Map<String, String> steps = new LinkedHashMap<>();
    for (String line : lines) {
      String[] parts = line.split(" ", 2);
      if (parts.length == 2 && parts[0].matches("(parquet|beton)-[a-z]+")
          && (parts[1].startsWith("ok ") || parts[1].startsWith("failed "))) {
        steps.put(parts[0], parts[1]);
      }
    }
    return steps;
  }

  /** The class path surefire gave this JVM (its own is a manifest-only jar). */
  private static List<String> testClassPath() {
    String path = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    return Arrays.stream(path.split(File.pathSeparator)).filter(s -> !s.isBlank()).collect(Collectors.toList());
  }

  /**
   * Our classes, which only the jar may bring: this module's compiled classes and tests, the modules' jars or class
   * directories (beton-core, beton-codec and their tests).
   */
  private static boolean ours(String entry) {
    Path p = Path.of(entry);
    String name = p.getFileName().toString();
    return name.equals("classes") || name.equals("test-classes") || name.startsWith("beton-")
        || name.startsWith("spark-beton") || entry.contains(File.separator + "sparkbeton" + File.separator);
  }
}
