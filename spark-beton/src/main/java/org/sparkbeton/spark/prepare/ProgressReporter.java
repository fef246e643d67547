package org.sparkbeton.spark.prepare;

import java.io.PrintStream;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Shows a {@link ProgressModel} while the write runs. On a terminal, one live line redrawn in place ({@code \r})
 * twice a second; otherwise (a log, a pipe) a plain line every {@code intervalSeconds}. When the write ends, a last
 * line with the final counts (on a terminal it stays, followed by a line break), or, when it failed, nothing more (on
 * a terminal the live line is cleared, so that the error stands alone).
 */
final class ProgressReporter implements AutoCloseable {
  static final String PREFIX = "progress: ";
  private static final long TERMINAL_REFRESH_MILLIS = 500;

  private final ProgressModel model;
  private final PrintStream out;
  private final boolean terminal;
  private ScheduledExecutorService timer;
  private int lastLength;
  private boolean closed;

  /**
   * A display that prints when asked ({@link #show}, {@link #finish}); {@link #start} also prints on a timer.
   *
   * @param terminal true when {@code out} is a terminal
   */
  ProgressReporter(ProgressModel model, PrintStream out, boolean terminal) {
    this.model = model;
    this.out = out;
    this.terminal = terminal;
  }

  /**
   * A display printing on its own: twice a second on a terminal, else every {@code intervalSeconds} (0: only the
   * final line).
   */
  static ProgressReporter start(ProgressModel model, PrintStream out, boolean terminal, double intervalSeconds) {
    ProgressReporter reporter = new ProgressReporter(model, out, terminal);
    long period = terminal ? TERMINAL_REFRESH_MILLIS : Math.round(intervalSeconds * 1000);
    if (period > 0) {
      reporter.timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "beton-prepare-progress");
        t.setDaemon(true);
        return t;
      });
      reporter.timer.scheduleAtFixedRate(reporter::show, period, period, TimeUnit.MILLISECONDS);
    }
    return reporter;
  }

  /** Prints the current line. */
  synchronized void show() {
    if (closed) {
      return;
    }
    print(ProgressLine.format(model.snapshot()));
  }

  private void print(String line) {
    if (terminal) {
      String text = PREFIX + line;
      out.print("\r" + text + " ".repeat(Math.max(0, lastLength - text.length())));
      lastLength = text.length();
    } else {
      out.println(PREFIX + line);
    }
    out.flush();
  }

  /** Stops the display: a last line when the write succeeded; on a terminal, the live line cleared otherwise. */
  synchronized void finish(boolean succeeded) {
    if (closed) {
      return;
    }
    stopTimer();
    if (succeeded) {
      print(ProgressLine.format(model.snapshot()));
      if (terminal) {
        out.println();
      }
    } else if (terminal && lastLength > 0) {
      out.print("\r" + " ".repeat(lastLength) + "\r");
      out.flush();
    }
    closed = true;
  }

  private void stopTimer() {
    if (timer != null) {
      timer.shutdownNow();
    }
  }

  @Override
  public void close() {
    finish(false);
  }
}
