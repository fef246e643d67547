package org.sparkbeton.loader;

/**
 * Where a loader stands: the epoch and the batch the next {@code next()} returns, and a fingerprint of that epoch's
 * order. Save all three with a checkpoint and pass the state to {@link LoaderBuilder#resumeFrom}: a loader built
 * with the same options over the same samples then yields exactly the batches that were still to come, bit for bit,
 * because an epoch's order and every augmentation depend only on (seed, epoch, sample). Where the epoch's order is
 * not the one the state was saved with (the dataset was appended to or compacted into other shards that the order
 * follows, another seed, order, set of indices or batch size), resuming mid-epoch would repeat some of its samples and skip
 * others, so the resumed loader refuses to start that epoch and says how to go on.
 *
 * @param order a 64-bit hash of this rank's order of samples for {@code epoch} ({@link #orderHash}), or
 *     {@link #UNKNOWN_ORDER}: at an epoch's first batch (the whole epoch runs, whatever its order), or in a state
 *     made from epoch and batch alone, which is not checked
 */
public record LoaderState(int epoch, int batch, long order) {
  /** No fingerprint: the resumed epoch's order is not checked. */
  public static final long UNKNOWN_ORDER = 0;

  public LoaderState {
    if (epoch < 0 || batch < 0) {
      throw new IllegalArgumentException("Loader state needs epoch >= 0 and batch >= 0, got epoch " + epoch
          + ", batch " + batch);
    }
  }

  /** A state without the order's fingerprint (not checked when resumed). */
  public LoaderState(int epoch, int batch) {
    this(epoch, batch, UNKNOWN_ORDER);
  }

  /**
   * The fingerprint of an epoch's order cut into batches of {@code batchSize}: a 64-bit hash of its sample indices in
   * order and the batch size (a batch number means other samples at another batch size), never
   * {@link #UNKNOWN_ORDER}.
   */
  static long orderHash(int[] order, int batchSize) {
    long h = mix(0x9E3779B97F4A7C15L ^ order.length) + batchSize;
    for (int sample : order) {
      h = mix(h + sample);
    }
    return h == UNKNOWN_ORDER ? 1 : h;
  }

  /** SplitMix64's finaliser: every input bit reaches every output bit. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
