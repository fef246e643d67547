package org.sparkbeton.format.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.fields.NdArrayField;

class DatasetManifestTest {
  private static final String SHA = "ab".repeat(32);

  static DatasetManifest sample() {
    List<ManifestField> fields = List.of(
        ManifestField.of("image", FieldTypes.RGB_IMAGE),
        ManifestField.of("label", FieldTypes.INT),
        ManifestField.of("weight", FieldTypes.FLOAT),
        ManifestField.of(new BetonField("emb", NdArrayField.ndarray("<f4", 3, 4))),
        ManifestField.of("meta", FieldTypes.JSON));
    Map<String, ColumnStats> stats0 = new LinkedHashMap<>();
    stats0.put("label", ColumnStats.ofLongs(-3, 9));
    stats0.put("weight", ColumnStats.ofDoubles(Double.NEGATIVE_INFINITY, 0.1, true));
    Map<String, ColumnStats> stats1 = Map.of("weight", new ColumnStats(null, null, true));
    Map<String, String> recipe = new LinkedHashMap<>();
    recipe.put("page_size", "8388608");
    recipe.put("note", "quotes \" and \\ and\nnewline and \u00e9\u4e2d");
    return new DatasetManifest(fields, List.of(
        new ShardEntry("part-00000-a.beton", 10, 1234, new ShardChecksum("sha256", SHA), stats0),
        new ShardEntry("sub/part-00001-b.beton", 5, 99, new ShardChecksum("crc32c", "DEADBEEF"), stats1),
        new ShardEntry("part-00002-c.beton", 0, 3125, new ShardChecksum("crc32c", "00000000"), null)),
        recipe, "spark-beton test");
  }

  @Test
  void findsTheOneShardHoldingARangeOfTheDatasetsSamples() {
    DatasetManifest m = sample(); // samples [0, 10), [10, 15), none
    assertThat(m.shardHolding(0, 10)).isEqualTo(new DatasetManifest.PlacedShard(m.shards().get(0), 0));
    assertThat(m.shardHolding(3, 7)).isEqualTo(new DatasetManifest.PlacedShard(m.shards().get(0), 0));
    assertThat(m.shardHolding(10, 15)).isEqualTo(new DatasetManifest.PlacedShard(m.shards().get(1), 10));
    assertThat(m.shardHolding(8, 12)).as("split over two shards").isNull();
    assertThat(m.shardHolding(12, 20)).as("past the end").isNull();
  }

  @Test
  void roundTripsThroughJson() {
    DatasetManifest m = sample();
    String json = m.toJson();
    DatasetManifest back = DatasetManifest.parse(json);
    assertThat(back).isEqualTo(m);
    assertThat(back.toJson()).isEqualTo(json);
    assertThat(back.totalSamples()).isEqualTo(15);
    assertThat(back.fields().get(3).dtype()).isEqualTo("<f4");
    assertThat(back.fields().get(3).shape()).containsExactly(3, 4);
    assertThat(back.shards().get(1).checksum().value()).isEqualTo("deadbeef");
    assertThat(back.shards().get(0).stats("weight").min()).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(back.shards().get(0).stats("label").max()).isEqualTo(9L);
    assertThat(back.recipe().get("note")).isEqualTo("quotes \" and \\ and\nnewline and \u00e9\u4e2d");
    assertThat(json).contains("\"format\": \"beton-dataset\"").contains("\"format_version\": 2")
        .contains("\"-Infinity\"");
  }

  @Test
  void floatBoundsRoundTripExactly() {
    double[] values = {0.1, -0.0, Double.MIN_VALUE, Double.MAX_VALUE, 1e-300, 123456789.123456789};
    for (double v : values) {
      DatasetManifest m = new DatasetManifest(List.of(ManifestField.of("w", FieldTypes.FLOAT)),
          List.of(new ShardEntry("a.beton", 1, 1, new ShardChecksum("crc32c", "01234567"),
              Map.of("w", ColumnStats.ofDoubles(v, Double.MAX_VALUE, false)))), Map.of(), "t");
      double back = (Double) DatasetManifest.parse(m.toJson()).shards().get(0).stats("w").min();
      assertThat(Double.doubleToRawLongBits(back)).as("bits of %s", v).isEqualTo(Double.doubleToRawLongBits(v));
    }
  }

  @Test
  void syntaxErrorsNameTheOffset() {
    assertSyntax("", 0, "unexpected end of input");
    assertSyntax("{\"a\": 1,}", 8, "expected a string key");
    assertSyntax("{\"a\": 01}", 7, "leading zeros");
    assertSyntax("{\"a\": NaN}", 6, "expected a value");
    assertSyntax("{\"a\": 1} x", 9, "after the end of the JSON value");
    assertSyntax("{\"a\": \"x\ty\"}", 8, "control character");
    assertSyntax("{\"a\": \"\\q\"}", 7, "invalid escape");
    assertSyntax("{\"a\": 1, \"a\": 2}", 9, "duplicate key \"a\"");
    assertSyntax("[1 2]", 3, "expected ',' or ']'");
    assertSyntax("{\"a\": 99999999999999999999}", 6, "does not fit");
    assertSyntax("[".repeat(100), 64, "nesting deeper");
    assertSyntax("{\"a\": tru}", 6, "expected a value");
  }

  private static void assertSyntax(String json, int offset, String message) {
    assertThatThrownBy(() -> DatasetManifest.parse(json))
        .isInstanceOf(ManifestFormatException.class)
        .hasMessageContaining("at offset " + offset + ":")
        .hasMessageContaining(message)
        .satisfies(e -> assertThat(((ManifestFormatException) e).position()).isEqualTo(offset));
  }

  @Test
  void contentErrorsNameTheJsonPath() {
    String good = sample().toJson();
    assertContent(good.replace("\"format_version\": 2", "\"format_version\": 3"), "$.format_version",
        "version 3 is not supported by this reader, which reads versions 1 and 2");
    assertContent(good.replace("\"beton-dataset\"", "\"parquet\""), "$.format", "expected \"beton-dataset\"");
    assertContent(good.replace("\"total_samples\": 15", "\"total_samples\": 16"), "$.total_samples",
        "says 16 but its shards hold 15 samples (the sum of $.shards[*].samples): the total or a shard's count was"
            + " changed");
    assertContent(good.replace("\"samples\": 10", "\"samples\": -10"), "$.shards[0].samples", "negative");
    assertContent(good.replace("\"samples\": 10", "\"samples\": \"10\""), "$.shards[0].samples",
        "expected an integer, got the string \"10\"");
    assertContent(good.replace("\"part-00000-a.beton\"", "\"../escape.beton\""), "$.shards[0]", "'..'");
    assertContent(good.replace("\"part-00000-a.beton\"", "\"/abs.beton\""), "$.shards[0]", "absolute");
    assertContent(good.replace("\"part-00000-a.beton\"", "\"s3://b/x.beton\""), "$.shards[0]", "URI scheme");
    assertContent(good.replace("\"part-00002-c.beton\"", "\"part-00000-a.beton\""), "$", "listed twice");
    assertContent(good.replace("\"recipe\"", "\"recipes\""), "$", "unknown key \"recipes\"");
    assertContent(good.replace("\"type_id\": 1", "\"type_id\": 7"), "$.fields[1].type_id", "unknown type id 7");
    assertContent(good.replace("\"dtype\": \"<f4\",", ""), "$.fields[3]", "needs a dtype and a shape");
    assertContent(good.replace("\"<f4\"", "\"<q4\""), "$.fields[3].dtype", "<q4");
    assertContent(good.replace("\"shape\": [3, 4]", "\"shape\": [3, 0]"), "$.fields[3].shape[1]", "positive");
    assertContent(good.replace("\"value\": \"deadbeef\"", "\"value\": \"deadbee\""), "$.shards[1]", "8 hex digits");
    assertContent(good.replace("\"crc32c\"", "\"md5\""), "$.shards[1]", "\"md5\"");
    assertContent(good.replace("\"min\": -3", "\"min\": 30"), "$.shards[0].stats.label", "min 30 is above max 9");
    assertContent(good.replace("\"min\": -3", "\"min\": -3.5"), "$.shards[0].stats.label.min",
        "expected an integer");
    assertContent(good.replace("\"label\": {", "\"meta\": {"), "$.shards[0].stats.meta",
        "only kept for Int and Float");
    assertContent(good.replace("\"note\": ", "\"n\": 1, \"note\": "), "$.recipe.n", "expected a string");
    assertContent("[]", "$", "expected an object, got an array");
    assertContent(good.replace("\"created_by\": \"spark-beton test\",", ""), "$", "missing required key \"created_by\"");
  }

  private static void assertContent(String json, String path, String message) {
    assertThatThrownBy(() -> DatasetManifest.parse(json))
        .isInstanceOf(ManifestFormatException.class)
        .hasMessageContaining("Invalid manifest at " + path + ":")
        .hasMessageContaining(message);
  }

  @Test
  void constructorRejectsInconsistentManifests() {
    ShardChecksum c = new ShardChecksum("crc32c", "01234567");
    assertThatThrownBy(() -> new DatasetManifest(List.of(), List.of(), Map.of(), "t"))
        .hasMessageContaining("at least one field");
    assertThatThrownBy(() -> new DatasetManifest(
        List.of(ManifestField.of("a", FieldTypes.INT), ManifestField.of("a", FieldTypes.FLOAT)), List.of(), Map.of(), "t"))
        .hasMessageContaining("'a' appears twice");
    assertThatThrownBy(() -> new DatasetManifest(List.of(ManifestField.of("a", FieldTypes.INT)),
        List.of(new ShardEntry("x", 1, 1, c, Map.of("a", ColumnStats.ofDoubles(0, 1, false)))), Map.of(), "t"))
        .hasMessageContaining("must be integers");
    assertThatThrownBy(() -> ManifestField.of("a", FieldTypes.NDARRAY)).hasMessageContaining("needs a dtype");
  }

  @Test
  void accumulatorTracksBoundsAndNan() {
    ColumnStats.Accumulator ints = ColumnStats.Accumulator.forInts();
    assertThat(ints.result()).isEqualTo(new ColumnStats(null, null, false));
    ints.add(5);
    ints.add(-2);
    assertThat(ints.result()).isEqualTo(ColumnStats.ofLongs(-2, 5));
    ColumnStats.Accumulator floats = ColumnStats.Accumulator.forFloats();
    floats.add(Double.NaN);
    assertThat(floats.result()).isEqualTo(new ColumnStats(null, null, true));
    floats.add(1.5);
    floats.add(-0.5);
    assertThat(floats.result()).isEqualTo(ColumnStats.ofDoubles(-0.5, 1.5, true));
  }
}
