package org.sparkbeton.loader.store;

/**
 * How many shards download at once after an epoch's first batch: one to start with, one more when the
 * decoding workers wait for a shard while every allowed download is running, one fewer after
 * {@link #CALM_DOWNLOADS} downloads in a row finished with no worker waiting, never below 1 nor above the
 * configured maximum. A store that delivers faster than decoding consumes is then read over one stream,
 * which costs the least CPU per byte on the cores that decode (the store client, the checksum and the
 * writes contend less); a slow store still gets parallel streams, as soon as the workers run dry.
 *
 * <p>At most one step up per finished download: several workers waiting for the same shard, or one worker
 * woken while its shard is still on its way, are one shortage, not several. Not thread-safe; the
 * {@link ShardStager}'s lock guards it.
 */
final class DownloadConcurrency {
  /** Downloads in a row that finish with no worker waiting before the limit steps down. */
  static final int CALM_DOWNLOADS = 2;

  private final int max;
  private int limit = 1;
  private boolean grewSinceDownload;
  private boolean waitedSinceDownload;
  private int calm;

  DownloadConcurrency(int max) {
    if (max < 1) {
      throw new IllegalArgumentException("Concurrent downloads must be at least 1, got " + max);
    }
    this.max = max;
  }

  /** Downloads allowed at once now. */
  int limit() {
    return limit;
  }

  int max() {
    return max;
  }

  /** A worker waits (or, woken, still waits) for a shard while {@code inFlight} downloads run. */
  void workerWaiting(int inFlight) {
    waitedSinceDownload = true;
    calm = 0;
    if (inFlight >= limit && limit < max && !grewSinceDownload) {
      limit++;
      grewSinceDownload = true;
    }
  }

  /** A download finished (or a cached shard was pinned). */
  void downloaded() {
    if (waitedSinceDownload) {
      calm = 0;
    } else if (++calm >= CALM_DOWNLOADS) {
      calm = 0;
      limit = Math.max(1, limit - 1);
    }
    waitedSinceDownload = false;
    grewSinceDownload = false;
  }
}
