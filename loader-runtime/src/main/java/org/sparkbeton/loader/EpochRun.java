package org.sparkbeton.loader;

import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.sparkbeton.loader.io.BatchStaging;
import org.sparkbeton.loader.memory.SlotRing;
import org.sparkbeton.loader.pipeline.PlannedPipeline;
import org.sparkbeton.loader.pipeline.SampleContext;

/**
 * One epoch in flight. {@code numThreads} workers each own a fixed share of every batch (thread t
 * takes rows {@code [t*n/T, (t+1)*n/T)}), so threads work on disjoint samples and a sample's result
 * does not depend on the thread count. A worker may start batch b only when {@code b <= h +
 * batchesAhead}, h being the batch last handed to the consumer: batch b reuses the slot of batch
 * {@code b - (batchesAhead + 2)}, which is then at most {@code h - 2}, so the batch the consumer holds
 * and the one before it are never overwritten. A slot the consumer holds ({@link Batch#retain()}) is not
 * recycled until released: its workers wait, woken by the ring's release callback. Locks are taken per
 * batch, never per sample.
 *
 * <p>A bad sample (a decoder's failure, see {@link BadSamplePolicy}) fails the run, or its row is filled from the
 * next good sample of its batch ({@code REPLACE}, recorded in {@link #rowSamples}), or the run stops producing at
 * its batch ({@code SKIP}): {@link #next()} then hands out the batches before it and throws {@link SkipRestart}
 * for it, and {@link Epoch} starts a new run from there without the sample. A worker's failure ends the run at its
 * batch the same way: the consumer takes the batches before it, then gets the failure as a {@link
 * LoaderFailedException} saying where it happened. That failure is the first in the epoch's order (batch, then row)
 * whatever the threads' timing: the workers finish every batch up to the failed one before it is thrown, and an
 * earlier failure found meanwhile takes its place, so runs of the same loader name the same sample.
 */
final class EpochRun implements Iterator<Batch>, AutoCloseable {
  /** Not the Loader: these workers must not keep it reachable (a loader dropped unclosed is cleaned, see LoaderCore). */
  private final LoaderCore core;
  private final int epoch;
  private final int[] order;
  private final int numBatches;
  private final SlotRing ring;
  private final List<PlannedPipeline> pipelines;
  private final int batchSize;
  private final int ahead;
  private final int numThreads;
  private final Thread[] threads;
  private final int[] slotBatch;
  private final int[] pending;
  private final long[] generation;
  private int handed = -1;
  private boolean cancelled;
  private final FirstFailure failure;
  private final RunTimes times = new RunTimes();
  private long samplesHanded;
  private final long startNanos;
  private final int progressFirst;

  private final int firstBatch;
  private final BadSamplePolicy policy;
  private final int[] rowSamples; // the sample in each row: order, but a REPLACE substitute where one was used
  private int skipFrom = Integer.MAX_VALUE; // the first batch holding a sample to skip
  private final BatchStaging cache;
  private final ByteBuffer[] scratch;
  private final SlotPlan plan;
  private final int[] readyBatch;
  private final boolean hasTails;

  EpochRun(LoaderCore core, int epoch, int[] order, int numBatches, int firstBatch) {
    this(core, epoch, order, numBatches, firstBatch, firstBatch, System.nanoTime(), 0);
  }

  /**
   * A run that continues an epoch whose progress display started at batch {@code progressFirst}, at
   * {@code startNanos}, and has handed out {@code samplesHanded} samples.
   */
  EpochRun(LoaderCore core, int epoch, int[] order, int numBatches, int firstBatch, int progressFirst, long startNanos,
      long samplesHanded) {
    this.progressFirst = progressFirst;
    this.startNanos = startNanos;
    this.samplesHanded = samplesHanded;
    this.core = core;
    this.policy = core.badSamplePolicy();
    this.rowSamples = policy == BadSamplePolicy.REPLACE ? order.clone() : order;
    this.firstBatch = firstBatch;
    this.handed = firstBatch - 1;
    this.epoch = epoch;
    this.order = order;
    this.numBatches = numBatches;
    this.ring = core.ring();
    this.pipelines = core.pipelines();
    this.scratch = core.scratch();
    this.plan = core.slotPlan();
    boolean tails = false;
    for (PlannedPipeline p : pipelines) {
      tails |= !p.tail().isEmpty();
    }
    this.hasTails = tails;
    this.readyBatch = new int[ring.slots()];
    java.util.Arrays.fill(readyBatch, -1);
    this.batchSize = core.batchSize();
    this.ahead = core.batchesAhead();
    this.numThreads = core.numThreads();
    this.slotBatch = new int[ring.slots()];
    java.util.Arrays.fill(slotBatch, -1);
    this.pending = new int[ring.slots()];
    this.generation = new long[ring.slots()];
    this.threads = new Thread[numThreads];
    this.failure = new FirstFailure(numThreads, firstBatch);
    for (int t = 0; t < numThreads; t++) {
      int id = t;
      threads[t] = new Thread(() -> work(id), "beton-loader-e" + epoch + "-w" + t);
      threads[t].setDaemon(true);
    }
    ring.onRelease(this::wake);
    this.cache = core.staging();
    if (cache != null) {
      cache.startEpoch(epoch, order, batchSize, numBatches, firstBatch, ahead + 1);
    }
    core.started(this);
    for (Thread t : threads) {
      t.start();
    }
  }

  int epoch() {
    return epoch;
  }

  private int sizeOf(int batch) {
    return Math.min(batchSize, order.length - batch * batchSize);
  }

  private void work(int t) {
    try {
      produce(t);
    } finally {
      finished(t, Integer.MAX_VALUE);
    }
  }

  private void produce(int t) {
    SampleContext ctx = new SampleContext(core.seed(), t);
    ByteBuffer a = scratch[2 * t];
    ByteBuffer b = scratch[2 * t + 1];
    long[] stages = core.profile() ? new long[2] : null;
    int batch = -1;
    int row = -1;
    int output = -1;
    try {
      for (batch = firstBatch; batch < numBatches; batch++) {
        int slot = batch % ring.slots();
        long t0 = System.nanoTime();
        if (!acquire(batch, slot)) {
          return;
        }
        long t1 = System.nanoTime();
        if (cache != null && !cache.awaitBatch(batch)) {
          return;
        }
        long start = System.nanoTime();
        int size = sizeOf(batch);
        int from = (int) ((long) t * size / numThreads);
        int to = (int) ((long) (t + 1) * size / numThreads);
        ByteBuffer out = ring.buffer(slot);
        int base = batch * batchSize;
        // the tables of this thread's rows first (the threads read different shards' tables at once), then the
        // whole batch's (a REPLACE substitute may come from another thread's rows); outside the bad-sample
        // handling below: a damaged allocation table fails the epoch
        core.shards().readTables(order, base + from, base + to);
        core.shards().readTables(order, base, base + size);
        for (row = from; row < to; row++) {
          int sample = order[base + row];
          try {
            for (output = 0; output < pipelines.size(); output++) {
              runOutput(output, sample, row, ctx, a, b, out, stages);
            }
            output = -1;
          } catch (RuntimeException e) {
            if (policy == BadSamplePolicy.FAIL || ctx.stage() != 0) {
              throw e; // named below with the epoch, batch, sample and output
            }
            output = -1;
            if (!badSample(e, batch, row, size, ctx, a, b, out, stages)) {
              return; // SKIP: this run stops at the batch
            }
          }
        }
        row = -1;
        if (release(batch, slot, t1 - t0, cache == null ? 0 : start - t1, System.nanoTime() - start, stages)) {
          if (hasTails) {
            runTails(batch, slot);
          }
          publish(batch, slot);
        }
        finished(t, batch);
      }
    } catch (Throwable e) {
      int sample = row >= 0 ? order[batch * batchSize + row] : -1;
      String file = sample >= 0 ? core.shards().reader(core.shards().shardOf(sample)).file() : core.shards().name();
      fail(new LoaderFailedException(epoch, batch, sample, output >= 0 ? pipelines.get(output).output() : null,
          MappedFault.explained(e, file)), batch, row);
    }
  }

  private void runOutput(int output, int sample, int row, SampleContext ctx, ByteBuffer a, ByteBuffer b,
      ByteBuffer out, long[] stages) {
    PlannedPipeline p = pipelines.get(output);
    int region = plan.perSample()[output];
    p.run(sample, epoch, row, ctx, a, b, out, ring.dataOffset(region) + row * ring.rowBytes(region), stages);
    out.putInt(ring.lengthsOffset(output) + 4 * row, ctx.length());
  }

  /**
   * Deals with the sample of {@code row} whose decoder failed with {@code e}: under REPLACE fills the row from the
   * first good sample after it in the batch (wrapping around) and returns true; under SKIP records it, stops
   * production at this batch and returns false.
   */
  private boolean badSample(RuntimeException e, int batch, int row, int size, SampleContext ctx, ByteBuffer a,
      ByteBuffer b, ByteBuffer out, long[] stages) {
    int base = batch * batchSize;
    int sample = order[base + row];
    String reason = e.getMessage() == null ? e.toString() : e.getMessage();
    if (policy == BadSamplePolicy.SKIP) {
      core.recordBadSample(epoch, batch, sample, -1, reason);
      synchronized (this) {
        skipFrom = Math.min(skipFrom, batch);
        notifyAll();
      }
      return false;
    }
    for (int k = 1; k < size; k++) {
      int substitute = order[base + (row + k) % size];
      try {
        for (int o = 0; o < pipelines.size(); o++) {
          runOutput(o, substitute, row, ctx, a, b, out, stages);
        }
      } catch (RuntimeException again) {
        if (ctx.stage() != 0) {
          throw again;
        }
        continue; // bad too: its own row reports it
      }
      rowSamples[base + row] = substitute;
      core.recordBadSample(epoch, batch, sample, substitute, reason);
      return true;
    }
    throw new IllegalStateException("Every sample of batch " + batch + " of epoch " + epoch + " is bad, so bad sample "
        + sample + " has no substitute in its batch (" + BadSamplePolicy.REPLACE + " takes substitutes from the same"
        + " batch); sample " + sample + ": " + reason, e);
  }

  private synchronized boolean acquire(int batch, int slot) throws InterruptedException {
    while (!cancelled && batch <= failure.batch() && batch < skipFrom
        && (batch > handed + ahead || heldFromEarlier(batch))) {
      wait();
    }
    if (cancelled || batch > failure.batch() || batch >= skipFrom) {
      return false;
    }
    if (slotBatch[slot] != batch) {
      slotBatch[slot] = batch;
      pending[slot] = numThreads;
      generation[slot] = ring.recycle(slot, core.debug());
    }
    return true;
  }

  /** A held slot was released: workers waiting for it look again. */
  private synchronized void wake() {
    notifyAll();
  }

  /** Runs the batch operations of every output on the finished batch (one thread, no lock held). */
  private void runTails(int batch, int slot) {
    ByteBuffer out = ring.buffer(slot);
    org.sparkbeton.loader.pipeline.BatchContext ctx = new org.sparkbeton.loader.pipeline.BatchContext(
        core.seed(), epoch, batch, sizeOf(batch), rowSamples, batch * batchSize);
    for (int o = 0; o < pipelines.size(); o++) {
      java.util.List<org.sparkbeton.loader.pipeline.BatchOperation.BatchStage> tail = pipelines.get(o).tail();
      for (int j = 0; j < tail.size(); j++) {
        tail.get(j).apply(out, ring.dataOffset(plan.tailIn()[o][j]), out, ring.dataOffset(plan.tailOut()[o][j]), ctx);
      }
    }
  }

  private synchronized void publish(int batch, int slot) {
    readyBatch[slot] = batch;
    notifyAll();
  }

  /** Returns true for the worker that finished the batch's last rows: it must publish the batch. */
  private synchronized boolean release(int batch, int slot, long producerWait, long cacheWait, long busy, long[] stages) {
    times.workerDid(producerWait, cacheWait, busy, stages);
    if (--pending[slot] == 0) {
      if (cache != null) {
        cache.batchDone(batch);
      }
      return true;
    }
    return false;
  }

  /** Keeps the failure first in the epoch's order, at {@code batch} and {@code row}. */
  private synchronized void fail(LoaderFailedException e, int batch, int row) {
    failure.met(e, batch, row);
    notifyAll();
  }

  /** Worker {@code t} finished its rows of {@code batch} ({@link Integer#MAX_VALUE}: it stopped). */
  private synchronized void finished(int t, int batch) {
    failure.finished(t, batch);
    notifyAll();
  }

  /**
   * Throws the failure when batch {@code b} is at or past the failed batch, once every worker finished the batches
   * up to it (so no failure earlier in the order can still come); returns otherwise.
   */
  private void throwIfFailedAt(int b) {
    if (b < failure.batch()) {
      return;
    }
    long start = System.nanoTime();
    // a slot the consumer still holds (Batch.retain()) can keep a worker from the batches before the failed one:
    // then the failure is thrown as found rather than waited on
    while (!cancelled && !failure.settled() && !heldSlotBlocks()) {
      try {
        wait();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while waiting for the workers of epoch " + epoch, e);
      }
    }
    times.consumerWaited(System.nanoTime() - start);
    // the consumer's stack, where the user's loop is (made on a worker, it had only the worker's four frames); the
    // cause keeps the worker's
    LoaderFailedException thrown = failure.failure();
    thrown.fillInStackTrace();
    throw thrown;
  }

  /** Whether a batch up to the failed one needs a slot that an earlier batch's hold keeps. */
  private boolean heldSlotBlocks() {
    for (int x = handed + 1; x <= Math.min(failure.batch(), numBatches - 1); x++) {
      if (heldFromEarlier(x)) {
        return true;
      }
    }
    return false;
  }

  /** Whether the slot {@code batch} needs is held (Batch.retain()) by an earlier batch. */
  private boolean heldFromEarlier(int batch) {
    int slot = batch % ring.slots();
    return slotBatch[slot] != batch && ring.isHeld(slot);
  }

  @Override
  public synchronized boolean hasNext() {
    throwIfFailedAt(handed + 1);
    boolean more = handed + 1 < numBatches;
    refuseIfClosedEarly(more);
    return more;
  }

  /**
   * An epoch closed before its last batch (the loader closed from another thread, or a new epoch started) ends
   * the consumer's loop with an exception: ending it quietly would look like the epoch's end, and a checkpoint
   * saved then would skip the batches never handed out.
   */
  private void refuseIfClosedEarly(boolean batchesLeft) {
    if (cancelled && batchesLeft) {
      throw new IllegalStateException("Epoch " + epoch + " was closed after " + (handed + 1) + " of its "
          + numBatches + " batches (a new epoch started or the loader closed)");
    }
  }

  @Override
  public Batch next() {
    int b;
    int slot;
    long gen;
    synchronized (this) {
      if (cancelled) {
        throw new IllegalStateException("Epoch " + epoch + " was closed (a new epoch started or the loader closed)");
      }
      b = handed + 1;
      if (b >= numBatches) {
        throw new NoSuchElementException("Epoch " + epoch + " has " + numBatches + " batches");
      }
      slot = b % ring.slots();
      awaitBatch(b);
      throwIfFailedAt(b);
      if (b >= skipFrom) {
        throw new SkipRestart();
      }
      if (cancelled) {
        throw new IllegalStateException("Epoch " + epoch + " was closed while waiting for batch " + b);
      }
      handed = b;
      gen = generation[slot];
      notifyAll();
      samplesHanded += sizeOf(b);
    }
    ProgressBar progress = core.progressBar();
    if (progress != null) {
      progress.update(epoch, b + 1 - progressFirst, numBatches - progressFirst, samplesHanded, startNanos,
          times.consumerWaitNanos());
    }
    return new Batch(ring, slot, gen, pipelines, epoch, b, sizeOf(b), rowSamples, b * batchSize);
  }

  /** Waits until batch {@code b} is ready, or the run failed, stopped at b for a skipped sample, or was closed. */
  private void awaitBatch(int b) {
    int slot = b % ring.slots();
    long start = System.nanoTime();
    while (b < failure.batch() && !cancelled && b < skipFrom && readyBatch[slot] != b) {
      if (heldFromEarlier(b)) {
        int slots = ring.slots();
        String holder = slotBatch[slot] >= 0 ? "batch " + slotBatch[slot] : "a batch of an earlier epoch";
        throw new IllegalStateException("Batch " + b + " of epoch " + epoch + " needs slot " + slot + ", which "
            + holder + " still holds (Batch.retain() not yet released, e.g. a DJL batch not closed): a slot comes"
            + " back for the batch batchesAhead + 2 = " + slots + " after the one it held, so"
            + " release each batch before asking for that one; at most " + slots + " batches can be held at once,"
            + " and holding fewer keeps the loader ahead");
      }
      try {
        wait();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while waiting for batch " + b + " of epoch " + epoch, e);
      }
    }
    times.consumerWaited(System.nanoTime() - start);
  }

  /**
   * As {@link #hasNext()}, but waits for the next batch, so that true means it exists: under SKIP a batch is
   * only known to exist once no sample before it is left out. Throws {@link SkipRestart} when the next batch holds
   * a sample to skip.
   */
  synchronized boolean awaitNext() {
    int b = handed + 1;
    throwIfFailedAt(b);
    refuseIfClosedEarly(b < numBatches);
    if (b >= numBatches) {
      return false;
    }
    awaitBatch(b);
    throwIfFailedAt(b);
    if (b >= skipFrom) {
      throw new SkipRestart();
    }
    refuseIfClosedEarly(true);
    return true;
  }

  /** Samples handed to the consumer so far (for a run continuing this one). */
  synchronized long samplesHanded() {
    return samplesHanded;
  }

  long startNanos() {
    return startNanos;
  }

  /** The batch the next call to {@link #next()} returns (numBatches when the epoch is done). */
  synchronized int nextBatch() {
    return handed + 1;
  }

  synchronized LoaderTimings timings() {
    return times.timings(core.profile(), handed + 1 - firstBatch);
  }

  /** Stops the workers and waits for them. */
  @Override
  public void close() {
    synchronized (this) {
      cancelled = true;
      notifyAll();
    }
    if (cache != null) {
      cache.stopEpoch(); // wakes workers waiting for pages
    }
    boolean interrupted = false;
    for (Thread t : threads) {
      while (t.isAlive()) {
        try {
          t.join();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
