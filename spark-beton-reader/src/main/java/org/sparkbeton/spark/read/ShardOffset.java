package org.sparkbeton.spark.read;

import java.util.Map;
import org.apache.spark.sql.connector.read.streaming.Offset;
import org.sparkbeton.format.JsonStrings;
import org.sparkbeton.format.dataset.JsonText;

/**
 * Where a streaming read of a dataset stands, as Spark keeps it in the query's checkpoint: the first {@code shards}
 * shards of its manifest are read, the last of them named {@code last} (null before the first), then {@code into}
 * samples of the next one, named {@code next} (0 and null at a shard's boundary); {@code samples} samples in all, of
 * the dataset whose identity is {@code dataset} ({@link org.sparkbeton.format.dataset.DatasetFiles#DATASET_ID}; -1
 * and null where the dataset recorded none when the offset was made).
 *
 * <p>An append lists the shards already there first, in their order, so the names stay a position in every later
 * manifest; a compaction renames shards but keeps the samples in order, so the sample count is the position in the
 * dataset of the same identity; an overwrite changes the identity, and then the offset is no position at all
 * ({@link StreamPositions}).
 */
final class ShardOffset extends Offset {
  static final ShardOffset START = new ShardOffset(0, null);

  private final int shards;
  private final String last;
  private final long into;
  private final String next;
  private final long samples;
  private final String dataset;

  ShardOffset(int shards, String last, long into, String next, long samples, String dataset) {
    this.shards = shards;
    this.last = last;
    this.into = into;
    this.next = next;
    this.samples = samples;
    this.dataset = dataset;
  }

  /** At a shard boundary, without the dataset's identity (as offsets were before datasets recorded one). */
  ShardOffset(int shards, String last) {
    this(shards, last, 0, null, -1, null);
  }

  int shards() {
    return shards;
  }

  String last() {
    return last;
  }

  long into() {
    return into;
  }

  String next() {
    return next;
  }

  long samples() {
    return samples;
  }

  String dataset() {
    return dataset;
  }

  /**
   * On one line: {@code {"shards":3,"last":"part-...beton"}}, then {@code "into":5,"next":"part-...beton"} inside a
   * shard, then {@code "samples":1200,"dataset":"<id>"} where the dataset has an identity.
   */
  @Override
  public String json() {
    StringBuilder b = new StringBuilder("{\"shards\":").append(shards).append(",\"last\":");
    b.append(last == null ? "null" : JsonStrings.quote(last));
    if (into > 0) {
      b.append(",\"into\":").append(into).append(",\"next\":").append(JsonStrings.quote(next));
    }
    if (dataset != null) {
      b.append(",\"samples\":").append(samples).append(",\"dataset\":").append(JsonStrings.quote(dataset));
    }
    return b.append('}').toString();
  }

  static ShardOffset parse(String json) {
    try {
      Map<String, Object> m = JsonText.object(json);
      if (!(m.get("shards") instanceof Long shards) || shards < 0 || shards > Integer.MAX_VALUE
          || !m.containsKey("last") || (shards > 0) != (m.get("last") instanceof String)) {
        throw new IllegalArgumentException("not an offset of a beton stream");
      }
      long into = 0;
      String next = null;
      if (m.containsKey("into")) {
        if (!(m.get("into") instanceof Long i) || i <= 0 || !(m.get("next") instanceof String n)) {
          throw new IllegalArgumentException("not an offset of a beton stream");
        }
        into = i;
        next = n;
      }
      long samples = -1;
      String dataset = null;
      if (m.containsKey("dataset")) {
        if (!(m.get("dataset") instanceof String d) || !(m.get("samples") instanceof Long s) || s < 0) {
          throw new IllegalArgumentException("not an offset of a beton stream");
        }
        samples = s;
        dataset = d;
      }
      return new ShardOffset(shards.intValue(), (String) m.get("last"), into, next, samples, dataset);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("The checkpoint holds an offset that is not a beton stream's: " + json
          + " (a checkpoint belongs to one query; give this one its own checkpointLocation)", e);
    }
  }
}
