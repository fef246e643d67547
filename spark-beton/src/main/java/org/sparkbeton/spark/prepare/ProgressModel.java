package org.sparkbeton.spark.prepare;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The progress of one write, from its tasks' counts: the latest of each running task attempt (they arrive with
 * executor heartbeats, and only grow), plus the final counts of every attempt that succeeded. A failed attempt's
 * rows are dropped, since another attempt does them again. Thread-safe: events arrive on Spark's listener thread,
 * snapshots are taken by the display.
 */
final class ProgressModel {
  private final long total;
  private final LongSupplier nanoClock;
  private final long startNanos;
  private final Map<Long, WriteCounts> running = new HashMap<>();
  /** Attempts that ended: a heartbeat taken before an attempt ended may be delivered after it */
  private final Set<Long> ended = new HashSet<>();
  private WriteCounts finished = WriteCounts.ZERO;
  private int succeededTasks;

  /** @param total the rows the write will go through (images listed) */
  ProgressModel(long total, LongSupplier nanoClock) {
    this.total = total;
    this.nanoClock = nanoClock;
    this.startNanos = nanoClock.getAsLong();
  }

  /** The latest counts of a running task attempt. Ignored once the attempt has ended. */
  synchronized void running(long taskId, WriteCounts counts) {
    if (!ended.contains(taskId)) {
      running.put(taskId, counts);
    }
  }

  /** A task attempt succeeded with these final counts. */
  synchronized void succeeded(long taskId, WriteCounts counts) {
    running.remove(taskId);
    ended.add(taskId);
    finished = finished.plus(counts);
    succeededTasks++;
  }

  /** A task attempt failed or was killed: its rows will be done by another attempt, or not at all. */
  synchronized void failed(long taskId) {
    running.remove(taskId);
    ended.add(taskId);
  }

  synchronized Snapshot snapshot() {
    WriteCounts done = finished;
    for (WriteCounts c : running.values()) {
      done = done.plus(c);
    }
    return new Snapshot(total, done, (nanoClock.getAsLong() - startNanos) / 1e9);
  }

  /** The final counts of the attempts that succeeded (the committed ones), and how many there were. */
  synchronized WriteCounts finished() {
    return finished;
  }

  synchronized int succeededTasks() {
    return succeededTasks;
  }

  /** Counts at a moment, {@code seconds} after the write began. */
  record Snapshot(long total, WriteCounts done, double seconds) {
    /** Rows per second since the write began; 0 before the first is done. */
    double rate() {
      return seconds > 0 ? done.processed() / seconds : 0;
    }

    /** Seconds left at {@link #rate}, or -1 when there is no rate yet. */
    double secondsLeft() {
      double rate = rate();
      return rate > 0 ? Math.max(0, total - done.processed()) / rate : -1;
    }
  }
}
