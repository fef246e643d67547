package org.sparkbeton.loader;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * One epoch as the consumer iterates it: an {@link EpochRun}, or under {@link BadSamplePolicy#SKIP} a run
 * restarted without the samples found bad. The epoch's order is the loader's order less the samples known to be
 * bad (left out unread); when a run meets a new bad sample it stops producing at that sample's batch, the consumer
 * takes the batches before it, and a new run continues from that batch over the order less the new bad samples:
 * positions already handed out never change, later samples move up. So the batches are the order without its bad
 * samples, cut into batches, whatever the thread count or timing.
 */
final class Epoch implements Iterator<Batch>, AutoCloseable {
  private final Loader loader;
  private final int epoch;
  private final boolean skip;
  private final int progressFirst;
  private int[] order;
  private EpochRun run;
  private LoaderTimings before;
  /** The slots of the batches the consumer may still read (the loader's one set: one epoch runs at a time). */
  private final HandedBatches handed;

  /** @param order this rank's whole order for the epoch, before truncation to whole batches */
  Epoch(Loader loader, int epoch, int[] order, int firstBatch) {
    this.loader = loader;
    this.epoch = epoch;
    this.skip = loader.badSamplePolicy() == BadSamplePolicy.SKIP;
    this.order = skip ? withoutKnownBad(order) : order;
    int batches = loader.batchesFor(this.order.length);
    this.progressFirst = Math.min(firstBatch, batches);
    this.handed = loader.core().handedBatches();
    this.run = new EpochRun(loader.core(), epoch, truncated(batches), batches, progressFirst);
  }

  /** The order less the samples an earlier epoch found bad, each counted as left out of this epoch. */
  private int[] withoutKnownBad(int[] full) {
    BadSamples bad = loader.badSamples();
    List<BadSamples.Event> left = new ArrayList<>();
    int[] out = new int[full.length];
    int n = 0;
    for (int i = 0; i < full.length; i++) {
      if (bad.isKnown(full[i])) {
        left.add(loader.badSampleEvent(epoch, -1, full[i], -1, "found bad in an earlier epoch; left out unread"));
      } else {
        out[n++] = full[i];
      }
    }
    bad.skippedAsKnown(left);
    return n == full.length ? full : Arrays.copyOf(out, n);
  }

  private int[] truncated(int batches) {
    return Arrays.copyOf(order, Math.min(order.length, batches * loader.batchSize()));
  }

  int epoch() {
    return epoch;
  }

  /** Whether a batch is left; the consumer's loop ends when not, so the slots held for it go back. */
  @Override
  public boolean hasNext() {
    try {
      boolean more = more();
      if (!more) {
        handed.releaseAll();
      }
      return more;
    } catch (RuntimeException e) {
      handed.releaseAll(); // closed or failed: the consumer's loop ends here
      throw e;
    }
  }

  private boolean more() {
    if (!skip) {
      return run.hasNext();
    }
    while (true) {
      try {
        return run.awaitNext();
      } catch (SkipRestart restart) {
        restart();
      }
    }
  }

  @Override
  public Batch next() {
    handed.beforeNext();
    try {
      while (true) {
        try {
          Batch batch = run.next().keptBy(loader);
          handed.handed(batch);
          return batch;
        } catch (SkipRestart restart) {
          restart();
        }
      }
    } catch (RuntimeException e) {
      handed.releaseAll();
      throw e;
    }
  }

  /** Continues from the batch the consumer asked for, over the order less every sample found bad so far. */
  private void restart() {
    int from = run.nextBatch();
    long started = run.startNanos();
    long handed = run.samplesHanded();
    LoaderTimings done = run.timings();
    before = before == null ? done : before.plus(done);
    run.close();
    BadSamples bad = loader.badSamples();
    int keep = from * loader.batchSize(); // handed out: never changes, holds no bad sample
    int[] next = new int[order.length];
    System.arraycopy(order, 0, next, 0, keep);
    int n = keep;
    for (int i = keep; i < order.length; i++) {
      if (!bad.isKnown(order[i])) {
        next[n++] = order[i];
      }
    }
    order = Arrays.copyOf(next, n);
    int batches = loader.batchesFor(n);
    run = new EpochRun(loader.core(), epoch, truncated(batches), batches, from, progressFirst, started, handed);
  }

  /** The batch {@link #next()} returns next. */
  int nextBatch() {
    return run.nextBatch();
  }

  LoaderTimings timings() {
    LoaderTimings now = run.timings();
    return before == null ? now : before.plus(now);
  }

  /** Stops the workers and gives back the slots held for the consumer (a new epoch starts: see Loader#iterator). */
  @Override
  public void close() {
    run.close();
    handed.releaseAll();
  }
}
