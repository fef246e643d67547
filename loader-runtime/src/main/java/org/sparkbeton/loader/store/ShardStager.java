package org.sparkbeton.loader.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;

/**
 * Stages a remote dataset's shards for one epoch at a time, following the epoch's order (this rank's
 * share of it). At the start of an epoch it works out the shards each batch needs; a shard is needed
 * from its first batch to its last. It refuses an epoch whose shards needed at once exceed the budget
 * (no order of downloads could then make progress). A coordinator thread admits shards in order of
 * first use as long as the shards this loader holds or downloads fit the budget, and hands each to the
 * download pool; a batch may be decoded once every shard first used at or before it is staged, so
 * training starts as soon as the first batch's shards are local and later shards download while earlier
 * ones are decoded. The first batch's shards download alone, so that they get the whole bandwidth of a
 * store that shares it between connections, and the first batch then decodes alone: the other shards
 * follow, several at a time, once it is done, so that their downloads (the store client, the checksum,
 * the writes) do not take the cores the first batch decodes on. When the last batch
 * that uses a shard is done, the shard is unmapped and unpinned: the cache may evict it (least recently
 * used first) to make room.
 *
 * <p>Admitting in order of first use keeps the loader from deadlocking on its own budget: when the
 * workers wait for batch b, what it holds is needed at b, and the budget covers all that b needs.
 */
final class ShardStager {
  private final RemoteDataset dataset;
  private final long budget;
  private final ExecutorService pool;

  // the current epoch; guarded by this
  private int[] batchStart = new int[1];
  private int[] batchShards = new int[0];
  private int[] remaining;
  private int[] firstUse;
  private int[] sequence = new int[0];
  private final boolean[] ready;
  private final boolean[] held;
  private int readyCount;
  private int readyUpTo;
  private boolean firstDone; // the epoch's first batch is decoded: shards it does not need may download
  private int numBatches;
  private int startBatch;
  private long admitted;
  private int inFlight;
  private boolean stopped = true;
  private RuntimeException failure;
  private Thread coordinator;

  ShardStager(RemoteDataset dataset, long budget, ExecutorService pool) {
    this.dataset = dataset;
    this.budget = budget;
    this.pool = pool;
    this.ready = new boolean[dataset.shardCount()];
    this.held = new boolean[dataset.shardCount()];
    this.remaining = new int[dataset.shardCount()];
  }

  void startEpoch(int epoch, int[] order, int batchSize, int batches, int firstBatch) {
    stopEpoch();
    int m = dataset.shardCount();
    int[] seenIn = new int[m];
    Arrays.fill(seenIn, -1);
    int[] first = new int[m];
    Arrays.fill(first, -1);
    int[] last = new int[m];
    int[] uses = new int[m];
    int[] bStart = new int[batches + 1];
    int[] list = new int[Math.max(1, order.length)]; // a batch's distinct shards are at most its samples
    int n = 0;
    for (int b = firstBatch; b < batches; b++) {
      bStart[b] = n;
      int end = (int) Math.min(order.length, (b + 1L) * batchSize);
      for (int i = b * batchSize; i < end; i++) {
        int s = dataset.shardOf(order[i]);
        if (seenIn[s] != b) {
          seenIn[s] = b;
          list[n++] = s;
          uses[s]++;
          if (first[s] < 0) {
            first[s] = b;
          }
          last[s] = b;
        }
      }
    }
    bStart[batches] = n;
    checkWidth(new EpochShards(epoch, order, batchSize, bStart, list, first, last));
    long[] keys = new long[m];
    int k = 0;
    for (int s = 0; s < m; s++) {
      if (first[s] >= 0) {
        keys[k++] = ((long) first[s] << 32) | s;
      }
    }
    long[] sorted = Arrays.copyOf(keys, k);
    Arrays.sort(sorted);
    int[] seq = new int[k];
    for (int i = 0; i < k; i++) {
      seq[i] = (int) sorted[i];
    }
    synchronized (this) {
      releaseHeld(); // pins a stopped epoch left; its workers have stopped
      this.batchStart = bStart;
      this.batchShards = Arrays.copyOf(list, n);
      this.remaining = uses;
      this.firstUse = first;
      this.sequence = seq;
      this.numBatches = batches;
      this.startBatch = firstBatch;
      Arrays.fill(ready, false);
      this.readyCount = 0;
      this.readyUpTo = seq.length == 0 ? batches : first[seq[0]];
      this.firstDone = false;
      this.admitted = 0;
      this.failure = null;
      this.stopped = false;
    }
    Thread c = new Thread(this::admit, "beton-stager-e" + epoch);
    c.setDaemon(true);
    synchronized (this) {
      coordinator = c;
    }
    c.start();
  }

  /** Refuses an epoch that needs more shard bytes at once than the budget holds, saying why and what would do. */
  private void checkWidth(EpochShards epoch) {
    long[] live = epoch.liveBytes(dataset::shardBytes);
    for (int b = 0; b < live.length; b++) {
      if (live[b] > budget) {
        throw new IllegalArgumentException(epoch.tooWide(b, live, budget, dataset));
      }
    }
  }

  private void admit() {
    int[] seq;
    synchronized (this) {
      seq = sequence;
    }
    for (int s : seq) {
      long bytes = dataset.shardBytes(s);
      synchronized (this) {
        try {
          while (!stopped && failure == null
              && (admitted + bytes > budget || (firstUse[s] > startBatch && !firstDone))) {
            wait();
          }
        } catch (InterruptedException e) {
          failure = new IllegalStateException("Staging of " + dataset.uri() + " was interrupted", e);
          notifyAll();
          return;
        }
        if (stopped || failure != null) {
          return;
        }
        admitted += bytes;
        inFlight++;
      }
      try {
        pool.execute(() -> stage(s, bytes));
      } catch (RejectedExecutionException e) {
        finish(s, bytes, new IllegalStateException("The loader over " + dataset.uri() + " is closed", e));
        return;
      }
    }
  }

  private void stage(int s, long bytes) {
    try {
      dataset.stage(s, this::cancelled);
      finish(s, bytes, null);
    } catch (CancellationException e) {
      finish(s, bytes, e);
    } catch (IOException e) {
      finish(s, bytes, new UncheckedIOException(e.getMessage(), e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      finish(s, bytes, new CancellationException("interrupted"));
    } catch (RuntimeException | Error e) {
      finish(s, bytes, new IllegalStateException("Cannot stage shard " + dataset.shardName(s) + ": " + e, e));
    }
  }

  private synchronized void finish(int s, long bytes, RuntimeException error) {
    inFlight--;
    if (error == null) {
      held[s] = true; // even when stopped meanwhile: released at the next start or close
      ready[s] = true;
      while (readyCount < sequence.length && ready[sequence[readyCount]]) {
        readyCount++;
      }
      readyUpTo = readyCount < sequence.length ? firstUse[sequence[readyCount]] : numBatches;
    } else {
      admitted -= bytes;
      if (!(error instanceof CancellationException) && failure == null) {
        failure = error;
      }
    }
    notifyAll();
  }

  private synchronized boolean cancelled() {
    return stopped || failure != null;
  }

  synchronized boolean awaitBatch(int b) throws InterruptedException {
    while (!stopped && failure == null && readyUpTo <= b) {
      wait();
    }
    if (failure != null) {
      throw failure;
    }
    return !stopped;
  }

  synchronized void batchDone(int b) {
    firstDone = true; // workers finish batches in order: the first one done is the epoch's first
    for (int k = batchStart[b]; k < batchStart[b + 1]; k++) {
      int s = batchShards[k];
      if (--remaining[s] == 0 && held[s]) {
        release(s);
      }
    }
    notifyAll();
  }

  private void release(int s) {
    held[s] = false;
    admitted -= dataset.shardBytes(s);
    dataset.unstage(s);
  }

  private void releaseHeld() {
    for (int s = 0; s < held.length; s++) {
      if (held[s]) {
        release(s);
      }
    }
  }

  /** Stops admission and waits for downloads in flight to stop at their next chunk; pins stay until released. */
  void stopEpoch() {
    Thread c;
    synchronized (this) {
      stopped = true;
      notifyAll();
      c = coordinator;
      coordinator = null;
    }
    boolean interrupted = false;
    while (c != null && c.isAlive()) {
      try {
        c.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    synchronized (this) {
      while (inFlight > 0) {
        try {
          wait();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** After the workers have stopped: stops staging and releases every shard this loader holds. */
  void close() {
    stopEpoch();
    synchronized (this) {
      releaseHeld();
    }
  }
}
