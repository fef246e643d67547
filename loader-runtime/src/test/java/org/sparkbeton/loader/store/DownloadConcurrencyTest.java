package org.sparkbeton.loader.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DownloadConcurrencyTest {
  @Test
  void startsWithOneDownload() {
    assertThat(new DownloadConcurrency(4).limit()).isEqualTo(1);
  }

  @Test
  void keepsOneDownloadWhileNoWorkerWaits() {
    DownloadConcurrency c = new DownloadConcurrency(4);
    for (int i = 0; i < 10; i++) {
      c.downloaded();
    }
    assertThat(c.limit()).isEqualTo(1);
  }

  @Test
  void growsByOnePerFinishedDownloadWhileWorkersWait() {
    DownloadConcurrency c = new DownloadConcurrency(4);
    c.workerWaiting(1);
    assertThat(c.limit()).as("a worker waits while the one allowed download runs").isEqualTo(2);
    c.workerWaiting(2);
    c.workerWaiting(2);
    assertThat(c.limit()).as("more waits before a download finishes are the same shortage").isEqualTo(2);
    c.downloaded();
    c.workerWaiting(2);
    assertThat(c.limit()).as("still waiting after a download finished").isEqualTo(3);
    c.downloaded();
    c.workerWaiting(3);
    c.downloaded();
    c.workerWaiting(4);
    assertThat(c.limit()).as("never above the configured maximum").isEqualTo(4);
  }

  @Test
  void doesNotGrowWhenTheWaitIsNotForLackOfDownloads() {
    DownloadConcurrency c = new DownloadConcurrency(4);
    c.workerWaiting(0); // nothing in flight: the budget (or the epoch's start), not the limit, holds shards back
    assertThat(c.limit()).isEqualTo(1);
  }

  @Test
  void shrinksByOneAfterCalmDownloadsInARow() {
    DownloadConcurrency c = grownTo(3); // its last download finished with a worker waiting
    c.downloaded();
    assertThat(c.limit()).as("one calm download").isEqualTo(3);
    c.downloaded();
    assertThat(c.limit()).as("two calm downloads in a row").isEqualTo(2);
    c.downloaded();
    c.workerWaiting(1); // fewer in flight than allowed: no growth, but the calm run restarts
    c.downloaded();
    c.downloaded();
    assertThat(c.limit()).as("a wait broke the calm run").isEqualTo(2);
    c.downloaded();
    assertThat(c.limit()).isEqualTo(1);
    c.downloaded();
    c.downloaded();
    assertThat(c.limit()).as("never below one").isEqualTo(1);
  }

  @Test
  void aMaximumOfOneNeverGrows() {
    DownloadConcurrency c = new DownloadConcurrency(1);
    c.workerWaiting(1);
    c.downloaded();
    c.workerWaiting(1);
    assertThat(c.limit()).isEqualTo(1);
  }

  @Test
  void refusesAMaximumBelowOne() {
    assertThatThrownBy(() -> new DownloadConcurrency(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Concurrent downloads must be at least 1, got 0");
  }

  private static DownloadConcurrency grownTo(int limit) {
    DownloadConcurrency c = new DownloadConcurrency(4);
    while (c.limit() < limit) {
      c.workerWaiting(c.limit());
      c.downloaded();
    }
    return c;
  }
}
