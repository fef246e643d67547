package org.sparkbeton.loader;

import java.util.Arrays;

/**
 * The failure of an epoch's run that comes first in the epoch's order (batch, then row), whatever the order the
 * workers met failures in, and how far each worker got: once every worker finished its rows of the batches up to
 * the failed one ({@link #settled()}), no failure earlier in the order can still come. Not thread-safe: its
 * {@link EpochRun} calls it under its own lock.
 */
final class FirstFailure {
  private LoaderFailedException failure;
  private int batch = Integer.MAX_VALUE;
  /** -1: outside the rows (reading allocation tables, a batch operation). */
  private int row;
  /** Per worker: the last batch whose rows it finished, or {@link Integer#MAX_VALUE} once it stopped. */
  private final int[] doneThrough;

  FirstFailure(int workers, int firstBatch) {
    doneThrough = new int[workers];
    Arrays.fill(doneThrough, firstBatch - 1);
  }

  /** Keeps {@code e}, met at {@code batch} and {@code row}, when it comes before the failure kept so far. */
  void met(LoaderFailedException e, int batch, int row) {
    if (failure == null || batch < this.batch || (batch == this.batch && row < this.row)) {
      failure = e;
      this.batch = batch;
      this.row = row;
    }
  }

  /** Worker {@code t} finished its rows of {@code batch} ({@link Integer#MAX_VALUE}: it stopped). */
  void finished(int t, int batch) {
    doneThrough[t] = batch;
  }

  /** The failed batch, {@link Integer#MAX_VALUE} while none failed. */
  int batch() {
    return batch;
  }

  LoaderFailedException failure() {
    return failure;
  }

  /** Whether every worker finished the batches up to the failed one (or stopped). */
  boolean settled() {
    for (int done : doneThrough) {
      if (done < batch) {
        return false;
      }
    }
    return true;
  }
}
