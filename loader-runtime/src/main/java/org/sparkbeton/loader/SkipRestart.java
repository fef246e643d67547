package org.sparkbeton.loader;

/**
 * Signals {@link Epoch} that the batch the consumer asked for holds a sample to skip ({@link BadSamplePolicy#SKIP}):
 * {@link EpochRun} has handed out the batches before it, and the epoch starts a new run from there without the sample.
 */
final class SkipRestart extends RuntimeException {
  private static final long serialVersionUID = 1L;

  SkipRestart() {
    super(null, null, false, false);
  }
}
