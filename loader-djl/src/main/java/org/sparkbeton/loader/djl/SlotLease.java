package org.sparkbeton.loader.djl;

import ai.djl.ndarray.NDArray;
import java.util.List;
import java.util.function.Consumer;
import org.sparkbeton.loader.Batch;

/**
 * What ties a DJL batch to the loader slot its NDArrays wrap: attached to the batch's NDManager, so closing the
 * batch closes it. Closing first closes every NDArray that wraps the slot, including one the user detached from
 * the batch (using it then throws DJL's "released" error instead of reading a recycled slot), then gives the slot
 * back to the loader. Idempotent. The loader closes it too, before freeing the slot, if it is still open then.
 */
final class SlotLease implements AutoCloseable {
  private final Batch.Hold hold;
  private final List<NDArray> views;
  private final Consumer<SlotLease> onClose;
  private boolean closed;

  SlotLease(Batch.Hold hold, List<NDArray> views, Consumer<SlotLease> onClose) {
    this.hold = hold;
    this.views = List.copyOf(views);
    this.onClose = onClose;
    // the loader closed first (try-with-resources around it, Loader.close() called directly): the arrays are
    // closed before the slot's memory is freed, so using them throws DJL's "released" error instead of crashing
    hold.whenLoaderCloses(this::close);
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
