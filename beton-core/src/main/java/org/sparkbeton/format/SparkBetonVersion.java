package org.sparkbeton.format;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The version of spark-beton this jar was built from, as the build wrote it (resource filtering of
 * {@value #RESOURCE} from the pom's {@code project.version}): the one place every module learns its version,
 * for what it records about itself (a dataset manifest's {@code created_by}, {@code beton --version}).
 */
public final class SparkBetonVersion {
  static final String RESOURCE = "/org/sparkbeton/format/spark-beton.properties";

  private static final String VERSION = load();

  private SparkBetonVersion() {}

  /** The project version, e.g. {@code 0.1.0-SNAPSHOT}. */
  public static String version() {
    return VERSION;
  }

  /** How a file or manifest names its writer: {@code spark-beton <version>}. */
  public static String writer() {
    return "spark-beton " + VERSION;
  }

  private static String load() {
    try (InputStream in = SparkBetonVersion.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("beton-core's " + RESOURCE + " is missing from the classpath: the jar was"
            + " not built by its Maven build (which writes it)");
      }
      Properties p = new Properties();
      p.load(in);
      String v = p.getProperty("version", "");
      if (v.isBlank() || v.contains("${")) {
        throw new IllegalStateException("beton-core's " + RESOURCE + " holds no version ('" + v + "'): the build"
            + " did not filter it");
      }
      return v.strip();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + RESOURCE, e);
    }
  }
}
