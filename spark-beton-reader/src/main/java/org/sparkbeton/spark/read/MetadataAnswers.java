package org.sparkbeton.spark.read;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The driver's memo of aggregates answered from a dataset's metadata, so repeated queries (a notebook
 * re-running a histogram, a dashboard) skip re-reading the shards' records. Only for dataset directories:
 * the manifest lists shards whose names are unique to the write attempt that made them, and a shard is never
 * rewritten under its name, so the shard list identifies the data exactly (an overwrite or append publishes
 * other names). Files and globs read without a manifest are never memoised. Bounded: at most
 * {@value #MAX_ENTRIES} answers of at most {@value #MAX_ROWS} rows, least recently used evicted first.
 */
final class MetadataAnswers {
  static final int MAX_ENTRIES = 64;
  static final int MAX_ROWS = 10_000;

  private static final Map<String, List<Object[]>> ANSWERS = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, List<Object[]>> eldest) {
      return size() > MAX_ENTRIES;
    }
  };

  private MetadataAnswers() {}

  /**
   * The memo key of the aggregation {@code description} ({@link MetadataAggregation#describe()}) over
   * {@code inputs}, or null when a shard comes from no manifest or the memo is off
   * ({@link BetonReadOptions#MEMOIZE_AGGREGATES}). It names every shard (path, bytes, samples) and the read
   * options that change an answer (corrupt shards left out).
   */
  static String key(DatasetInputs inputs, String description, ReadConf conf) {
    if (!inputs.everyShardListed() || !conf.memoizeAggregates()) {
      return null;
    }
    StringBuilder b = new StringBuilder(description).append("|ignoreCorruptFiles=").append(conf.ignoreCorruptFiles());
    for (DatasetInputs.Shard s : inputs.shards()) {
      b.append('|').append(s.path()).append(':').append(s.bytes()).append(':').append(s.samples());
    }
    return b.toString();
  }

  /** A copy of the memoised answer, or null. */
  static synchronized List<Object[]> get(String key) {
    List<Object[]> rows = ANSWERS.get(key);
    return rows == null ? null : copy(rows);
  }

  /** Memoises a copy of {@code rows} if it is small enough. */
  static synchronized void put(String key, List<Object[]> rows) {
    if (rows.size() <= MAX_ROWS) {
      ANSWERS.put(key, copy(rows));
    }
  }

  static synchronized int size() {
    return ANSWERS.size();
  }

  static synchronized void clear() {
    ANSWERS.clear();
  }

  private static List<Object[]> copy(List<Object[]> rows) {
    List<Object[]> out = new ArrayList<>(rows.size());
    for (Object[] r : rows) {
      out.add(r.clone()); // the values are immutable boxes
    }
    return out;
  }
}
