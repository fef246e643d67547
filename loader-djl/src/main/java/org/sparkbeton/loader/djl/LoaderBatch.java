package org.sparkbeton.loader.djl;

import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.training.dataset.Batch;
import ai.djl.translate.Batchifier;
import java.util.AbstractList;
import java.util.List;
import java.util.Map;

/**
 * A DJL {@link Batch} whose data and label NDArrays wrap one of the loader's batch slots without a copy. The slot
 * is the batch's until {@link #close()} (DJL's {@code EasyTrain} closes each batch after its step); closing
 * releases it to the loader and closes every NDArray that wraps it, so a closed batch's arrays throw when used.
 * Unlike DJL's own batch, closing twice is harmless.
 */
public final class LoaderBatch extends Batch {
  private final int epoch;
  private final int index;
  /** Each variable-size output's row lengths, copied from the slot when the batch was made. */
  private final Map<String, int[]> rowLengths;
  private boolean closed;

  LoaderBatch(NDManager manager, NDList data, NDList labels, int size, long progress, long progressTotal,
              int[] samples, int epoch, int index, Map<String, int[]> rowLengths) {
    super(manager, data, labels, size, Batchifier.STACK, Batchifier.STACK, progress, progressTotal,
        sampleList(samples));
    this.epoch = epoch;
    this.index = index;
    this.rowLengths = Map.copyOf(rowLengths);
  }

  /**
   * The valid bytes of each row of a variable-size output ({@code BytesDecoder}, a JSON field), whose array is
   * {@code (batch, max bytes)} with each row zero-padded past its value: row {@code i} is its first
   * {@code lengths(output)[i]} bytes. A copy; valid after the batch is closed too.
   *
   * @throws IllegalArgumentException for an output of this batch with a fixed size, or no such output
   */
  public int[] lengths(String output) {
    int[] lengths = rowLengths.get(output);
    if (lengths == null) {
      throw new IllegalArgumentException("Output '" + output + "' has no row lengths: "
          + (rowLengths.isEmpty() ? "no output of this batch has a variable size"
          : "the outputs with a variable size are " + String.join(", ", new java.util.TreeSet<>(rowLengths.keySet())))
          + "; a fixed-size output's rows are all its sample size");
    }
    return lengths.clone();
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
