package org.sparkbeton.loader.pipeline;

/** What a {@link BatchOperation} knows about the batch it processes. */
public final class BatchContext {
  private final long seed;
  private final int epoch;
  private final int batch;
  private final int size;
  private final int[] order;
  private final int first;

  public BatchContext(long seed, int epoch, int batch, int size, int[] order, int first) {
    this.seed = seed;
    this.epoch = epoch;
    this.batch = batch;
    this.size = size;
    this.order = order;
    this.first = first;
  }

  public int epoch() {
    return epoch;
  }

  /** Position of the batch in its epoch. */
  public int batch() {
    return batch;
  }

  /** Rows in this batch. */
  public int size() {
    return size;
  }

  /** Dataset index of row {@code i}. */
  public int sample(int i) {
    return order[first + i];
  }

  /**
   * A generator for (seed, epoch, the batch's last sample index, {@code stream}) — FFCV seeds its mixup
   * operations with the batch's last sample index, so two operations using the same stream (image and
   * label mixup) draw the same numbers.
   */
  public SampleRandom random(long stream) {
    SampleRandom r = new SampleRandom();
    r.reset(seed, epoch, sample(size - 1), stream);
    return r;
  }
}
