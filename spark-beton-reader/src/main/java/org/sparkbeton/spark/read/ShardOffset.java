package org.sparkbeton.spark.read;

import java.util.Map;
import org.apache.spark.sql.connector.read.streaming.Offset;
import org.sparkbeton.format.JsonStrings;
import org.sparkbeton.format.dataset.JsonText;

/**
 * Where a streaming read of a dataset stands: the first {@code shards} shards of its manifest are read, the last of
 * them named {@code last} (its file name; null before the first). An append lists the shards already there first,
 * in their order, so a count stays a position in every later manifest; the name tells a dataset replaced since (an
 * overwrite lists other shards) from one appended to.
 */
final class ShardOffset extends Offset {
  static final ShardOffset START = new ShardOffset(0, null);

  private final int shards;
  private final String last;

  ShardOffset(int shards, String last) {
    this.shards = shards;
    this.last = last;
  }

  int shards() {
    return shards;
  }

  String last() {
    return last;
  }

  /** As Spark writes it into the query's checkpoint, on one line: {@code {"shards":3,"last":"part-...beton"}}. */
  @Override
  public String json() {
    return "{\"shards\":" + shards + ",\"last\":" + (last == null ? "null" : JsonStrings.quote(last)) + "}";
  }

  static ShardOffset parse(String json) {
    try {
      Map<String, Object> members = JsonText.object(json);
      if (!(members.get("shards") instanceof Long shards) || shards < 0 || shards > Integer.MAX_VALUE
          || !members.containsKey("last") || (shards > 0) != (members.get("last") instanceof String)) {
        throw new IllegalArgumentException("not an offset of a beton stream");
      }
      return new ShardOffset(shards.intValue(), (String) members.get("last"));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("The checkpoint holds an offset that is not a beton stream's: " + json
          + " (a checkpoint belongs to one query; give this one its own checkpointLocation)", e);
    }
  }
}
