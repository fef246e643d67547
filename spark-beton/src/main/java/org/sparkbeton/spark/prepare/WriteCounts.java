package org.sparkbeton.spark.prepare;

/**
 * What write tasks have done: rows written as samples, rows left out (skipped, of which some quarantined; all the
 * bad images among them), shards and their bytes. One task's, or a sum.
 */
public record WriteCounts(long written, long skipped, long quarantined, long badImages, long shards, long bytes) {
  static final WriteCounts ZERO = new WriteCounts(0, 0, 0, 0, 0, 0);

  WriteCounts plus(WriteCounts o) {
    return new WriteCounts(written + o.written, skipped + o.skipped, quarantined + o.quarantined,
        badImages + o.badImages, shards + o.shards, bytes + o.bytes);
  }

  /** Rows the tasks are done with: written or left out. */
  public long processed() {
    return written + skipped;
  }

  /** Rows left out without a quarantine record. */
  public long skippedOnly() {
    return skipped - quarantined;
  }
}
