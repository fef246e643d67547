package org.sparkbeton.spark.prepare;

import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.SaveMode;
import org.sparkbeton.format.Counts;

/**
 * The summary {@code beton prepare} prints when it is done: what the listing left out of the class folders (files
 * that are not images by their extension, per extension; hidden names), every listed image accounted for (written,
 * skipped, quarantined, with where the quarantine list is), the shards and bytes, the time and rate, the codec that
 * ran, then the samples per class.
 */
final class PrepareSummary {
  private PrepareSummary() {}

  static String format(ImageFolderPrepare.Result r) {
    WriteCounts w = r.written();
    StringBuilder sb = new StringBuilder();
    line(sb, "dataset", r.output() + (r.appended() ? " (appended to)"
        : r.mode() == SaveMode.Append ? " (new dataset: --append found none there to add to)" : ""));
    line(sb, "images listed", count(r.listed()));
    line(sb, "left out", r.listing().leftOut().describe());
    line(sb, "samples written", count(w.written()) + (r.countsFinal() ? ""
        : " (Spark's events of the last tasks were late: counts may be short)"));
    line(sb, "rows skipped", count(w.skippedOnly()) + (w.skippedOnly() > 0 ? " (bad images, --bad-images skip)" : ""));
    line(sb, "rows quarantined", count(w.quarantined()) + (r.quarantine() == null ? "" : ", listed in " + r.quarantine()));
    line(sb, "shards", count(w.shards()) + ", " + megabytes(w.bytes()) + (r.shardsAsked() > r.listed()
        ? " (--shards " + count(r.shardsAsked()) + " is more than the images: at most one shard per image)" : ""));
    if (r.appended()) {
      line(sb, "dataset now", Counts.of(r.samples(), "sample") + " in " + Counts.of(r.shards(), "shard") + ", "
          + megabytes(r.bytes()));
    }
    line(sb, "time", String.format(Locale.ROOT, "%.1f s (the write %.1f s, %s)", r.seconds(), r.writeSeconds(),
        Counts.perSecond(r.writeSeconds() > 0 ? w.processed() / r.writeSeconds() : 0, "image")));
    line(sb, "codec", r.codec() == null ? "unknown" : r.codec());
    sb.append(String.format(Locale.ROOT, "%-6s %-24s %10s%n", "label", "class", "samples"));
    int label = 0;
    for (Map.Entry<String, Long> e : r.samplesPerClass().entrySet()) {
      sb.append(String.format(Locale.ROOT, "%-6d %-24s %,10d%n", label++, e.getKey(), e.getValue()));
    }
    return sb.toString();
  }

  private static void line(StringBuilder sb, String key, String value) {
    sb.append(String.format(Locale.ROOT, "%-17s %s%n", key, value));
  }

  private static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  private static String megabytes(long bytes) {
    return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
  }
}
