package org.sparkbeton.loader.io;

/**
 * What brings a batch's data within reach before the workers decode it, following the epoch's order:
 * the PROCESS {@link PageCache} (pages into memory) and a remote dataset's shard stager (shards onto
 * local disk, {@code store.RemoteDataset}). The loader calls {@link #startEpoch} before its workers
 * start, {@link #awaitBatch} before a worker decodes a batch, {@link #batchDone} once every row of a
 * batch is decoded, {@link #stopEpoch} to stop early (workers may still be running) and
 * {@link #close} after its workers have stopped.
 */
public interface BatchStaging extends AutoCloseable {

  /**
   * Starts an epoch: {@code order} holds the samples of batch b at {@code [b * batchSize, ...)};
   * production starts at {@code firstBatch}; at most {@code lookahead} batches are produced beyond the
   * oldest one not yet finished. Throws when the epoch cannot be staged within the budget.
   */
  void startEpoch(int epoch, int[] order, int batchSize, int numBatches, int firstBatch, int lookahead);

  /** Blocks until batch {@code b} can be decoded; false if the epoch was stopped; throws what staging hit. */
  boolean awaitBatch(int b) throws InterruptedException;

  /** Every sample of batch {@code b} is decoded: what only it needed may go. */
  void batchDone(int b);

  /** Stops the current epoch's staging, if any, and wakes workers waiting in {@link #awaitBatch}. */
  void stopEpoch();

  @Override
  void close();
}
