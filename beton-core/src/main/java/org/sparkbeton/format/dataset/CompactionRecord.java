package org.sparkbeton.format.dataset;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sparkbeton.format.JsonStrings;

/**
 * What a compaction replaced, as the manifest records it in its recipe ({@code compacted.<job>}): the shards it merged
 * into others, when it published, and until when they are kept. Readers that planned their reads on the manifest
 * before (a stream's batch under way, a query's tasks, a training run's loader) still open those files: the cleanups
 * ({@link Orphans}: the next write's, {@code beton gc}) leave them until {@code keepUntilMillis}, and every publish
 * carries the record that long.
 */
public record CompactionRecord(String job, long publishedMillis, long keepUntilMillis, List<String> replaced) {
  /** The recipe key prefix of a compaction's record: {@code compacted.<job>}. */
  public static final String PREFIX = "compacted.";

  public CompactionRecord {
    replaced = List.copyOf(replaced);
  }

  /** The recipe entry: {@code {"at":<millis>,"until":<millis>,"replaced":["part-...beton",...]}}. */
  public String json() {
    StringBuilder b = new StringBuilder("{\"at\":").append(publishedMillis).append(",\"until\":")
        .append(keepUntilMillis).append(",\"replaced\":[");
    for (int i = 0; i < replaced.size(); i++) {
      JsonStrings.append(b.append(i == 0 ? "" : ","), replaced.get(i));
    }
    return b.append("]}").toString();
  }

  /** The records of {@code recipe}; an entry that does not parse as one is left out (it protects nothing). */
  public static List<CompactionRecord> of(Map<String, String> recipe) {
    List<CompactionRecord> out = new ArrayList<>();
    recipe.forEach((key, value) -> {
      if (key.startsWith(PREFIX)) {
        try {
          Map<String, Object> m = JsonText.object(value);
          List<String> names = new ArrayList<>();
          if (m.get("at") instanceof Long at && m.get("until") instanceof Long until
              && m.get("replaced") instanceof List<?> list) {
            for (Object o : list) {
              if (o instanceof String s) {
                names.add(s);
              }
            }
            out.add(new CompactionRecord(key.substring(PREFIX.length()), at, until, names));
          }
        } catch (IllegalArgumentException e) {
          // not a record of ours
        }
      }
    });
    return out;
  }

  /**
   * {@code recipe} with the records of {@code previous} (the manifest a publish replaces; null for none) whose files
   * are still kept at {@code nowMillis}: an append keeps them safe from cleanups. Any record {@code recipe} holds
   * already is dropped first.
   */
  public static Map<String, String> carried(Map<String, String> recipe, DatasetManifest previous, long nowMillis) {
    Map<String, String> out = new LinkedHashMap<>();
    recipe.forEach((k, v) -> {
      if (!k.startsWith(PREFIX)) {
        out.put(k, v);
      }
    });
    if (previous != null) {
      for (CompactionRecord r : of(previous.recipe())) {
        if (r.fresh(nowMillis)) {
          out.put(PREFIX + r.job(), r.json());
        }
      }
    }
    return out;
  }

  /** Whether the files it replaced are still kept at {@code nowMillis} (not at {@code keepUntilMillis} itself). */
  public boolean fresh(long nowMillis) {
    return nowMillis < keepUntilMillis;
  }
}
