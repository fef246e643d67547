package org.sparkbeton.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * A Spark 3.5 installation as users have one, built from Spark's own jars only: a home with {@code jars/}
 * (links to the jars of the integration-tests module's provided scope, listed at build time by
 * {@code dependency:build-classpath} into the file {@code spark.it.sparkJars} names) and
 * {@code conf/spark-defaults.conf}, and the commands Spark's {@code bin/} scripts would run. {@link #create}
 * checks that no jar holds a class of ours or the third-party code the runtime jar relocates, so whatever of
 * ours a process uses came through {@code --jars}, the application jar or {@code --packages}.
 */
final class SparkDistribution {
  /** Entries that must not be on a Spark installation's classpath. */
  private static final List<String> FOREIGN = List.of("org/sparkbeton/", "com/twelvemonkeys/");

  /**
   * The Scala line Spark 3.5 is built for, and the system property naming the listing of its jars: this module's
   * provided scope for 2.12, spark-beton-runtime-2.13's for 2.13.
   */
  enum ScalaLine {
    V2_12("2.12", "spark.it.sparkJars"),
    V2_13("2.13", "spark.it.sparkJars213");

    final String version;
    final String listingProperty;

    ScalaLine(String version, String listingProperty) {
      this.version = version;
      this.listingProperty = listingProperty;
    }
  }

  final Path home;
  final ScalaLine scala;

  private SparkDistribution(Path home, ScalaLine scala) {
    this.home = home;
    this.scala = scala;
  }

  /** {@link #create(Path, Map, ScalaLine)} of Spark built for Scala 2.12, the build most clusters run. */
  static SparkDistribution create(Path home, Map<String, String> defaults) throws IOException {
    return create(home, defaults, ScalaLine.V2_12);
  }

  /** Links Spark's jars into {@code home/jars} and writes {@code defaults} to {@code conf/spark-defaults.conf}. */
  static SparkDistribution create(Path home, Map<String, String> defaults, ScalaLine scala) throws IOException {
    String listing = System.getProperty(scala.listingProperty);
    if (listing == null) {
      throw new IllegalStateException("System property " + scala.listingProperty + " is not set; run the tests"
          + " through Maven");
    }
    List<Path> jars = sparkJars(Path.of(listing), scala);
    Path lib = Files.createDirectories(home.resolve("jars"));
    for (Path jar : jars) {
      Files.createSymbolicLink(lib.resolve(jar.getFileName()), jar);
    }
    StringBuilder conf = new StringBuilder();
    defaults.forEach((k, v) -> conf.append(k).append(' ').append(v).append('\n'));
    Files.writeString(Files.createDirectories(home.resolve("conf")).resolve("spark-defaults.conf"), conf);
    Files.createDirectories(home.resolve("user-home"));
    return new SparkDistribution(home, scala);
  }

  /**
   * {@code java <options> -cp <home>/conf:<home>/jars/* <main> <args>}, as {@code bin/spark-class} launches
   * Spark's daemons and {@code SparkSubmit}; with Spark's Java 17 opens, which its launcher adds itself.
   */
  List<String> javaCommand(String maxHeap, List<String> options, String mainClass, List<String> args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx" + maxHeap);
    for (String opt : System.getProperty("spark.it.jvmOpts", "").split(" ")) {
      if (!opt.isBlank()) {
        cmd.add(opt);
      }
    }
    // a home of its own: spark-submit's Ivy reads ~/.m2/repository first (its local-m2-cache), which would serve the
    // runtime jar a developer's `mvn install` left there instead of the one under test
    cmd.add("-Duser.home=" + home.resolve("user-home"));
    cmd.addAll(options);
    cmd.add("-cp");
    cmd.add(home.resolve("conf") + ":" + home.resolve("jars") + "/*");
    cmd.add(mainClass);
    cmd.addAll(args);
    return cmd;
  }

  /** The environment Spark's scripts give every process: its home, its Scala line, the address to bind. */
  void configure(ProcessBuilder pb, String localIp) {
    Map<String, String> env = pb.environment();
    env.put("SPARK_HOME", home.toString());
    env.put("SPARK_SCALA_VERSION", scala.version);
    env.put("SPARK_LOCAL_IP", localIp);
    env.remove("SPARK_CONF_DIR");
    env.remove("SPARK_TESTING");
  }

  /** The jars a classpath listing names, each checked: a jar file, holding nothing of ours. */
  static List<Path> sparkJars(Path listing, ScalaLine scala) throws IOException {
    List<Path> jars = new ArrayList<>();
    for (String entry : Files.readString(listing).trim().split(":")) {
      Path jar = Path.of(entry);
      if (!entry.endsWith(".jar") || !Files.isRegularFile(jar)) {
        throw new IllegalStateException("Spark's classpath (" + listing + ") lists " + entry + ", not a jar file");
      }
      List<String> foreign = foreignEntries(jar);
      if (!foreign.isEmpty()) {
        throw new IllegalStateException(jar + " is on Spark's classpath but holds " + foreign
            + ": the cluster would see classes that must come from the runtime jar");
      }
      jars.add(jar);
    }
    String core = "spark-core_" + scala.version + "-";
    if (jars.stream().noneMatch(j -> j.getFileName().toString().startsWith(core))) {
      throw new IllegalStateException("Spark's classpath (" + listing + ") has no " + core + "*.jar: " + jars);
    }
    return Collections.unmodifiableList(jars);
  }

  private static List<String> foreignEntries(Path jar) {
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      return zip.stream().map(ZipEntry::getName).filter(n -> FOREIGN.stream().anyMatch(n::startsWith)).limit(3)
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot open " + jar, e);
    }
  }
}
