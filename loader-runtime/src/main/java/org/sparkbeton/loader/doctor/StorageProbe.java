package org.sparkbeton.loader.doctor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.fields.ImageMode;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.loader.io.Shards;
import org.sparkbeton.loader.io.SourceOpener;
import org.sparkbeton.loader.order.PageMap;

/**
 * Storage read throughput on data not in the page cache ({@link UncachedReads}), the two ways the loader reads:
 * whole data pages one after another on one thread, as the PROCESS cache's reader does, and single images'
 * payloads at random on the loader's threads, as cache mode OS faults them in (or reads them through a source).
 * Each part reads random pages or samples of the dataset until its share of the time is spent.
 */
final class StorageProbe {
  /** Pages are read in chunks of this size, so a slow source still finishes a chunk within the time. */
  static final int CHUNK = 1 << 20;

  /**
   * @param method how the reads avoided the page cache
   * @param uncached false when the file system refused O_DIRECT (the figures may be the page cache's)
   * @param pageBytesPerSecond whole pages, read in order on one thread
   * @param payloadsPerSecond single payloads at random, on {@code threads} threads
   * @param payloadBytesPerSecond the same in bytes
   */
  record Result(String method, boolean uncached, double pageBytesPerSecond, long pageBytes,
                double payloadsPerSecond, double payloadBytesPerSecond, long payloads, int threads) {}

  private StorageProbe() {}

  static Result measure(Shards shards, List<java.nio.file.Path> files, int field, SourceOpener opener, int threads,
      long nanos, long seed) throws IOException {
    try (UncachedReads reads = UncachedReads.open(files, opener)) {
      long[] pages = pages(shards, seed);
      long t0 = System.nanoTime();
      long pageBytes = readPages(reads, pages, shards.reader(0).pageSize(), t0 + nanos / 2);
      double pageRate = pageBytes / ((System.nanoTime() - t0) / 1e9);
      long[][] payloads = payloads(shards, field, seed);
      long t1 = System.nanoTime();
      long[] done = readPayloads(reads, payloads, threads, t1 + nanos / 2, seed);
      double seconds = (System.nanoTime() - t1) / 1e9;
      return new Result(reads.method(), reads.uncached(), pageRate, pageBytes, done[0] / seconds, done[1] / seconds,
          done[0], threads);
    }
  }

  /** Up to 64 random data pages, as (file << 40 | absolute page number). */
  private static long[] pages(Shards shards, long seed) {
    List<Long> all = new ArrayList<>();
    for (int f = 0; f < shards.count(); f++) {
      PageMap m = PageMap.of(shards.reader(f));
      for (int p = 0; p < m.numPages(); p++) {
        all.add(((long) f << 40) | (m.firstPage() + p));
      }
    }
    java.util.Collections.shuffle(all, new java.util.Random(seed));
    return all.stream().limit(64).mapToLong(Long::longValue).toArray();
  }

  /** Reads the pages in chunks, in turn, until {@code deadline} (at least one chunk); returns the bytes read. */
  private static long readPages(UncachedReads reads, long[] pages, long pageSize, long deadline) throws IOException {
    if (pages.length == 0) {
      return 0;
    }
    ByteBuffer scratch = reads.buffer(CHUNK);
    long bytes = 0;
    for (int i = 0; ; i++) {
      long page = pages[i % pages.length];
      int file = (int) (page >>> 40);
      long start = (page & ((1L << 40) - 1)) * pageSize;
      for (long off = 0; off < pageSize; off += CHUNK) {
        int n = reads.read(file, start + off, (int) Math.min(CHUNK, pageSize - off), scratch);
        bytes += n;
        if (n < Math.min(CHUNK, pageSize - off) || System.nanoTime() > deadline) {
          break;
        }
      }
      if (System.nanoTime() > deadline) {
        return bytes;
      }
    }
  }

  /** Up to 4096 random samples' image payloads, as {file, position, length}. */
  private static long[][] payloads(Shards shards, int field, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    int n = (int) Math.min(4096, shards.numSamples());
    long[][] out = new long[n][];
    for (int i = 0; i < n; i++) {
      long sample = r.nextLong(shards.numSamples());
      int f = shards.shardOf(sample);
      BetonReader reader = shards.reader(f);
      long local = sample - shards.start(f);
      ByteBuffer rec = reader.recordChunk(local);
      int at = reader.recordOffset(local) + reader.layout().offset(field);
      long ptr = rec.getLong(at + RgbImageField.DATA_PTR);
      long size = RgbImageField.modeOf(rec, at) == ImageMode.RAW
          ? 3L * Short.toUnsignedInt(rec.getShort(at + RgbImageField.WIDTH))
              * Short.toUnsignedInt(rec.getShort(at + RgbImageField.HEIGHT))
          : Math.max(0, reader.allocations().sizeAt(ptr));
      out[i] = new long[] {f, ptr, size};
    }
    return out;
  }

  /** Reads random payloads on {@code threads} threads until {@code deadline}; returns {payloads, bytes}. */
  private static long[] readPayloads(UncachedReads reads, long[][] payloads, int threads, long deadline, long seed)
      throws IOException {
    int largest = 1;
    for (long[] p : payloads) {
      largest = (int) Math.max(largest, p[2]);
    }
    int bufferSize = largest;
    AtomicLong count = new AtomicLong();
    AtomicLong bytes = new AtomicLong();
    IOException failure;
    try {
      failure = ProbeThreads.run(threads, "beton-doctor-storage-", t -> {
        SplittableRandom r = new SplittableRandom(seed + 31L * t);
        ByteBuffer scratch = reads.buffer(bufferSize);
        do {
          long[] p = payloads[r.nextInt(payloads.length)];
          bytes.addAndGet(reads.read((int) p[0], p[1], (int) p[2], scratch));
          count.incrementAndGet();
        } while (System.nanoTime() < deadline);
      });
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted while measuring storage", e);
    }
    if (failure != null) {
      throw failure;
    }
    return new long[] {count.get(), bytes.get()};
  }
}
