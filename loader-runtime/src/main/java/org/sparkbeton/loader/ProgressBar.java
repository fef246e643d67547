package org.sparkbeton.loader;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A one-line progress display for interactive use, redrawn in place ({@code \r}) at most every
 * {@code intervalMillis} and once more, ending the line, when the epoch's last batch is handed out:
 * <pre>epoch 3 [############--------]  300/500 batches  1,234 img/s  ETA 0:12  training waits 35%</pre>
 * "training waits" is the share of the epoch's time the consuming thread spent waiting for batches: near
 * 0% the loader keeps up (the model is the bottleneck), high means the training is data-bound. Called
 * from the consuming thread only.
 */
final class ProgressBar {
  private static final int WIDTH = 20;

  private final PrintStream out;
  private final long intervalNanos;
  private long lastDraw;

  ProgressBar(PrintStream out, long intervalMillis) {
    this.out = out;
    this.intervalNanos = intervalMillis * 1_000_000;
  }

  /**
   * @param handed batches handed out so far this epoch (of this run, after a resume)
   * @param total batches this run of the epoch hands out
   * @param samples samples handed out so far
   * @param startNanos when the epoch's run started
   * @param waitNanos time the consumer spent waiting for batches
   */
  void update(int epoch, int handed, int total, long samples, long startNanos, long waitNanos) {
    long now = System.nanoTime();
    boolean last = handed >= total;
    if (!last && now - lastDraw < intervalNanos) {
      return;
    }
    lastDraw = now;
    double seconds = Math.max(1e-9, (now - startNanos) / 1e9);
    double rate = samples / seconds;
    int filled = total == 0 ? WIDTH : (int) ((long) WIDTH * handed / total);
    StringBuilder line = new StringBuilder(96).append('\r').append("epoch ").append(epoch).append(" [")
        .append("#".repeat(filled)).append("-".repeat(WIDTH - filled)).append("] ")
        .append(String.format(Locale.ROOT, "%" + digits(total) + "d/%d batches  %,.0f img/s  ", handed, total, rate));
    if (last) {
      line.append(String.format(Locale.ROOT, "%.1f s", seconds));
    } else {
      long eta = handed == 0 ? 0 : Math.round(seconds * (total - handed) / handed);
      line.append(String.format(Locale.ROOT, "ETA %d:%02d", eta / 60, eta % 60));
    }
    line.append(String.format(Locale.ROOT, "  training waits %.0f%%", 100.0 * waitNanos / 1e9 / seconds));
    out.print(line);
    if (last) {
      out.println();
    }
    out.flush();
  }

  private static int digits(int n) {
    return Integer.toString(Math.max(1, n)).length();
  }
}
