package org.sparkbeton.spark.prepare;

import java.util.Locale;
import org.sparkbeton.format.Counts;

/**
 * The text of a progress line: {@code 4,200/10,000 images (42%), 412 images/s, ETA 0:14, 1 bad}. The rate is the
 * average since the write began; the ETA is the images left at that rate ({@code --} until there is one).
 */
final class ProgressLine {
  private ProgressLine() {}

  static String format(ProgressModel.Snapshot s) {
    long done = s.done().processed();
    int percent = s.total() > 0 ? (int) Math.min(100, done * 100 / s.total()) : 100;
    return String.format(Locale.ROOT, "%,d/%,d images (%d%%), %s, ETA %s, %,d bad", done, s.total(), percent,
        Counts.perSecond(s.rate(), "image"), duration(s.secondsLeft()), s.done().badImages());
  }

  /** {@code 0:07}, {@code 12:05}, {@code 1:02:03}; {@code --} for a negative (unknown) time. */
  static String duration(double seconds) {
    if (seconds < 0) {
      return "--";
    }
    long s = Math.round(Math.ceil(seconds));
    return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
        : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
  }
}
