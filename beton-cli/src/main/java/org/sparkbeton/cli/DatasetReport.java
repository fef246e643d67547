package org.sparkbeton.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.dataset.ColumnStats;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.ManifestField;
import org.sparkbeton.format.dataset.RecordedColumnTypes;
import org.sparkbeton.format.dataset.ShardEntry;

/**
 * What {@code beton inspect DIR} reports about a dataset directory, from its manifest alone (no shard is opened):
 * who wrote it, its samples and shards, each field with the Spark type a write recorded for it and the range of its
 * values over the shards' statistics, the rest of the write's recipe, and the shards.
 */
record DatasetReport(
    String dir,
    String createdBy,
    long samples,
    long bytes,
    long minShardSamples,
    long maxShardSamples,
    /** The shard checksum algorithms the manifest uses, and whether it holds page checksums too. */
    List<String> checksums,
    boolean pageChecksums,
    List<FieldSummary> fields,
    /** The recipe less the recorded column types, which {@link FieldSummary#sparkType} shows. */
    Map<String, String> recipe,
    List<ShardEntry> shards) {

  /**
   * One field. {@code sparkType}: the type a Spark write recorded ({@code spark_type.<name>}), null where none is;
   * {@code min}/{@code max}: the bounds of an Int or Float field over every shard, null where a shard has no
   * statistics for it or none has a value; {@code hasNan}: a Float field holds NaN in some shard.
   */
  record FieldSummary(int index, String name, int typeId, String detail, String sparkType, Number min, Number max,
      boolean hasNan) {
    String type() {
      return FieldTypes.name(typeId);
    }
  }

  static DatasetReport of(String dir, DatasetManifest manifest) {
    List<ShardEntry> shards = manifest.shards();
    long bytes = 0;
    long minSamples = shards.isEmpty() ? 0 : Long.MAX_VALUE;
    long maxSamples = 0;
    TreeSet<String> algorithms = new TreeSet<>();
    for (ShardEntry s : shards) {
      bytes += s.bytes();
      minSamples = Math.min(minSamples, s.samples());
      maxSamples = Math.max(maxSamples, s.samples());
      algorithms.add(s.checksum().algorithm());
    }
    Map<String, String> types = RecordedColumnTypes.of(manifest.recipe());
    List<FieldSummary> fields = new ArrayList<>();
    for (int i = 0; i < manifest.fields().size(); i++) {
      ManifestField f = manifest.fields().get(i);
      fields.add(summary(i, f, types.get(f.name()), shards));
    }
    Map<String, String> recipe = new LinkedHashMap<>(manifest.recipe());
    recipe.keySet().removeIf(k -> k.startsWith(RecordedColumnTypes.PREFIX));
    return new DatasetReport(dir, manifest.createdBy(), manifest.totalSamples(), bytes, minSamples, maxSamples,
        List.copyOf(algorithms), manifest.hasPageChecksums(), fields, recipe, shards);
  }

  private static FieldSummary summary(int index, ManifestField f, String sparkType, List<ShardEntry> shards) {
    String detail = f.dtype() == null ? "" : f.dtype() + " " + java.util.Arrays.toString(f.shape());
    Number min = null;
    Number max = null;
    boolean nan = false;
    boolean complete = !shards.isEmpty();
    for (ShardEntry s : shards) {
      ColumnStats stats = s.stats().get(f.name());
      if (stats == null) {
        complete = false; // a shard without statistics: its values are unknown, so is the range
        break;
      }
      nan |= stats.hasNan();
      if (stats.min() != null) {
        min = min == null || compare(stats.min(), min) < 0 ? stats.min() : min;
        max = max == null || compare(stats.max(), max) > 0 ? stats.max() : max;
      }
    }
    return complete ? new FieldSummary(index, f.name(), f.typeId(), detail, sparkType, min, max, nan)
        : new FieldSummary(index, f.name(), f.typeId(), detail, sparkType, null, null, false);
  }

  /** Bounds of one field are all Longs (Int) or all Doubles (Float). */
  private static int compare(Number a, Number b) {
    return a instanceof Long x ? Long.compare(x, (Long) b) : Double.compare((Double) a, (Double) b);
  }
}
