package org.sparkbeton.loader;

import java.util.ArrayList;
import java.util.List;

/**
 * The slots of the two batches a consumer may still be reading: the latest batch handed out and the one before
 * it, which {@link Batch} promises stay valid until the consumer asks for the batch after them. Both are held in
 * the slot ring ({@link org.sparkbeton.loader.memory.SlotRing#hold}) on the consumer's behalf, so that a loader
 * closed from another thread (a shutdown hook, a watchdog, a framework's teardown) does not free memory the
 * consumer is reading through a buffer from {@link Batch#data}: before these holds that read touched freed
 * memory. The workers never need these slots while they are held (a slot comes back for the batch
 * {@code batchesAhead + 2} after its own), so the holds change nothing while the loader runs.
 *
 * <p>The holds end when the consumer asks for a later batch, when its loop ends ({@code hasNext()} false or an
 * exception from the epoch), when it retains the batch itself ({@link Batch#retain()}), when a new epoch starts,
 * when the consumer's own thread closes the loader (or that thread has ended), and when the cleaner closes a
 * loader dropped unclosed. A loader closed by another thread while the consumer's thread lives keeps them until
 * that thread next calls the epoch's iterator.
 */
final class HandedBatches {
  private Batch.Hold before;
  private Batch.Hold latest;
  private Thread consumer;

  /** The consumer asks for the next batch: the one before its latest may be recycled now. */
  void beforeNext() {
    Batch.Hold done;
    synchronized (this) {
      consumer = Thread.currentThread();
      done = before;
      before = null;
    }
    if (done != null) {
      done.close();
    }
  }

  /** {@code batch} was handed out: held until two more are asked for (see the class comment). */
  void handed(Batch batch) {
    Batch.Hold hold = batch.holdForConsumer();
    Batch.Hold done;
    synchronized (this) {
      done = before;
      before = latest;
      latest = hold;
    }
    if (done != null) {
      done.close();
    }
  }

  /**
   * The consumer retained a batch ({@link Batch#retain()}): its own hold keeps the slot from now on, so the one
   * taken here for that batch goes back, and a consumer that retains each batch (loader-djl) leaves nothing held
   * here when it closes the loader from another thread.
   */
  void retained(Batch.Hold explicit) {
    Batch.Hold done = null;
    synchronized (this) {
      if (before != null && before.sameBatch(explicit)) {
        done = before;
        before = null;
      } else if (latest != null && latest.sameBatch(explicit)) {
        done = latest;
        latest = null;
      }
    }
    if (done != null) {
      done.close();
    }
  }

  /** Gives both slots back. */
  void releaseAll() {
    List<Batch.Hold> done = new ArrayList<>(2);
    synchronized (this) {
      if (before != null) {
        done.add(before);
      }
      if (latest != null) {
        done.add(latest);
      }
      before = null;
      latest = null;
    }
    done.forEach(Batch.Hold::close);
  }

  /**
   * The loader was closed by {@code closer} (null: the cleaner, for a loader no one can reach): gives the slots
   * back unless the consumer's thread is another one that still runs and may be reading them.
   */
  void loaderClosedBy(Thread closer) {
    Thread reader;
    synchronized (this) {
      reader = consumer;
    }
    if (closer == null || reader == null || reader == closer || !reader.isAlive()) {
      releaseAll();
    }
  }

  /** Slots held for the consumer now (0, 1 or 2). */
  synchronized int held() {
    return (before == null ? 0 : 1) + (latest == null ? 0 : 1);
  }
}
