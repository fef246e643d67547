package org.sparkbeton.loader;

/**
 * Where a loader stands: the epoch and the batch the next {@code next()} returns. Save it with a
 * checkpoint and pass it to {@link LoaderBuilder#resumeFrom}; a loader built with the same options
 * then yields exactly the batches that were still to come, bit for bit, because an epoch's order and
 * every augmentation depend only on (seed, epoch, sample).
 */
public record LoaderState(int epoch, int batch) {
  public LoaderState {
    if (epoch < 0 || batch < 0) {
      throw new IllegalArgumentException("Loader state needs epoch >= 0 and batch >= 0, got epoch " + epoch
          + ", batch " + batch);
    }
  }
}
