package org.sparkbeton.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Spark installation the cluster tests build holds Spark's jars and refuses any class of ours. */
class SparkDistributionTest {
  @TempDir Path tmp;

  @Test
  void theBuildsListingIsSparkWithNothingOfOurs() throws Exception {
    List<Path> jars = SparkDistribution.sparkJars(Path.of(System.getProperty("spark.it.sparkJars")),
        SparkDistribution.ScalaLine.V2_12);
    assertThat(jars).extracting(j -> j.getFileName().toString())
        .anyMatch(n -> n.startsWith("spark-sql_2.12-3.5."))
        .anyMatch(n -> n.startsWith("spark-repl_2.12-"))
        .anyMatch(n -> n.startsWith("hadoop-client-api-"))
        .noneMatch(n -> n.startsWith("hadoop-client-minicluster-") || n.startsWith("junit-"));
  }

  /** Spark's Scala 2.13 build, listed by spark-beton-runtime-2.13 (built before this module). */
  @Test
  void theScala213ListingIsSparkOnScala213WithNothingOfOurs() throws Exception {
    List<Path> jars = SparkDistribution.sparkJars(Path.of(System.getProperty("spark.it.sparkJars213")),
        SparkDistribution.ScalaLine.V2_13);
    assertThat(jars).extracting(j -> j.getFileName().toString())
        .anyMatch(n -> n.startsWith("spark-sql_2.13-3.5."))
        .anyMatch(n -> n.startsWith("scala-library-2.13."))
        .anyMatch(n -> n.startsWith("hadoop-client-api-"))
        .noneMatch(n -> n.contains("_2.12-") || n.startsWith("scala-library-2.12.") || n.startsWith("junit-"));
  }

  @Test
  void aJarWithOurClassesIsRefused() throws Exception {
    Path ours = jar("beton-core.jar", "org/sparkbeton/format/BetonReader.class");
    Path listing = Files.writeString(tmp.resolve("cp"), jar("spark-core_2.12-3.5.9.jar", "org/apache/spark/X.class")
        + ":" + ours);
    assertThatThrownBy(() -> SparkDistribution.sparkJars(listing, SparkDistribution.ScalaLine.V2_12)).isInstanceOf(IllegalStateException.class)
        .hasMessage(ours + " is on Spark's classpath but holds [org/sparkbeton/format/BetonReader.class]: the "
            + "cluster would see classes that must come from the runtime jar");
  }

  @Test
  void unrelocatedTwelveMonkeysIsRefused() throws Exception {
    Path theirs = jar("imageio-core.jar", "com/twelvemonkeys/imageio/ImageReaderBase.class");
    Path listing = Files.writeString(tmp.resolve("cp"), theirs.toString());
    assertThatThrownBy(() -> SparkDistribution.sparkJars(listing, SparkDistribution.ScalaLine.V2_12)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("holds [com/twelvemonkeys/imageio/ImageReaderBase.class]");
  }

  @Test
  void aClassesDirectoryIsRefused() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("classes"));
    Path listing = Files.writeString(tmp.resolve("cp"), dir.toString());
    assertThatThrownBy(() -> SparkDistribution.sparkJars(listing, SparkDistribution.ScalaLine.V2_12)).isInstanceOf(IllegalStateException.class)
        .hasMessage("Spark's classpath (" + listing + ") lists " + dir + ", not a jar file");
  }

  private Path jar(String name, String entry) throws Exception {
    Path jar = tmp.resolve(name);
    try (OutputStream out = Files.newOutputStream(jar); ZipOutputStream zip = new ZipOutputStream(out)) {
      zip.putNextEntry(new ZipEntry(entry));
      zip.write(new byte[] {(byte) 0xca, (byte) 0xfe});
      zip.closeEntry();
    }
    return jar;
  }
}
