package org.sparkbeton.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.function.Supplier;
import org.apache.spark.sql.SparkSessionExtensions;
import org.apache.spark.sql.SparkSessionExtensionsProvider;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.execution.datasources.DataSource;
import org.apache.spark.sql.execution.datasources.v2.parquet.ParquetDataSourceV2;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.junit.jupiter.api.Test;

/**
 * Our jar on a Spark 3.5 that runs on Java 8 or 11, as a class loader that refuses class files newer than that
 * Java reads, exactly as the JVM does ({@link UnsupportedClassVersionError} at definition): Spark instantiates
 * every registered data source on any lookup by name, so the registered class must load there, and
 * {@code format("beton")} must then say what it needs.
 */
class BetonDataSourceOlderJavaTest {
  /** Class file versions: Java 8 is 52, Java 11 is 55, Java 17 is 61. */
  private static final int JAVA_8 = 52;
  private static final int JAVA_11 = 55;
  private static final int JAVA_17 = 61;

  @Test
  void onlyTheRegisteredClassesAreForJava8() {
    assertThat(majorVersion(BetonDataSource.class.getName())).isEqualTo(JAVA_8);
    assertThat(majorVersion(BetonSessionExtensions.class.getName())).isEqualTo(JAVA_8);
    assertThat(majorVersion(BetonSessionExtensions.class.getName() + "$1")).isEqualTo(JAVA_8);
    assertThat(majorVersion(BetonSessionExtensions.class.getName() + "$2")).isEqualTo(JAVA_8);
    assertThat(majorVersion(BetonSessionExtensions.class.getName() + "$3")).isEqualTo(JAVA_8);
    for (String inner : new String[] {"$4", "$5", "$6", "$6$1", "$7"}) { // the resolution rules and their factories
      assertThat(majorVersion(BetonSessionExtensions.class.getName() + inner)).isEqualTo(JAVA_8);
    }
    assertThat(majorVersion(ScalaBinaryCheck.class.getName())).isEqualTo(JAVA_8);
    assertThat(majorVersion(BetonProvider.class.getName())).isEqualTo(JAVA_17);
  }

  /** Spark runs every registered session extension at each session's start, on Java 11 as on 17. */
  @Test
  void onJava11TheSessionExtensionLoadsAndInjectsItsRules() {
    OlderJava java11 = new OlderJava(JAVA_11);
    List<String> loaded = new ArrayList<>();
    for (SparkSessionExtensionsProvider p : ServiceLoader.load(SparkSessionExtensionsProvider.class, java11)) {
      loaded.add(p.getClass().getName());
      assertThat(p.getClass().getClassLoader()).isSameAs(java11);
      SparkSessionExtensions extensions = new SparkSessionExtensions();
      p.apply(extensions);
      assertThat(extensions.buildCheckRules(null).size()).isEqualTo(1);
      // a table's columns from its location, write options into a created table, ignored write options refused
      assertThat(extensions.buildResolutionRules(null).size()).isEqualTo(3);
    }
    assertThat(loaded).containsExactly(BetonSessionExtensions.class.getName());
  }

  @Test
  void onJava11EveryOtherFormatStillResolvesAndBetonSaysWhatItNeeds() {
    OlderJava java11 = new OlderJava(JAVA_11);
    // Spark's own lookup, as spark.read.parquet(...) makes it, through the context class loader
    assertThat(inContext(java11, () -> DataSource.lookupDataSource("parquet", new SQLConf())))
        .isEqualTo(ParquetDataSourceV2.class);
    Class<?> beton = inContext(java11, () -> DataSource.lookupDataSource("beton", new SQLConf()));
    assertThat(beton.getName()).isEqualTo(BetonDataSource.class.getName());
    assertThat(beton.getClassLoader()).as("defined by the older Java's loader").isSameAs(java11);

    List<String> names = new ArrayList<>();
    DataSourceRegister registered = null;
    for (DataSourceRegister source : ServiceLoader.load(DataSourceRegister.class, java11)) {
      names.add(source.shortName());
      registered = source.shortName().equals("beton") ? source : registered;
    }
    assertThat(names).contains("beton", "parquet", "csv", "json");
    TableProvider provider = (TableProvider) registered;
    assertThatThrownBy(() -> provider.inferSchema(new CaseInsensitiveStringMap(Map.of("path", "/data/photos"))))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageStartingWith("format(\"beton\") needs Java 17 or newer, and this JVM is Java ")
        .hasMessageContaining("Spark's other data sources are unaffected")
        .hasCauseInstanceOf(UnsupportedClassVersionError.class);
  }

  /** The loader does refuse what the JVM would: below Java 8, the registered class too breaks Spark's lookups. */
  @Test
  void aRegisteredClassThatCannotLoadBreaksEveryLookup() {
    OlderJava java7 = new OlderJava(JAVA_8 - 1);
    // the JDK's ServiceLoader lets the error through as it is, and Spark's lookup does too
    assertThatThrownBy(() -> inContext(java7, () -> DataSource.lookupDataSource("parquet", new SQLConf())))
        .isInstanceOf(UnsupportedClassVersionError.class).hasMessageContaining("org/sparkbeton/spark/BetonDataSource");
  }

  private static <T> T inContext(ClassLoader loader, Supplier<T> action) {
    Thread t = Thread.currentThread();
    ClassLoader before = t.getContextClassLoader();
    t.setContextClassLoader(loader);
    try {
      return action.get();
    } finally {
      t.setContextClassLoader(before);
    }
  }

  private static int majorVersion(String className) {
    byte[] b = classFile(BetonDataSourceOlderJavaTest.class.getClassLoader(), className);
    return ((b[6] & 0xff) << 8) | (b[7] & 0xff);
  }

  private static byte[] classFile(ClassLoader from, String className) {
    try (InputStream in = from.getResourceAsStream(className.replace('.', '/') + ".class")) {
      return in == null ? null : in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Our classes (org.sparkbeton.*) defined here from the test's class path, refusing any class file newer than
   * {@code maxMajor} as that Java's JVM does; Spark, Scala and the JDK from the parent.
   */
  private static final class OlderJava extends ClassLoader {
    private final int maxMajor;

    OlderJava(int maxMajor) {
      super(BetonDataSourceOlderJavaTest.class.getClassLoader());
      this.maxMajor = maxMajor;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (!name.startsWith("org.sparkbeton.")) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> c = findLoadedClass(name);
        if (c == null) {
          byte[] b = classFile(getParent(), name);
          if (b == null) {
            throw new ClassNotFoundException(name);
          }
          int major = ((b[6] & 0xff) << 8) | (b[7] & 0xff);
          if (major > maxMajor) {
            throw new UnsupportedClassVersionError(name.replace('.', '/') + " has been compiled by a more recent"
                + " version of the Java Runtime (class file version " + major + ".0), this version of the Java"
                + " Runtime only recognizes class file versions up to " + maxMajor + ".0");
          }
          c = defineClass(name, b, 0, b.length);
        }
        if (resolve) {
          resolveClass(c);
        }
        return c;
      }
    }
  }
}
