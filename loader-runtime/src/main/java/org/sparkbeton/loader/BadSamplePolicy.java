package org.sparkbeton.loader;

/**
 * What the loader does with a bad sample: one whose stored data its decoder cannot turn into the planned output
 * (an undecodable or truncated JPEG, a data page that fails its checksum, metadata claiming an absurd image size,
 * a JPEG whose frame disagrees with its metadata). Failures of operations after the decoder, and of the loader
 * itself (I/O errors; a damaged header or metadata, which fail {@code build()}; a damaged allocation table, read
 * before the first batch that needs its shard is decoded), are never bad samples: they always fail the epoch. Either way {@link Loader#badSamples()} reports every bad sample.
 */
public enum BadSamplePolicy {
  /** The default: the epoch fails with the sample, its batch and the reason (as FFCV and DALI do). */
  FAIL,

  /**
   * The sample is left out: its batch is filled from the next samples of the epoch's order, and every later
   * sample moves up a place, so the epoch ends earlier (with {@code dropLast}, possibly one batch shorter than
   * {@link Loader#length()}). Each is logged with its index and shard. A sample found bad is left out of every
   * later epoch of the loader without being read again. Batches already prepared past the bad one are prepared
   * again; batches handed out are never changed. Not for distributed loading: ranks would get different numbers
   * of batches ({@code build()} refuses it; use {@link #REPLACE}).
   */
  SKIP,

  /**
   * The sample's row holds another sample of the same batch instead: the first good one after it in the batch
   * (wrapping around), so batch shapes and the number of samples per epoch stay fixed, and the substitute does not
   * depend on thread count or timing. {@link Batch#sample(int)} names the substitute. A batch whose samples are
   * all bad fails the epoch.
   */
  REPLACE
}
