package org.sparkbeton.cli;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.sparkbeton.format.JsonStrings;
import org.sparkbeton.format.dataset.CompactionRecord;
import org.sparkbeton.format.dataset.DatasetFiles;
import org.sparkbeton.format.dataset.JsonText;
import org.sparkbeton.format.dataset.ShardEntry;

/** {@link DatasetReport} as {@code beton inspect DIR} prints it: text, or one JSON document. */
final class DatasetReportText {
  private DatasetReportText() {}

  static String toText(DatasetReport r, int listedShards) {
    StringBuilder b = new StringBuilder();
    InspectCommand.line(b, "dataset", r.dir());
    InspectCommand.line(b, "written by", r.createdBy());
    InspectCommand.line(b, "samples", String.format(Locale.ROOT, "%,d in %,d shard%s (%s)", r.samples(),
        r.shards().size(), r.shards().size() == 1 ? "" : "s", SizeArgs.human(r.bytes())));
    if (!r.shards().isEmpty()) {
      InspectCommand.line(b, "per shard", r.minShardSamples() == r.maxShardSamples()
          ? String.format(Locale.ROOT, "%,d sample%s", r.minShardSamples(), r.minShardSamples() == 1 ? "" : "s")
          : String.format(Locale.ROOT, "%,d to %,d samples", r.minShardSamples(), r.maxShardSamples()));
      InspectCommand.line(b, "checksums", String.join(", ", r.checksums()) + " per shard"
          + (r.pageChecksums() ? ", crc32c per page" : ""));
    }
    b.append('\n');

    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"#", "name", "type", "dtype/shape", "Spark type", "stored min .. max"});
    for (DatasetReport.FieldSummary f : r.fields()) {
      rows.add(new String[] {Integer.toString(f.index()), f.name(), f.type() + " (" + f.typeId() + ")", f.detail(),
          f.sparkType() == null ? "-" : f.sparkType(), range(f)});
    }
    InspectCommand.table(b, rows, new boolean[] {true, false, false, false, false, false});
    b.append("(Spark type: recorded by the write that made the column; '-': read as the field's own type)\n");

    if (!r.recipe().isEmpty()) {
      b.append("\nrecipe\n");
      List<String[]> entries = new ArrayList<>();
      Map<String, CompactionRecord> compactions = new HashMap<>();
      CompactionRecord.of(r.recipe())
          .forEach(c -> compactions.put(CompactionRecord.PREFIX + c.job(), c));
      r.recipe().forEach((k, v) -> {
        List<String> names = classNames(k, v);
        entries.add(new String[] {"  " + k, compactions.containsKey(k) ? compaction(compactions.get(k))
            : names != null ? String.join(", ", names) : v});
      });
      InspectCommand.table(b, entries, new boolean[] {false, false});
    }

    b.append("\nshards\n");
    List<String[]> shardRows = new ArrayList<>();
    shardRows.add(new String[] {"  file", "samples", "bytes"});
    int shown = Math.min(listedShards, r.shards().size());
    for (ShardEntry s : r.shards().subList(0, shown)) {
      shardRows.add(new String[] {"  " + s.path(), Long.toString(s.samples()), Long.toString(s.bytes())});
    }
    InspectCommand.table(b, shardRows, new boolean[] {false, true, true});
    if (shown < r.shards().size()) {
      b.append(String.format(Locale.ROOT, "  ... %,d more shard%s (--shards N lists more; --json lists all)%n",
          r.shards().size() - shown, r.shards().size() - shown == 1 ? "" : "s"));
    }
    return b.toString();
  }

  private static String range(DatasetReport.FieldSummary f) {
    if (f.min() == null) {
      return f.hasNan() ? "NaN only" : "";
    }
    return f.min() + " .. " + f.max() + (f.hasNan() ? ", and NaN" : "");
  }

  static String toJson(DatasetReport r) {
    StringBuilder b = new StringBuilder("{");
    b.append("\"dataset\": ").append(JsonStrings.quote(r.dir()))
        .append(", \"created_by\": ").append(JsonStrings.quote(r.createdBy()))
        .append(", \"samples\": ").append(r.samples())
        .append(", \"bytes\": ").append(r.bytes())
        .append(", \"checksums\": [");
    for (int i = 0; i < r.checksums().size(); i++) {
      b.append(i > 0 ? ", " : "").append(JsonStrings.quote(r.checksums().get(i)));
    }
    b.append("], \"page_checksums\": ").append(r.pageChecksums()).append(", \"fields\": [");
    for (int i = 0; i < r.fields().size(); i++) {
      DatasetReport.FieldSummary f = r.fields().get(i);
      b.append(i > 0 ? ", " : "").append("{\"name\": ").append(JsonStrings.quote(f.name()))
          .append(", \"type_id\": ").append(f.typeId())
          .append(", \"type\": ").append(JsonStrings.quote(f.type()))
          .append(", \"detail\": ").append(JsonStrings.quote(f.detail()))
          .append(", \"spark_type\": ").append(f.sparkType() == null ? "null" : JsonStrings.quote(f.sparkType()))
          .append(", \"min\": ").append(number(f.min()))
          .append(", \"max\": ").append(number(f.max()))
          .append(", \"has_nan\": ").append(f.hasNan()).append('}');
    }
    b.append("], \"recipe\": {");
    int n = 0;
    for (Map.Entry<String, String> e : r.recipe().entrySet()) {
      b.append(n++ > 0 ? ", " : "").append(JsonStrings.quote(e.getKey())).append(": ");
      List<String> names = classNames(e.getKey(), e.getValue());
      if (names == null) {
        b.append(JsonStrings.quote(e.getValue()));
      } else {
        b.append('[');
        for (int i = 0; i < names.size(); i++) {
          b.append(i > 0 ? ", " : "").append(JsonStrings.quote(names.get(i)));
        }
        b.append(']');
      }
    }
    b.append("}, \"shards\": [");
    for (int i = 0; i < r.shards().size(); i++) {
      ShardEntry s = r.shards().get(i);
      b.append(i > 0 ? ", " : "").append("{\"path\": ").append(JsonStrings.quote(s.path()))
          .append(", \"samples\": ").append(s.samples())
          .append(", \"bytes\": ").append(s.bytes()).append('}');
    }
    return b.append("]}\n").toString();
  }

  /** A bound as JSON: a number, null, or (an infinite Float bound, which JSON has no number for) a string. */
  private static String number(Number n) {
    if (n == null) {
      return "null";
    }
    if (n instanceof Double d && d.isInfinite()) {
      return JsonStrings.quote(d.toString());
    }
    return n.toString();
  }

  /**
   * The class names a recipe records ({@link DatasetFiles#CLASS_NAMES}, label 0's first), or null for another entry
   * or a value that is not a JSON list of strings. The manifest stores them as JSON text in a string: shown as it is,
   * that is a string holding JSON in {@code --json} and escaped non-ASCII letters in the text.
   */
  private static List<String> classNames(String key, String value) {
    if (!key.equals(DatasetFiles.CLASS_NAMES)) {
      return null;
    }
    try {
      return JsonText.stringList(value);
    } catch (IllegalArgumentException e) {
      return null; // shown as it is
    }
  }

  /** A compaction's record in a line: its list of replaced shards can run to thousands (--json has it whole). */
  private static String compaction(CompactionRecord c) {
    return Words.plural(c.replaced().size(), "shard") + " replaced at " + Instant.ofEpochMilli(
        c.publishedMillis()) + ", kept until " + Instant.ofEpochMilli(c.keepUntilMillis());
  }
}
