package org.sparkbeton.loader.djl;

import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.training.dataset.Batch;
import ai.djl.translate.Batchifier;
import java.util.AbstractList;
import java.util.List;

/**
 * A DJL {@link Batch} whose data and label NDArrays wrap one of the loader's batch slots without a copy. The slot
 * is the batch's until {@link #close()} (DJL's {@code EasyTrain} closes each batch after its step); closing
 * releases it to the loader and closes every NDArray that wraps it, so a closed batch's arrays throw when used.
 * Unlike DJL's own batch, closing twice is harmless.
 */
public final class LoaderBatch extends Batch {
  private final int epoch;
  private final int index;
  private boolean closed;

  LoaderBatch(NDManager manager, NDList data, NDList labels, int size, long progress, long progressTotal,
              int[] samples, int epoch, int index) {
    super(manager, data, labels, size, Batchifier.STACK, Batchifier.STACK, progress, progressTotal,
        sampleList(samples));
    this.epoch = epoch;
    this.index = index;
  }

  /** The loader's epoch this batch belongs to. */
  public int epoch() {
    return epoch;
  }

  /** The batch's position in its epoch. */
  public int index() {
    return index;
  }

  /** Whether the batch has been closed (its slot returned to the loader). */
  public synchronized boolean isClosed() {
    return closed;
  }

  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    super.close();
  }

  /** The dataset indices of the rows, as {@link #getIndices()} gives them. */
  private static List<Integer> sampleList(int[] samples) {
    return new AbstractList<>() {
      @Override
      public Integer get(int i) {
        return samples[i];
      }

      @Override
      public int size() {
        return samples.length;
      }
    };
  }
}
