package org.sparkbeton.spark.write;

import java.util.LinkedHashMap;
import java.util.Map;
import org.sparkbeton.format.dataset.DatasetManifest;

/**
 * A micro-batch of a streaming write: its streaming query (by the id a restart from the same checkpoint keeps) and the
 * batch's number. The manifest's recipe records the last batch each query published ({@link #KEY_PREFIX} and the
 * id), so that a batch Spark runs again after a restart (the dataset has it, the checkpoint does not say so) publishes
 * nothing twice.
 *
 * @param queryId the streaming query's id
 * @param epoch the batch's number in that query
 */
record StreamBatch(String queryId, long epoch) {
  /** Recipe keys of the streaming queries' last published batches. */
  static final String KEY_PREFIX = "stream_batch.";

  String key() {
    return KEY_PREFIX + queryId;
  }

  /** Whether {@code manifest} already holds this batch: its query published this batch or a later one. */
  boolean publishedIn(DatasetManifest manifest) {
    String last = manifest.recipe().get(key());
    return last != null && Long.parseLong(last) >= epoch;
  }

  /**
   * Whether this batch, not its query's first, goes to a dataset ({@code previous}, null for none) that holds no batch
   * of its query: the query's earlier batches went elsewhere, as when a checkpoint made for another output path is
   * reused (Spark then resumes after the batches it wrote there, and their rows never come here).
   */
  boolean followsBatchesPublishedElsewhere(DatasetManifest previous) {
    return epoch > 0 && (previous == null || !previous.recipe().containsKey(key()));
  }

  /**
   * {@code recipe} with the queries' batches recorded in {@code previous}, and {@code batch}'s (null: a batch write's).
   * An overwrite keeps them too: it replaced what those batches wrote, so a batch run again after it must not bring
   * its rows back (and a query's id is its own, so the record of another dataset's query does nothing here).
   */
  static Map<String, String> recorded(Map<String, String> recipe, DatasetManifest previous, StreamBatch batch) {
    Map<String, String> r = new LinkedHashMap<>(recipe);
    if (previous != null) {
      previous.recipe().forEach((k, v) -> {
        if (k.startsWith(KEY_PREFIX)) {
          r.putIfAbsent(k, v);
        }
      });
    }
    if (batch != null) {
      r.put(batch.key(), Long.toString(batch.epoch()));
    }
    return r;
  }
}
