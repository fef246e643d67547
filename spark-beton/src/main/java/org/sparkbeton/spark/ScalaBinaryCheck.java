package org.sparkbeton.spark;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * Whether the running Spark's Scala is the one these classes were compiled against. Spark 3.5 ships builds on
 * Scala 2.12 and on 2.13, and Spark's Scala signatures differ between them ({@code Seq} is
 * {@code scala.collection.Seq} on 2.12 and {@code scala.collection.immutable.Seq} on 2.13), so a jar built for one
 * fails on the other with a {@link NoSuchMethodError} deep in a query (a write, a read, the session extension's
 * rules on a beton {@code CREATE TABLE}). {@link BetonDataSource} refuses with {@link #mismatch()} instead, naming
 * the jar to use, and {@link BetonSessionExtensions}, whose rules Spark runs on every plan, installs none.
 *
 * <p>Compiled for Java 8 with those two classes (spark-beton's pom).
 */
final class ScalaBinaryCheck {
  /** The filtered resource beside this class naming the Scala binary version it was built for. */
  static final String RESOURCE = "scala-binary.properties";
  private static final String MISMATCH = mismatch(builtFor(), scala.util.Properties.versionNumberString());

  private ScalaBinaryCheck() {}

  /** Why this jar cannot run on this JVM's Scala, or null when it can. */
  static String mismatch() {
    return MISMATCH;
  }

  /**
   * The refusal for classes built for Scala {@code builtFor} (a binary version, {@code 2.12}) on a running Scala
   * {@code running} (a full version, {@code 2.13.8}), or null when they match.
   */
  static String mismatch(String builtFor, String running) {
    if (builtFor == null || running.equals(builtFor) || running.startsWith(builtFor + ".")) {
      return null;
    }
    String runningBinary = binary(running);
    return "This spark-beton jar is built for Scala " + builtFor + " (spark-beton-runtime-3.5_" + builtFor
        + "), but this Spark runs Scala " + running + ": use org.sparkbeton:spark-beton-runtime-3.5_" + runningBinary
        + ", the jar for Spark 3.5 on Scala " + runningBinary + " (spark-submit --packages"
        + " org.sparkbeton:spark-beton-runtime-3.5_" + runningBinary + ":VERSION, or --jars with that jar)."
        + " format(\"beton\") is off in this session; Spark's other data sources are unaffected.";
  }

  /** The Scala binary version of a full version: {@code 2.13} of {@code 2.13.8}. */
  static String binary(String version) {
    int first = version.indexOf('.');
    int second = first < 0 ? -1 : version.indexOf('.', first + 1);
    return second < 0 ? version : version.substring(0, second);
  }

  /** The Scala binary version named by {@link #RESOURCE}, or null when it is missing (then nothing is refused). */
  static String builtFor() {
    try (InputStream in = ScalaBinaryCheck.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        return null;
      }
      Properties p = new Properties();
      p.load(in);
      String v = p.getProperty("scala.binary.version");
      return v == null || v.startsWith("$") ? null : v.trim();
    } catch (IOException e) {
      return null;
    }
  }
}
