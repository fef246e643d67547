package org.sparkbeton.spark.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

class BetonWriteBuilderTest {
  private static final StructType SCHEMA = new StructType().add("label", DataTypes.IntegerType);

  /** The tasks get the path as the driver resolves it: executors resolve a relative one elsewhere. */
  @Test
  void theDatasetPathIsMadeAbsoluteOnTheDriver() {
    Path cwd = Path.of(System.getProperty("user.dir"));
    Configuration conf = new Configuration();
    assertThat(description("out/ds", conf)).isEqualTo("beton dataset file:" + cwd.resolve("out/ds"));
    assertThat(description("/data/ds", conf)).isEqualTo("beton dataset file:/data/ds");
    assertThat(description("file:///data/ds", conf)).isEqualTo("beton dataset file:/data/ds");
  }

  /** A shell's ~ is a file name to Hadoop: the write would make a directory named ~. */
  @Test
  void aPathStartingWithTildeIsRefusedNamingTheHomeDirectory() {
    for (String dir : List.of("~/datasets/photos", "~")) {
      assertThatThrownBy(() -> description(dir, new Configuration())).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Cannot write a beton dataset to " + dir + ": ~ is a file name to Hadoop, not the home directory,"
              + " so this would create a directory named ~; write " + System.getProperty("user.home")
              + dir.substring(1));
    }
    assertThat(description("data/~x", new Configuration())).endsWith("/data/~x");
  }

  private static String description(String dir, Configuration conf) {
    return new BetonWriteBuilder(dir, SCHEMA, Map.of(), conf).build().description();
  }
}
