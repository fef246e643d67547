package org.sparkbeton.format.tools;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.write.BetonWriter;
import org.sparkbeton.format.write.PageLayout;
import org.sparkbeton.format.write.SampleWriter;
import org.sparkbeton.format.write.WriteResult;

/**
 * Reads every sample with our reader and writes it with our writer, payloads passed through
 * unchanged (no image re-encode). Compacts orphan bytes, changes the page size, changes the page
 * layout, and, with one thread and {@link PageLayout#FFCV}, reproduces a single-worker FFCV file byte
 * for byte.
 */
public final class Rewrite {
  private Rewrite() {}

  /** Rewrites in {@link PageLayout#FFCV}, FFCV's own layout: one thread reproduces a single-worker FFCV file. */
  public static WriteResult run(BetonReader in, Path out, long pageSize, int threads) throws IOException {
    return run(in, out, pageSize, threads, PageLayout.FFCV);
  }

  public static WriteResult run(BetonReader in, Path out, long pageSize, int threads, PageLayout layout)
      throws IOException {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be >= 1, got " + threads);
    }
    long n = in.numSamples();
    try (BetonWriter writer = BetonWriter.builder(in.fields()).pageSize(pageSize).pageLayout(layout)
        .expectedSamples(n).open(out)) {
      if (threads == 1) {
        for (long s = 0; s < n; s++) {
          writer.append(in.sample(s));
        }
      } else {
        writeInParallel(in, writer, threads);
      }
      return writer.finish();
    }
  }

  /** Each thread writes a contiguous range of sample indices through its own worker. */
  private static void writeInParallel(BetonReader in, BetonWriter writer, int threads) throws IOException {
    long n = in.numSamples();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        long from = n * t / threads;
        long to = n * (t + 1) / threads;
        SampleWriter worker = writer.newWorker();
        futures.add(pool.submit(() -> {
          try (worker) {
            for (long s = from; s < to; s++) {
              worker.write(s, in.sample(s));
            }
          }
          return null;
        }));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted while rewriting " + in.file(), e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException re) {
        throw re;
      }
      if (cause instanceof IOException io) {
        throw io;
      }
      throw new IOException(cause);
    } finally {
      pool.shutdownNow();
    }
  }
}
