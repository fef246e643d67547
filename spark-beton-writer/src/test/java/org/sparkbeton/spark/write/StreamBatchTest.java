package org.sparkbeton.spark.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.ManifestField;

/** The record of streaming queries' published batches that a manifest's recipe carries from publish to publish. */
class StreamBatchTest {
  private static DatasetManifest withRecipe(Map<String, String> recipe) {
    return new DatasetManifest(List.of(ManifestField.of("label", FieldTypes.INT)), List.of(), recipe, "test");
  }

  @Test
  void aBatchIsPublishedWhenItsQueryRecordsItOrALaterOne() {
    DatasetManifest m = withRecipe(Map.of("stream_batch.q1", "4", "stream_batch.q2", "9"));
    assertThat(new StreamBatch("q1", 3).publishedIn(m)).isTrue();
    assertThat(new StreamBatch("q1", 4).publishedIn(m)).isTrue();
    assertThat(new StreamBatch("q1", 5).publishedIn(m)).isFalse();
    assertThat(new StreamBatch("q3", 0).publishedIn(m)).isFalse();
    assertThat(new StreamBatch("q1", 0).publishedIn(withRecipe(Map.of()))).isFalse();
  }

  /** Appends and overwrites alike keep every query's record (an overwrite replaced what those batches wrote). */
  @Test
  void everyPublishKeepsEveryQuerysRecordAndSetsItsOwn() {
    DatasetManifest previous = withRecipe(Map.of("stream_batch.q1", "4", "stream_batch.q2", "9", "page_size", "1"));
    Map<String, String> recipe = Map.of("page_size", "2");
    assertThat(StreamBatch.recorded(recipe, previous, new StreamBatch("q1", 5))).containsOnly(
        Map.entry("page_size", "2"), Map.entry("stream_batch.q1", "5"), Map.entry("stream_batch.q2", "9"));
    assertThat(StreamBatch.recorded(recipe, previous, null)).containsOnly(
        Map.entry("page_size", "2"), Map.entry("stream_batch.q1", "4"), Map.entry("stream_batch.q2", "9"));
    assertThat(StreamBatch.recorded(recipe, null, new StreamBatch("q7", 0)))
        .containsOnly(Map.entry("page_size", "2"), Map.entry("stream_batch.q7", "0"));
    assertThat(StreamBatch.recorded(recipe, null, null)).containsOnly(Map.entry("page_size", "2"));
  }

  /** A checkpoint reused for another output resumes after batches that never came here: that is told apart. */
  @Test
  void aLaterBatchToADatasetWithoutItsQuerysRecordFollowsBatchesPublishedElsewhere() {
    DatasetManifest other = withRecipe(Map.of("stream_batch.q2", "9"));
    assertThat(new StreamBatch("q1", 4).followsBatchesPublishedElsewhere(null)).isTrue();
    assertThat(new StreamBatch("q1", 4).followsBatchesPublishedElsewhere(other)).isTrue();
    assertThat(new StreamBatch("q1", 0).followsBatchesPublishedElsewhere(null)).as("the query's first").isFalse();
    assertThat(new StreamBatch("q2", 10).followsBatchesPublishedElsewhere(other)).as("continues here").isFalse();
  }
}
