package org.sparkbeton.spark.prepare;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The progress line's text, and how it is shown on a terminal and in a log (no timer: lines are asked for). */
class ProgressLineTest {
  static ProgressModel.Snapshot snapshot(long total, long processed, long bad, double seconds) {
    return new ProgressModel.Snapshot(total, new WriteCounts(processed - bad, bad, 0, bad, 0, 0), seconds);
  }

  @Test
  void format() {
    assertThat(ProgressLine.format(snapshot(10_000, 4_200, 1, 10)))
        .isEqualTo("4,200/10,000 images (42%), 420 images/s, ETA 0:14, 1 bad");
    assertThat(ProgressLine.format(snapshot(10_000, 0, 0, 1.5)))
        .isEqualTo("0/10,000 images (0%), 0 images/s, ETA --, 0 bad");
    assertThat(ProgressLine.format(snapshot(1_281_167, 1_000, 0, 10)))
        .isEqualTo("1,000/1,281,167 images (0%), 100 images/s, ETA 3:33:22, 0 bad");
    assertThat(ProgressLine.format(snapshot(25, 25, 2, 5))).isEqualTo("25/25 images (100%), 5 images/s, ETA 0:00, 2 bad");
    // one image a second is singular
    assertThat(ProgressLine.format(snapshot(40, 10, 0, 10))).isEqualTo("10/40 images (25%), 1 image/s, ETA 0:30, 0 bad");
  }

  @Test
  void durations() {
    assertThat(ProgressLine.duration(-1)).isEqualTo("--");
    assertThat(ProgressLine.duration(0)).isEqualTo("0:00");
    assertThat(ProgressLine.duration(6.2)).isEqualTo("0:07");
    assertThat(ProgressLine.duration(725)).isEqualTo("12:05");
    assertThat(ProgressLine.duration(3723)).isEqualTo("1:02:03");
  }

  @Test
  void aTerminalGetsOneLineRedrawnInPlace() {
    AtomicLong now = new AtomicLong();
    ProgressModel model = new ProgressModel(100, now::get);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ProgressReporter reporter = new ProgressReporter(model, new PrintStream(bytes, true, StandardCharsets.UTF_8), true);
    now.set(2_000_000_000L);
    model.running(1, new WriteCounts(10, 0, 0, 0, 0, 0));
    reporter.show();
    model.succeeded(1, new WriteCounts(99, 1, 0, 1, 1, 10));
    reporter.finish(true);
    reporter.close();
    assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo(
        "\rprogress: 10/100 images (10%), 5 images/s, ETA 0:18, 0 bad"
            + "\rprogress: 100/100 images (100%), 50 images/s, ETA 0:00, 1 bad\n");
  }

  @Test
  void aFailedWriteClearsTheTerminalLine() {
    ProgressModel model = new ProgressModel(100, () -> 0L);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ProgressReporter reporter = new ProgressReporter(model, new PrintStream(bytes, true, StandardCharsets.UTF_8), true);
    reporter.show();
    reporter.close();
    String line = "progress: 0/100 images (0%), 0 images/s, ETA --, 0 bad";
    assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo("\r" + line + "\r" + " ".repeat(line.length()) + "\r");
  }

  @Test
  void aLogGetsPlainLinesAndTheLastOne() {
    AtomicLong now = new AtomicLong();
    ProgressModel model = new ProgressModel(40, now::get);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ProgressReporter reporter = new ProgressReporter(model, new PrintStream(bytes, true, StandardCharsets.UTF_8), false);
    now.set(4_000_000_000L);
    model.running(3, new WriteCounts(20, 0, 0, 0, 0, 0));
    reporter.show();
    model.succeeded(3, new WriteCounts(39, 1, 1, 1, 1, 10));
    reporter.finish(true);
    assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo(
        "progress: 20/40 images (50%), 5 images/s, ETA 0:04, 0 bad\n"
            + "progress: 40/40 images (100%), 10 images/s, ETA 0:00, 1 bad\n");
  }
}
