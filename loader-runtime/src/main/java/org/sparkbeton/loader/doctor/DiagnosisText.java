package org.sparkbeton.loader.doctor;

import java.util.Locale;
import org.sparkbeton.format.Counts;
import org.sparkbeton.loader.doctor.Diagnosis.Change;
import org.sparkbeton.loader.doctor.Diagnosis.Measured;
import org.sparkbeton.loader.doctor.Diagnosis.Setup;

/** {@code beton doctor}'s report for people: the setup, what was measured, the diagnosis, the changes. */
public final class DiagnosisText {
  private DiagnosisText() {}

  public static String of(Diagnosis d) {
    StringBuilder b = new StringBuilder();
    Setup s = d.setup();
    DatasetFacts f = s.dataset();
    b.append("beton doctor: ").append(f.name()).append(" (").append(Counts.of(f.files().size(), "file"))
        .append(" of ").append(Units.bytes(f.fileBytes())).append(", ").append(Counts.of(f.samples(), "sample"))
        .append(", ").append(Counts.of(f.pages(), "page")).append(" of ").append(Units.bytes(f.pageSize())).append(" on ")
        .append(f.fileSystem()).append(")\n");
    line(b, "images", "field '" + f.imageField() + "': " + Units.percent(f.jpegFraction()) + " JPEG, "
        + Units.bytes(Math.round(f.meanPayload())) + " on average, longer side " + f.medianSide() + " px (median), "
        + f.maxSide() + " at most");
    line(b, "pipeline", s.pipeline().flag() + ": " + s.pipeline().description() + "; batch " + s.batch() + ", "
        + s.threads() + " thread" + (s.threads() == 1 ? "" : "s") + ", order " + s.order().toLowerCase(Locale.ROOT)
        + ", cache " + s.cache() + (s.readThrough() ? ", read through the loader's source" : ""));
    line(b, "machine", Counts.of(s.cores(), "core") + ", load average " + (s.loadAverage() < 0 ? "unknown"
        : String.format(Locale.ROOT, "%.2f", s.loadAverage())) + "; codec " + s.codec());
    line(b, "consumer", s.consumer() == null ? "none given (--consumer-ms or --consumer-rate): the loader alone"
        : s.consumer().flag() + " at batch " + s.batch() + " = " + Units.rate(s.consumer().rate(s.batch())));

    Measured m = d.measured();
    b.append('\n').append(String.format(Locale.ROOT, "measured in %.1f s%n", m.seconds()));
    Diagnosis.Storage st = m.storage();
    Diagnosis.Remote r = m.remote();
    if (r != null) {
      line(b, "  storage", Units.bandwidth(r.bytesPerSecond()) + " with " + RemoteModel.downloads(r.downloads())
          + " at once, " + Units.bandwidth(r.moreBytesPerSecond()) + " with " + r.moreDownloads() + " ("
          + Units.rate(r.stagingPerSecond()) + " at " + Units.bytes(Math.round(RemoteModel.bytesPerSample(f, r)))
          + " of shard per sample); " + st.method());
      line(b, "  cache", Units.bytes(r.budget()) + " in " + r.cacheDir() + " for the dataset's "
          + Units.bytes(r.datasetBytes()) + (r.usableBytes() < 0 ? "" : " (" + Units.bytes(r.usableBytes())
              + " usable)"));
    } else {
      line(b, "  storage", "whole pages " + Units.bandwidth(st.pageBytesPerSecond()) + " ("
        + Units.number(st.pagesPerSecond()) + " pages/s), single images at random " + Units.rate(st.payloadsPerSecond())
        + " (" + Units.bandwidth(st.payloadBytesPerSecond()) + ") on " + s.threads() + " thread"
        + (s.threads() == 1 ? "" : "s") + "; " + st.method());
    }
    line(b, "  reads", m.reads().description());
    Diagnosis.PerThread p = m.perThread();
    line(b, "  per thread", "decode " + Units.rate(p.decodePerSecond()) + ", augmentation "
        + Units.rate(p.augmentPerSecond()) + "; one thread delivers " + Units.rate(p.perSecond()) + " ("
        + Counts.of(p.samples(), "sample") + " in memory)");
    line(b, "  pipeline", Units.rate(m.pipelinePerSecond()) + " at " + s.threads() + " thread"
        + (s.threads() == 1 ? "" : "s") + " (the samples in memory)");
    if (s.consumer() != null) {
      line(b, "  consumer", Units.rate(m.consumerPerSecond()));
    }
    Diagnosis.EndToEnd e = m.endToEnd();
    line(b, "  end to end", Units.rate(e.perSecond()) + " over " + String.format(Locale.ROOT, "%.1f", e.seconds())
        + " s on the dataset (predicted " + Units.rate(m.predictedPerSecond()) + ")"
        + (s.consumer() == null ? "" : "; the training step waited " + Units.percent(e.waitedFraction())
            + " of the time for data")
        + (e.pageReadsPerSample() >= 0 ? "; " + Units.number(e.pageReadsPerSample()) + " page reads per sample" : "")
        + (r != null && r.endToEnd() != null ? "; staging " + staged(r.endToEnd()) : ""));

    b.append("\ndiagnosis\n  ").append(d.bound().summary()).append('\n');
    b.append("\nchanges, by predicted gain\n");
    if (d.changes().isEmpty()) {
      b.append("  none: no change measured or computed here would make training faster\n");
    }
    int i = 1;
    for (Change c : d.changes()) {
      b.append(String.format(Locale.ROOT, "  %d. %s: %s, to %s%n", i++, c.what(), Units.times(c.gain()),
          Units.rate(c.predictedPerSecond())));
      b.append("     ").append(c.how()).append('\n');
      b.append("     ").append(c.evidence()).append('\n');
    }
    if (!d.notWorthChanging().isEmpty()) {
      b.append("\nnot worth changing\n");
      for (String n : d.notWorthChanging()) {
        b.append("  - ").append(n).append('\n');
      }
    }
    return b.toString();
  }

  /** "3 shards downloaded (12 MB, 140 MB/s), 2 stagings served by the cache" (a shard already there, each epoch). */
  static String staged(Diagnosis.Staged s) {
    return RemoteModel.downloads(s.downloaded()).replace("download", "shard") + " downloaded ("
        + Units.bytes(s.fetchedBytes()) + (s.downloaded() > 0 && s.bytesPerSecond() > 0 ? ", "
            + Units.bandwidth(s.bytesPerSecond()) : "") + "), " + s.cached() + " staging" + (s.cached() == 1 ? "" : "s") + " served by the cache"
        + (s.retries() > 0 ? ", " + s.retries() + " reads retried" : "");
  }

  private static void line(StringBuilder b, String key, String value) {
    b.append(String.format(Locale.ROOT, "%-13s %s%n", key, value));
  }
}
