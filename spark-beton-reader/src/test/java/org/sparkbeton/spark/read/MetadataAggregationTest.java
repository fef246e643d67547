package org.sparkbeton.spark.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.BetonFormatException;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.fields.FloatField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.spark.read.MetadataAggregation.Aggregate;
import org.sparkbeton.spark.read.MetadataAggregation.Function;
import org.sparkbeton.spark.read.testing.TestDatasets;

/** The driver-side aggregation, without Spark: values against a plain loop, and bytes read = metadata only. */
class MetadataAggregationTest {
  private static final List<BetonField> FIELDS = List.of(new BetonField("image", RgbImageField.INSTANCE),
      new BetonField("label", IntField.INSTANCE), new BetonField("score", FloatField.INSTANCE));

  @TempDir Path tmp;
  private final Configuration conf = new Configuration();

  private List<List<Object[]>> shards() {
    List<List<Object[]>> shards = new ArrayList<>();
    for (int s = 0; s < 2; s++) {
      List<Object[]> samples = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        int w = 8 + (i % 3);
        samples.add(new Object[] {RgbImage.raw(w, 4, new byte[w * 4 * 3]), (long) (i % 5 - 2), s * 10.0 + i * 0.25});
      }
      shards.add(samples);
    }
    return shards;
  }

  @Test
  void groupsCountsMinAndMaxLikeAPlainLoop() throws Exception {
    List<List<Object[]>> shards = shards();
    Path dir = tmp.resolve("ds");
    TestDatasets.writeDataset(dir, FIELDS, shards);
    DatasetInputs inputs = DatasetInputs.resolve(dir.toString(), conf);
    BetonSchema schema = BetonSchema.of(inputs.fields(), BetonReadOptions.IMAGE_MODE_BINARY);
    MetadataAggregation agg = new MetadataAggregation(schema, List.of(schema.column("label")), List.of(
        new Aggregate(Function.COUNT, null), new Aggregate(Function.MIN, schema.column("score")),
        new Aggregate(Function.MAX, schema.column("score")), new Aggregate(Function.MAX, schema.column("image_width"))));
    List<Object[]> rows = agg.run(inputs.shards(), ReadConf.defaults(), conf);

    Map<Long, Object[]> expected = new TreeMap<>();
    for (List<Object[]> shard : shards) {
      for (Object[] s : shard) {
        long label = (Long) s[1];
        double score = (Double) s[2];
        int width = ((RgbImage) s[0]).width();
        Object[] e = expected.computeIfAbsent(label, l -> new Object[] {l, 0L, Double.MAX_VALUE, -Double.MAX_VALUE, 0});
        e[1] = (Long) e[1] + 1;
        e[2] = Math.min((Double) e[2], score);
        e[3] = Math.max((Double) e[3], score);
        e[4] = Math.max((Integer) e[4], width);
      }
    }
    Map<Long, Object[]> actual = new TreeMap<>();
    rows.forEach(r -> actual.put((Long) r[0], r));
    assertThat(actual.keySet()).containsExactlyElementsOf(expected.keySet());
    expected.forEach((label, e) -> assertThat(actual.get(label)).containsExactly(e));
    assertThat(agg.samplesRead()).isEqualTo(60);

    // header, descriptors and metadata records of each shard; no data page, no allocation table
    long metadata = 0;
    for (DatasetInputs.Shard s : inputs.shards()) {
      try (BetonReader r = BetonReader.open(Path.of(java.net.URI.create(s.path())))) {
        metadata += r.metadataEnd();
      }
    }
    assertThat(agg.bytesRead()).isEqualTo(metadata);
  }

  @Test
  void aGlobalAggregateOfNothingIsOneRowOfZeroAndNulls() throws Exception {
    Path dir = tmp.resolve("empty");
    TestDatasets.writeDataset(dir, FIELDS, List.of(List.of()));
    DatasetInputs inputs = DatasetInputs.resolve(dir.toString(), conf);
    BetonSchema schema = BetonSchema.of(inputs.fields(), BetonReadOptions.IMAGE_MODE_BINARY);
    List<Object[]> rows = new MetadataAggregation(schema, List.of(), List.of(new Aggregate(Function.COUNT, null),
        new Aggregate(Function.MIN, schema.column("label")))).run(inputs.shards(), ReadConf.defaults(), conf);
    assertThat(rows).singleElement().satisfies(r -> assertThat(r).containsExactly(0L, null));
  }

  @Test
  void aShardThatIsNotWhatTheManifestSaysFailsWithTheFormatError() throws Exception {
    Path dir = tmp.resolve("cut");
    TestDatasets.writeDataset(dir, FIELDS, shards());
    Path shard = dir.resolve("part-00001.beton");
    byte[] bytes = Files.readAllBytes(shard);
    Files.write(shard, java.util.Arrays.copyOf(bytes, bytes.length - 8));
    DatasetInputs inputs = DatasetInputs.resolve(dir.toString(), conf);
    BetonSchema schema = BetonSchema.of(inputs.fields(), BetonReadOptions.IMAGE_MODE_BINARY);
    MetadataAggregation agg = new MetadataAggregation(schema, List.of(schema.column("label")),
        List.of(new Aggregate(Function.COUNT, null)));
    assertThatThrownBy(() -> agg.run(inputs.shards(), ReadConf.defaults(), conf))
        .isInstanceOf(BetonFormatException.class).hasMessageContaining("part-00001.beton")
        .hasMessageContaining("but the manifest says");
  }

  @Test
  void refusesColumnsItCannotReadFromARecord() throws Exception {
    Path dir = tmp.resolve("ds");
    TestDatasets.writeDataset(dir, FIELDS, shards());
    DatasetInputs inputs = DatasetInputs.resolve(dir.toString(), conf);
    BetonSchema schema = BetonSchema.of(inputs.fields(), BetonReadOptions.IMAGE_MODE_BINARY);
    assertThat(MetadataAggregation.supports(schema.column("image"))).isFalse();
    assertThat(MetadataAggregation.supports(schema.column("image_mode"))).isFalse();
    assertThat(MetadataAggregation.supports(schema.column("image_height"))).isTrue();
    assertThatThrownBy(() -> new MetadataAggregation(schema, List.of(schema.column("image")), List.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'image'");
  }

  @Test
  void withIgnoreCorruptFilesACorruptShardIsLeftOutWhole() throws Exception {
    List<List<Object[]>> shards = shards();
    Path dir = tmp.resolve("one-bad");
    TestDatasets.writeDataset(dir, FIELDS, shards);
    Path bad = dir.resolve("part-00000.beton");
    byte[] bytes = Files.readAllBytes(bad);
    Files.write(bad, java.util.Arrays.copyOf(bytes, bytes.length - 8));
    DatasetInputs inputs = DatasetInputs.resolve(dir.toString(), conf);
    BetonSchema schema = BetonSchema.of(inputs.fields(), BetonReadOptions.IMAGE_MODE_BINARY);
    MetadataAggregation agg = new MetadataAggregation(schema, List.of(),
        List.of(new Aggregate(Function.COUNT, null), new Aggregate(Function.MAX, schema.column("score"))));
    List<Object[]> rows = agg.run(inputs.shards(), ReadConf.parse(Map.of("ignoreCorruptFiles", "true"), Map.of()), conf);
    // only shard 1 counts: its 30 samples, scores 10.0 + i * 0.25
    assertThat(rows).singleElement().satisfies(r -> assertThat(r).containsExactly(30L, 10.0 + 29 * 0.25));
    assertThat(agg.corruptShardsSkipped()).isEqualTo(1);
    assertThat(agg.samplesRead()).isEqualTo(30);
  }

  @Test
  void aMissingShardFailsUnlessIgnoreMissingFilesLeavesItOut() throws Exception {
    Path dir = tmp.resolve("one-gone");
    TestDatasets.writeDataset(dir, FIELDS, shards());
    DatasetInputs inputs = DatasetInputs.resolve(dir.toString(), conf);
    Files.delete(dir.resolve("part-00000.beton"));
    BetonSchema schema = BetonSchema.of(inputs.fields(), BetonReadOptions.IMAGE_MODE_BINARY);
    MetadataAggregation corruptOnly = new MetadataAggregation(schema, List.of(),
        List.of(new Aggregate(Function.COUNT, null)));
    assertThatThrownBy(() -> corruptOnly.run(inputs.shards(),
        ReadConf.parse(Map.of("ignoreCorruptFiles", "true"), Map.of()), conf))
        .isInstanceOf(java.io.FileNotFoundException.class).hasMessageContaining("part-00000.beton does not exist");
    MetadataAggregation agg = new MetadataAggregation(schema, List.of(),
        List.of(new Aggregate(Function.COUNT, null), new Aggregate(Function.MAX, schema.column("score"))));
    List<Object[]> rows = agg.run(inputs.shards(), ReadConf.parse(Map.of("ignoreMissingFiles", "true"), Map.of()),
        conf);
    assertThat(rows).singleElement().satisfies(r -> assertThat(r).containsExactly(30L, 10.0 + 29 * 0.25));
    assertThat(agg.missingShardsSkipped()).isEqualTo(1);
    assertThat(agg.corruptShardsSkipped()).isZero();
  }

  /** The driver's memo keys on describe(): equal exactly for aggregations that compute the same rows. */
  @Test
  void describesWhatItComputesInItsOwnTerms() {
    Path dir = tmp.resolve("described");
    TestDatasets.writeDataset(dir, FIELDS, shards());
    BetonSchema schema = BetonSchema.of(DatasetInputs.resolve(dir.toString(), conf).fields(),
        BetonReadOptions.IMAGE_MODE_BINARY);
    Aggregate count = new Aggregate(Function.COUNT, null);
    Aggregate minScore = new Aggregate(Function.MIN, schema.column("score"));
    MetadataAggregation histogram = new MetadataAggregation(schema, List.of(schema.column("label")), List.of(count));
    assertThat(histogram.describe()).isEqualTo("GROUP BY label: COUNT(*)");
    assertThat(new MetadataAggregation(schema, List.of(schema.column("label"), schema.column("image_width")),
        List.of(count, minScore, new Aggregate(Function.MAX, schema.column("label")))).describe())
        .isEqualTo("GROUP BY label, image_width: COUNT(*), MIN(score), MAX(label)");
    assertThat(new MetadataAggregation(schema, List.of(), List.of(minScore, count)).describe())
        .isEqualTo("GROUP BY (): MIN(score), COUNT(*)");
    // what differs in any respect describes itself otherwise: grouping, function, column, order
    List<String> others = List.of(
        new MetadataAggregation(schema, List.of(schema.column("score")), List.of(count)).describe(),
        new MetadataAggregation(schema, List.of(), List.of(count)).describe(),
        new MetadataAggregation(schema, List.of(schema.column("label")), List.of(minScore)).describe(),
        new MetadataAggregation(schema, List.of(schema.column("label")),
            List.of(new Aggregate(Function.MIN, schema.column("label")))).describe(),
        new MetadataAggregation(schema, List.of(schema.column("label")), List.of(count, minScore)).describe(),
        new MetadataAggregation(schema, List.of(schema.column("label")), List.of(minScore, count)).describe());
    assertThat(others).doesNotHaveDuplicates().doesNotContain(histogram.describe());
  }
}
