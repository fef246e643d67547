package org.sparkbeton.loader;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import org.sparkbeton.loader.order.TraversalOrder;

/**
 * One epoch's order computed ahead on the common pool, while the loader is still being built: shuffling 1.28
 * million indices takes ~60 ms of a JVM that has just started, which the plan leaves a core for. An order is a
 * pure function of seed and epoch ({@link TraversalOrder}'s contract), so the array is the one computed when
 * asked. Taken once: each caller gets an array of its own.
 */
final class EarlyOrder {
  private final int epoch;
  private final AtomicReference<CompletableFuture<int[]>> order;

  private EarlyOrder(int epoch, CompletableFuture<int[]> order) {
    this.epoch = epoch;
    this.order = new AtomicReference<>(order);
  }

  /** Starts computing {@code order}'s global order of {@code epoch}. */
  static EarlyOrder start(TraversalOrder order, int epoch) {
    return new EarlyOrder(epoch, CompletableFuture.supplyAsync(() -> order.globalOrder(epoch)));
  }

  /** The order of {@code epoch} when it is the one computed ahead and not taken yet (waiting for it); else null. */
  int[] take(int epoch) {
    CompletableFuture<int[]> ahead = epoch == this.epoch ? order.getAndSet(null) : null;
    if (ahead == null) {
      return null;
    }
    try {
      return ahead.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw e;
    }
  }
}
