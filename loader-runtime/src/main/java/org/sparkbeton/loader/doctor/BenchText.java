package org.sparkbeton.loader.doctor;

import java.util.Locale;
import org.sparkbeton.format.Counts;
import org.sparkbeton.loader.LoaderTimings;

/** {@code beton bench}'s table: epoch 1, epochs 2+ (median and range), per CPU-second, per-stage times, the codec. */
public final class BenchText {
  private BenchText() {}

  public static String of(BenchReport r) {
    StringBuilder b = new StringBuilder();
    DatasetFacts f = r.dataset();
    b.append("beton bench: ").append(f.name()).append(" (").append(Units.number(r.samples())).append(" of ")
        .append(Counts.of(f.samples(), "sample")).append(" per epoch, ").append(Units.percent(f.jpegFraction()))
        .append(" JPEG, longer side ").append(f.medianSide()).append(" px median)\n");
    b.append("pipeline ").append(r.pipeline().flag()).append(": ").append(r.pipeline().description())
        .append("; batch ").append(r.batch()).append(", ").append(r.threads()).append(" thread")
        .append(r.threads() == 1 ? "" : "s").append(", order ").append(r.order().toLowerCase(Locale.ROOT))
        .append(", cache ").append(r.cache()).append('\n');
    b.append("codec ").append(r.codec()).append("; ").append(Counts.of(r.cores(), "core")).append(", load average ")
        .append(r.loadAverage() < 0 ? "unknown" : String.format(Locale.ROOT, "%.2f", r.loadAverage())).append('\n');
    if (r.staging() != null) {
      b.append("staging ").append(r.staging()).append(": ").append(DiagnosisText.staged(r.staged())).append('\n');
    }
    b.append('\n');
    int last = r.epochs().size();
    String rest = last == 2 ? "epoch 2" : "epochs 2-" + last;
    b.append("|  | images/s | images per CPU-second |\n|---|---:|---:|\n");
    BenchReport.Epoch first = r.epochs().get(0);
    row(b, "epoch 1 (building the loader included)", Units.number(first.perSecond()),
        Units.number(first.perCpuSecond()));
    row(b, rest + ", median", Units.number(r.restMedian()), Units.number(r.restCpuMedian()));
    row(b, rest + ", range", Units.number(r.restMin()) + " - " + Units.number(r.restMax()), "");
    if (!r.limits().isEmpty()) {
      row(b, "decode limit: the bare codec on the same crops, " + rest + ", median", Units.number(r.limitMedian()),
          Units.number(r.limitCpuMedian()));
      double[] fraction = r.fractionOfLimit();
      row(b, "the loader / the decode limit, median of " + rest, String.format(Locale.ROOT, "%.2f", fraction[0]),
          String.format(Locale.ROOT, "%.2f", fraction[1]));
    } else if (r.limitNote() != null) {
      b.append("decode limit ").append(r.limitNote()).append('\n');
    }
    LoaderTimings t = r.restTimings();
    double images = r.restImages();
    long other = t.busy() - t.decode() - t.augment();
    b.append('\n').append("per image, ").append(rest).append(" (worker time): decode ")
        .append(Units.duration(t.decode() / images)).append(", augment ").append(Units.duration(t.augment() / images))
        .append(", other ").append(Units.duration(Math.max(0, other) / images)).append("; workers waited ")
        .append(Units.duration(t.cacheWait() / images)).append(" for pages and ")
        .append(Units.duration(t.producerWait() / images)).append(" for a free slot; the consumer waited ")
        .append(Units.percent(t.consumerWait() / (double) r.restWallNanos())).append(" of the time\n");
    return b.toString();
  }

  private static void row(StringBuilder b, String name, String wall, String cpu) {
    b.append("| ").append(name).append(" | ").append(wall).append(" | ").append(cpu).append(" |\n");
  }
}
