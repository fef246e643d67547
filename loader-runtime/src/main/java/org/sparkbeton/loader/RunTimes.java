package org.sparkbeton.loader;

/**
 * What an epoch run's consumer and workers spent their time on, summed over the run, for {@link LoaderTimings}.
 * Not thread-safe: the run updates it under its own lock.
 */
final class RunTimes {
  private long consumerWaitNanos;
  private long producerWaitNanos;
  private long cacheWaitNanos;
  private long busyNanos;
  private long decodeNanos;
  private long augmentNanos;

  void consumerWaited(long nanos) {
    consumerWaitNanos += nanos;
  }

  long consumerWaitNanos() {
    return consumerWaitNanos;
  }

  /**
   * A worker's times for its rows of one batch; {@code stages} (decode and augment nanoseconds, null unless the
   * loader profiles) is added and zeroed for the worker's next batch.
   */
  void workerDid(long producerWait, long cacheWait, long busy, long[] stages) {
    producerWaitNanos += producerWait;
    cacheWaitNanos += cacheWait;
    busyNanos += busy;
    if (stages != null) {
      decodeNanos += stages[0];
      augmentNanos += stages[1];
      stages[0] = 0;
      stages[1] = 0;
    }
  }

  /** The sums over {@code batches} batches; decode and augment are -1 unless {@code profiled}. */
  LoaderTimings timings(boolean profiled, int batches) {
    return new LoaderTimings(consumerWaitNanos, producerWaitNanos, cacheWaitNanos, busyNanos,
        profiled ? decodeNanos : -1, profiled ? augmentNanos : -1, batches);
  }
}
