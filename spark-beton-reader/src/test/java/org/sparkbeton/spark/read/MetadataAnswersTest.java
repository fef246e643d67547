package org.sparkbeton.spark.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.spark.read.testing.TestDatasets;

class MetadataAnswersTest {
  @TempDir Path tmp;
  private final Configuration conf = new Configuration();

  @AfterEach
  void clear() {
    MetadataAnswers.clear();
  }

  @Test
  void onlyDatasetDirectoriesAreMemoisedAndTheKeyNamesEveryShardAndOption() {
    Path dir = tmp.resolve("ds");
    TestDatasets.writeDataset(dir, TestDatasets.EVERY_FIELD,
        List.of(TestDatasets.everyFieldSamples(0, 5), TestDatasets.everyFieldSamples(5, 8)));
    DatasetInputs dataset = DatasetInputs.resolve(dir.toString(), conf);
    DatasetInputs file = DatasetInputs.resolve(dataset.shards().get(0).path(), conf);
    ReadConf plain = ReadConf.defaults();
    ReadConf ignoring = ReadConf.parse(Map.of(BetonReadOptions.IGNORE_CORRUPT_FILES, "true"), Map.of());

    assertThat(MetadataAnswers.key(file, "GROUP BY label: COUNT(*)", plain)).isNull();
    ReadConf off = ReadConf.parse(Map.of("MemoizeAggregates", "false"), Map.of());
    assertThat(MetadataAnswers.key(dataset, "GROUP BY label: COUNT(*)", off)).isNull();
    String key = MetadataAnswers.key(dataset, "GROUP BY label: COUNT(*)", plain);
    assertThat(key).contains(dataset.shards().get(0).path()).contains(dataset.shards().get(1).path());
    assertThat(MetadataAnswers.key(dataset, "GROUP BY label: MAX(label)", plain)).isNotEqualTo(key);
    assertThat(MetadataAnswers.key(dataset, "GROUP BY label: COUNT(*)", ignoring)).isNotEqualTo(key);

    // a dataset with one more shard (what an append publishes) has another key
    Path grown = tmp.resolve("grown");
    TestDatasets.writeDataset(grown, TestDatasets.EVERY_FIELD, List.of(TestDatasets.everyFieldSamples(0, 5),
        TestDatasets.everyFieldSamples(5, 8), TestDatasets.everyFieldSamples(8, 9)));
    assertThat(MetadataAnswers.key(DatasetInputs.resolve(grown.toString(), conf), "GROUP BY label: COUNT(*)", plain))
        .isNotEqualTo(key);
  }

  @Test
  void answersComeBackAsCopiesAndLargeOnesAreNotKept() {
    List<Object[]> rows = new ArrayList<>(List.of(new Object[] {1L, 10L}, new Object[] {2L, 20L}));
    MetadataAnswers.put("k", rows);
    rows.get(0)[1] = 99L; // the caller's rows are not the memo's
    List<Object[]> got = MetadataAnswers.get("k");
    assertThat(got).hasSize(2);
    assertThat(got.get(0)).containsExactly(1L, 10L);
    got.get(1)[1] = 77L; // nor are the rows handed out
    assertThat(MetadataAnswers.get("k").get(1)).containsExactly(2L, 20L);
    assertThat(MetadataAnswers.get("other")).isNull();

    List<Object[]> large = new ArrayList<>();
    for (int i = 0; i <= MetadataAnswers.MAX_ROWS; i++) {
      large.add(new Object[] {(long) i});
    }
    MetadataAnswers.put("large", large);
    assertThat(MetadataAnswers.get("large")).isNull();
  }

  @Test
  void theLeastRecentlyUsedAnswerGoesFirst() {
    for (int i = 0; i < MetadataAnswers.MAX_ENTRIES; i++) {
      MetadataAnswers.put("k" + i, List.<Object[]>of(new Object[] {(long) i}));
    }
    MetadataAnswers.get("k0"); // used: now the most recent
    MetadataAnswers.put("new", List.<Object[]>of(new Object[] {-1L}));
    assertThat(MetadataAnswers.size()).isEqualTo(MetadataAnswers.MAX_ENTRIES);
    assertThat(MetadataAnswers.get("k0")).isNotNull();
    assertThat(MetadataAnswers.get("k1")).isNull();
  }
}
