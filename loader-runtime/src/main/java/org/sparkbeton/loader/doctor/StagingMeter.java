package org.sparkbeton.loader.doctor;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.sparkbeton.loader.store.StagingListener;

/**
 * Counts what the loader's staging did while the doctor or bench ran it: shards downloaded and the bytes fetched,
 * shards found in the cache, retries, and the span from the first downloaded byte to the last completed download.
 */
final class StagingMeter implements StagingListener {
  private final AtomicInteger downloaded = new AtomicInteger();
  private final AtomicInteger cached = new AtomicInteger();
  private final AtomicInteger retries = new AtomicInteger();
  private final AtomicLong fetched = new AtomicLong();
  private final AtomicLong first = new AtomicLong(Long.MAX_VALUE);
  private final AtomicLong last = new AtomicLong(Long.MIN_VALUE);

  @Override
  public void cached(String shard) {
    cached.incrementAndGet();
  }

  @Override
  public void progress(String shard, long bytes, long total) {
    first.accumulateAndGet(System.nanoTime(), Math::min);
  }

  @Override
  public void retrying(String shard, int attempt, IOException cause) {
    retries.incrementAndGet();
  }

  @Override
  public void downloaded(String shard, long fetchedBytes, long resumedFrom) {
    downloaded.incrementAndGet();
    fetched.addAndGet(fetchedBytes);
    last.accumulateAndGet(System.nanoTime(), Math::max);
  }

  Diagnosis.Staged snapshot() {
    long span = last.get() - first.get();
    double rate = downloaded.get() == 0 || span <= 0 ? 0 : fetched.get() / (span / 1e9);
    return new Diagnosis.Staged(downloaded.get(), fetched.get(), cached.get(), retries.get(), rate);
  }
}
