package org.sparkbeton.spark.prepare;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The progress arithmetic, fed events by hand with a clock the test moves. */
class ProgressModelTest {
  final AtomicLong now = new AtomicLong(1_000_000_000L);
  final ProgressModel model = new ProgressModel(1000, now::get);

  static WriteCounts rows(long written, long skipped) {
    return new WriteCounts(written, skipped, 0, skipped, 0, 0);
  }

  void advance(double seconds) {
    now.addAndGet((long) (seconds * 1e9));
  }

  @Test
  void runningTasksCountTheirLatestValuesAndFinishedTasksTheirFinalOnes() {
    model.running(1, rows(100, 0));
    model.running(2, rows(50, 1));
    model.running(1, rows(180, 2)); // a later heartbeat of task 1 replaces its earlier one
    advance(2);
    ProgressModel.Snapshot s = model.snapshot();
    assertThat(s.done().processed()).isEqualTo(180 + 2 + 50 + 1);
    assertThat(s.done().badImages()).isEqualTo(3);
    assertThat(s.rate()).isEqualTo(233 / 2.0);
    assertThat(s.secondsLeft()).isEqualTo((1000 - 233) / (233 / 2.0));

    model.succeeded(1, new WriteCounts(497, 3, 1, 3, 1, 123_456));
    model.running(1, rows(180, 2)); // a heartbeat taken before the end, delivered after it: ignored
    ProgressModel.Snapshot after = model.snapshot();
    assertThat(after.done().processed()).isEqualTo(500 + 51);
    assertThat(model.finished()).isEqualTo(new WriteCounts(497, 3, 1, 3, 1, 123_456));
    assertThat(model.succeededTasks()).isEqualTo(1);
  }

  @Test
  void aFailedAttemptsRowsAreDroppedForTheRetryToRedo() {
    model.running(7, rows(300, 0));
    model.failed(7);
    model.running(8, rows(20, 0)); // the retry
    assertThat(model.snapshot().done().processed()).isEqualTo(20);
    assertThat(model.finished()).isEqualTo(WriteCounts.ZERO);
  }

  @Test
  void noRateBeforeTheFirstRow() {
    assertThat(model.snapshot().rate()).isZero();
    advance(3);
    assertThat(model.snapshot().rate()).isZero();
    assertThat(model.snapshot().secondsLeft()).isEqualTo(-1);
  }

  @Test
  void countsAddUp() {
    WriteCounts a = new WriteCounts(10, 3, 2, 3, 1, 1000);
    WriteCounts b = new WriteCounts(5, 1, 0, 1, 2, 500);
    assertThat(a.plus(b)).isEqualTo(new WriteCounts(15, 4, 2, 4, 3, 1500));
    assertThat(a.processed()).isEqualTo(13);
    assertThat(a.skippedOnly()).isEqualTo(1);
  }
}
