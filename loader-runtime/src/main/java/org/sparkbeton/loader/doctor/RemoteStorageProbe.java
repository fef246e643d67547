package org.sparkbeton.loader.doctor;

import java.io.IOException;
import java.io.InputStream;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.loader.store.RangedDataset;

/**
 * A remote store's read throughput as the loader's staging sees it: {@code streams} streamed reads at once, each
 * from a random offset of a random shard for up to {@link #RUN} bytes (a download's reads), for half the time; then
 * twice the streams for the other half, which says whether more concurrent downloads would read faster.
 */
final class RemoteStorageProbe {
  static final int CHUNK = 1 << 20;
  static final long RUN = 8L << 20;
  /** At least this long in all: opening a remote stream takes milliseconds, so shorter runs mostly measure that. */
  static final long MIN_NANOS = 2_000_000_000L;

  /** Bytes per second with {@code streams} and with {@code moreStreams} streams. */
  record Result(int streams, double bytesPerSecond, int moreStreams, double moreBytesPerSecond) {}

  private RemoteStorageProbe() {}

  static Result measure(RangedDataset ds, int streams, long nanos, long seed) throws IOException {
    double rate = run(ds, streams, nanos / 2, seed);
    double more = run(ds, 2 * streams, nanos / 2, seed + 1);
    return new Result(streams, rate, 2 * streams, more);
  }

  private static double run(RangedDataset ds, int streams, long nanos, long seed) throws IOException {
    AtomicLong bytes = new AtomicLong();
    long t0 = System.nanoTime();
    long deadline = t0 + nanos;
    IOException failure;
    try {
      failure = ProbeThreads.run(streams, "beton-doctor-store-", t -> {
        SplittableRandom r = new SplittableRandom(seed * 1_000_003L + t);
        byte[] buffer = new byte[CHUNK];
        do {
          ShardEntry e = ds.entries().get(r.nextInt(ds.entries().size()));
          long offset = e.bytes() <= RUN ? 0 : r.nextLong(e.bytes() - RUN);
          try (InputStream in = ds.store().open(e.path(), offset)) {
            long read = 0;
            while (read < RUN) {
              int n = in.read(buffer, 0, (int) Math.min(CHUNK, RUN - read));
              if (n < 0) {
                break;
              }
              read += n;
              bytes.addAndGet(n);
              if (System.nanoTime() > deadline) {
                break;
              }
            }
          }
        } while (System.nanoTime() < deadline);
      });
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted while measuring " + ds.uri(), e);
    }
    if (failure != null) {
      throw new IOException("Cannot read the shards of " + ds.uri() + ": " + failure.getMessage(), failure);
    }
    return bytes.get() / ((System.nanoTime() - t0) / 1e9);
  }
}
