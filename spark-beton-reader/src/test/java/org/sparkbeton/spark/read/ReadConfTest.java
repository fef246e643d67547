package org.sparkbeton.spark.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
}
