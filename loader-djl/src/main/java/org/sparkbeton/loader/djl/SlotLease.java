package org.sparkbeton.loader.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import java.util.List;
import java.util.function.Consumer;
import org.sparkbeton.loader.Batch;

/**
 * What ties a DJL batch to the loader slot its NDArrays wrap: attached to the batch's NDManager, so closing the
 * batch closes it. Closing first closes every NDArray that wraps the slot, including one the user detached from
 * the batch (using it then throws DJL's "released" error instead of reading a recycled slot), then gives the slot
 * back to the loader. Idempotent. The loader's own close leaves a held slot alone (a step on another thread may be
 * reading it): its memory is freed when this lease gives it back.
 */
final class SlotLease implements AutoCloseable {
  private final Batch.Hold hold;
  private final NDManager batchManager;
  private final List<NDArray> views;
  private final Consumer<SlotLease> onClose;
  private boolean closed;

  SlotLease(Batch.Hold hold, NDManager batchManager, List<NDArray> views, Consumer<SlotLease> onClose) {
    this.hold = hold;
    this.batchManager = batchManager;
    this.views = List.copyOf(views);
    this.onClose = onClose;
  }

  /**
   * Closes the whole DJL batch, as its own close does: its manager, so every array attached to it (views made
   * from the batch's arrays by {@code get}, {@code reshape}...) is closed too, and with it this lease.
   */
  void closeBatch() {
    try {
      batchManager.close();
    } finally {
      close();
    }
  }

  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    try {
      for (NDArray view : views) {
        if (!view.isReleased()) {
          view.close();
        }
      }
    } finally {
      hold.close();
      onClose.accept(this);
    }
  }
}
