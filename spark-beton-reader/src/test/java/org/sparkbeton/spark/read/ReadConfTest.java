package org.sparkbeton.spark.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReadConfTest {
  @Test
  void defaults() {
    ReadConf c = ReadConf.defaults();
    assertThat(c.imageMode()).isEqualTo("binary");
    assertThat(c.ignoreCorruptFiles()).isFalse();
    assertThat(c.maxPartitionBytes()).isEqualTo(128L << 20);
    assertThat(c.maxSamplesPerPartition()).isEqualTo(Long.MAX_VALUE);
    assertThat(c.customFields()).isEmpty();
    assertThat(c.openCostInBytes()).isEqualTo(4L << 20);
    assertThat(c.minPartitionNum()).isEqualTo(1);
  }

  @Test
  void takesTheSessionsPartitionSizingSettings() {
    ReadConf c = ReadConf.parse(Map.of(), Map.of("spark.sql.files.openCostInBytes", "1000",
        "spark.sql.files.minPartitionNum", "8"));
    assertThat(c.openCostInBytes()).isEqualTo(1000);
    assertThat(c.minPartitionNum()).isEqualTo(8);
    assertThatThrownBy(() -> ReadConf.parse(Map.of(), Map.of("spark.sql.files.minPartitionNum", "0")))
        .hasMessage("Setting spark.sql.files.minPartitionNum must be a whole number from 1 to 2147483647, got '0'");
    assertThatThrownBy(() -> ReadConf.parse(Map.of(), Map.of("spark.sql.files.openCostInBytes", "4m")))
        .hasMessage("Setting spark.sql.files.openCostInBytes must be a whole number from 0 to 9223372036854775807,"
            + " got '4m'");
  }

  @Test
  void parsesOptionsCaseInsensitivelyWithSessionFallbacks() {
    ReadConf c = ReadConf.parse(Map.of("IMAGEMODE", "Raw", "maxpartitionbytes", "64m",
        "customFieldLayout", "a:13:1, b:8:8"), Map.of("spark.sql.files.ignoreCorruptFiles", "true"));
    assertThat(c.imageMode()).isEqualTo("raw");
    assertThat(c.ignoreCorruptFiles()).isTrue();
    assertThat(c.maxPartitionBytes()).isEqualTo(64L << 20);
    assertThat(c.customFields()).containsEntry("a", new ReadConf.CustomLayout(13, 1))
        .containsEntry("b", new ReadConf.CustomLayout(8, 8));
    assertThat(ReadConf.parse(Map.of(), Map.of("spark.sql.files.maxPartitionBytes", "1000b")).maxPartitionBytes())
        .isEqualTo(1000);
  }

  @Test
  void rejectsBadValuesNamingTheOption() {
    assertThatThrownBy(() -> ReadConf.parse(Map.of("imageMode", "png"), Map.of()))
        .hasMessageContaining("imageMode must be binary, image or raw, got 'png'");
    assertThatThrownBy(() -> ReadConf.parse(Map.of("ignoreCorruptFiles", "yes"), Map.of()))
        .hasMessageContaining("ignoreCorruptFiles must be true or false");
    assertThatThrownBy(() -> ReadConf.parse(Map.of("ignoreMissingFiles", "1"), Map.of()))
        .hasMessage("Option ignoreMissingFiles must be true or false, got '1'");
    assertThatThrownBy(() -> ReadConf.parse(Map.of("maxPartitionBytes", "0"), Map.of()))
        .hasMessageContaining("maxPartitionBytes must be positive");
    assertThatThrownBy(() -> ReadConf.parse(Map.of("maxSamplesPerPartition", "lots"), Map.of()))
        .hasMessageContaining("maxSamplesPerPartition must be a positive number");
    assertThatThrownBy(() -> ReadConf.parse(Map.of("customFieldLayout", "a:13:3"), Map.of()))
        .hasMessageContaining("customFieldLayout must be name:size:alignment").hasMessageContaining("'a:13:3'");
  }

  @Test
  void aggregatePushdownLimitDefaultsToTwoMillionSamplesAndZeroTurnsItOff() {
    assertThat(ReadConf.defaults().aggregatePushdownMaxSamples()).isEqualTo(2_000_000);
    assertThat(ReadConf.parse(Map.of("AGGREGATEPUSHDOWNMAXSAMPLES", "0"), Map.of()).aggregatePushdownMaxSamples())
        .isZero();
    assertThat(ReadConf.parse(Map.of("aggregatePushdownMaxSamples", "5_000_000"), Map.of())
        .aggregatePushdownMaxSamples()).isEqualTo(5_000_000);
    assertThatThrownBy(() -> ReadConf.parse(Map.of("aggregatePushdownMaxSamples", "-1"), Map.of()))
        .hasMessageContaining("aggregatePushdownMaxSamples must be a whole number >= 0").hasMessageContaining("'-1'");
  }

  @Test
  void aggregatesAreMemoisedUnlessTurnedOff() {
    assertThat(ReadConf.defaults().memoizeAggregates()).isTrue();
    assertThat(ReadConf.parse(Map.of("MEMOIZEAGGREGATES", "False"), Map.of()).memoizeAggregates()).isFalse();
    assertThatThrownBy(() -> ReadConf.parse(Map.of("memoizeAggregates", "no"), Map.of()))
        .hasMessage("Option memoizeAggregates must be true or false, got 'no'");
  }

  @Test
  void pageChecksumsAreVerifiedUnlessTurnedOff() {
    assertThat(ReadConf.defaults().verifyChecksums()).isTrue();
    assertThat(ReadConf.parse(Map.of("verifychecksums", "FALSE"), Map.of()).verifyChecksums()).isFalse();
    assertThatThrownBy(() -> ReadConf.parse(Map.of("verifyChecksums", "off"), Map.of()))
        .hasMessage("Option verifyChecksums must be true or false, got 'off'");
  }

  @Test
  void unknownOptionsAreRefusedWithTheNearestName() {
    assertThatThrownBy(() -> ReadConf.parse(Map.of("imageMod", "raw", "path", "/data/x"), Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Unknown option 'imageMod' for format(\"beton\") reads; did you mean 'imageMode'? Valid options"
            + " (any case): imageMode, ignoreCorruptFiles, ignoreMissingFiles, maxPartitionBytes, maxSamplesPerPartition,"
            + " customFieldLayout, aggregatePushdownMaxSamples, memoizeAggregates, verifyChecksums, maxShardsPerTrigger,"
            + " startingPosition; names with a dot pass as file system settings (e.g. fs.s3a.endpoint)");
    // a write option on a read is refused too: it would do nothing
    assertThatThrownBy(() -> ReadConf.parse(Map.of("imageColumns", "image"), Map.of()))
        .hasMessageStartingWith("Unknown option 'imageColumns' for format(\"beton\") reads. Valid options");
    // Spark's own path and paths (load(a, b)), and Hadoop settings, pass
    assertThat(ReadConf.parse(Map.of("Path", "/data/x", "paths", "[\"/a\",\"/b\"]", "fs.s3a.endpoint", "http://m:9000",
        "ImageMode", "image"), Map.of()).imageMode()).isEqualTo("image");
  }

  @Test
  void allListsEveryOptionConstant() throws IllegalAccessException {
    List<String> constants = new ArrayList<>();
    for (Field f : BetonReadOptions.class.getDeclaredFields()) {
      if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class && !f.getName().startsWith("IMAGE_MODE_")) {
        constants.add((String) f.get(null));
      }
    }
    assertThat(constants).hasSize(11);
    assertThat(BetonReadOptions.ALL).containsExactlyInAnyOrderElementsOf(constants);
  }

  @Test
  void aBatchReadRefusesTheOptionsOnlyStreamsActOn() {
    ReadConf.parse(Map.of("maxPartitionBytes", "1m"), Map.of()).requireBatchRead();
    ReadConf latest = ReadConf.parse(Map.of("StartingPosition", "latest"), Map.of());
    assertThat(latest.startAtLatest()).as("a stream still takes it").isTrue();
    assertThatThrownBy(latest::requireBatchRead)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Option startingPosition applies to streaming reads (spark.readStream().format(\"beton\")), not"
            + " to a batch read (spark.read()), which reads every shard the dataset lists whatever it says: leave it"
            + " out, or read the dataset as a stream");
    assertThatThrownBy(() -> ReadConf.parse(Map.of("startingPosition", "earliest", "maxShardsPerTrigger", "1"),
        Map.of()).requireBatchRead())
        .hasMessage("Options maxShardsPerTrigger and startingPosition apply to streaming reads"
            + " (spark.readStream().format(\"beton\")), not to a batch read (spark.read()), which reads every shard the"
            + " dataset lists whatever they say: leave them out, or read the dataset as a stream");
  }
}
