package org.sparkbeton.loader;

/**
 * Where an epoch's time went, in nanoseconds summed over threads.
 *
 * @param consumerWait the consumer waiting in {@code next()} for a batch (the loader is the bottleneck)
 * @param producerWait workers waiting for a free slot (the consumer is the bottleneck)
 * @param cacheWait workers waiting for PROCESS-cache pages to be read, or for a remote dataset's shards to be
 *     staged (0 in cache mode OS on local files)
 * @param busy workers producing batches (decode + augment + bookkeeping)
 * @param decode decoders, including reading payload bytes (page faults in cache mode OS); -1 unless
 *     {@link LoaderBuilder#profile(boolean) profiling}
 * @param augment operations and the copy into the slot; -1 unless profiling
 * @param batches batches handed to the consumer
 */
public record LoaderTimings(long consumerWait, long producerWait, long cacheWait, long busy, long decode, long augment,
                            int batches) {
  /** Both spans together (decode and augment stay -1 unless both were profiled). */
  public LoaderTimings plus(LoaderTimings o) {
    return new LoaderTimings(consumerWait + o.consumerWait, producerWait + o.producerWait, cacheWait + o.cacheWait,
        busy + o.busy, decode < 0 || o.decode < 0 ? -1 : decode + o.decode,
        augment < 0 || o.augment < 0 ? -1 : augment + o.augment, batches + o.batches);
  }

  /** What was added since {@code earlier}, a snapshot of the same running total. */
  public LoaderTimings minus(LoaderTimings earlier) {
    return new LoaderTimings(consumerWait - earlier.consumerWait, producerWait - earlier.producerWait,
        cacheWait - earlier.cacheWait, busy - earlier.busy,
        decode < 0 || earlier.decode < 0 ? -1 : decode - earlier.decode,
        augment < 0 || earlier.augment < 0 ? -1 : augment - earlier.augment, batches - earlier.batches);
  }

  @Override
  public String toString() {
    return String.format(java.util.Locale.ROOT,
        "%d batches: consumer waited %.1f ms; workers busy %.1f ms (decode %s, augment %s), waited %.1f ms for the"
            + " consumer and %.1f ms for pages or shards",
        batches, consumerWait / 1e6, busy / 1e6, ms(decode), ms(augment), producerWait / 1e6, cacheWait / 1e6);
  }

  private static String ms(long nanos) {
    return nanos < 0 ? "not profiled" : String.format(java.util.Locale.ROOT, "%.1f ms", nanos / 1e6);
  }
}
