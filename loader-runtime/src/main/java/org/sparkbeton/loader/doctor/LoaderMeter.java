package org.sparkbeton.loader.doctor;

import java.util.Iterator;
import java.util.concurrent.locks.LockSupport;
import org.sparkbeton.loader.Batch;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.LoaderTimings;
import org.sparkbeton.loader.bench.Throughput;

/** Runs a loader and measures it: whole epochs, or a span of time behind a consumer that takes a while per batch. */
final class LoaderMeter {
  private LoaderMeter() {}

  /**
   * What a loader did in a span: images handed over, wall-clock and process CPU time, the loader's own
   * attribution of its time, and PROCESS-cache page reads (0 in cache mode OS).
   */
  record Span(long images, long wallNanos, long cpuNanos, LoaderTimings timings, long pagesRead) {
    static final Span EMPTY = new Span(0, 0, 0, new LoaderTimings(0, 0, 0, 0, 0, 0, 0), 0);

    /** Images/s by the wall clock. */
    double rate() {
      return wallNanos == 0 ? 0 : images / (wallNanos / 1e9);
    }

    /** Images per second of this process's CPU time (all threads): steadier than {@link #rate} on a busy machine. */
    double perCpuSecond() {
      return cpuNanos == 0 ? 0 : images / (cpuNanos / 1e9);
    }

    Span plus(Span o) {
      return new Span(images + o.images, wallNanos + o.wallNanos, cpuNanos + o.cpuNanos, timings.plus(o.timings),
          pagesRead + o.pagesRead);
    }

    /** Worker time per image spent decoding (with {@code profile(true)}), in nanoseconds. */
    double decodeNanosPerImage() {
      return (double) timings.decode() / images;
    }

    /** Worker time per image spent on the operations and the copy into the batch. */
    double augmentNanosPerImage() {
      return (double) timings.augment() / images;
    }

    /** Worker time per image in all (decode, augment and the loader's bookkeeping). */
    double busyNanosPerImage() {
      return (double) timings.busy() / images;
    }
  }

  /** One whole epoch with a consumer that takes nothing. */
  static Span epoch(Loader loader) {
    long pages = Math.max(0, loader.pagesRead());
    long wall = System.nanoTime();
    long cpu = Throughput.processCpuNanos();
    long images = 0;
    for (Batch b : loader) {
      images += b.size();
    }
    return new Span(images, System.nanoTime() - wall, Throughput.processCpuNanos() - cpu, loader.timings(),
        Math.max(0, loader.pagesRead()) - pages);
  }

  /**
   * Runs the loader for about {@code nanos} behind a consumer that takes {@code stepNanos} per batch (0: none),
   * starting new epochs as needed; the span starts after the consumer's first step (the loader has started its
   * threads and read its first pages, however long that took) and ends after the step during which {@code nanos}
   * ran out (at least one more).
   */
  static Span run(Loader loader, long nanos, long stepNanos) {
    long deadline = Long.MAX_VALUE;
    Span done = Span.EMPTY;
    LoaderTimings start = null;
    long wall0 = 0;
    long cpu0 = 0;
    long pages0 = 0;
    long images = 0;
    while (true) {
      Iterator<Batch> epoch = loader.iterator();
      LoaderTimings epochStart = new LoaderTimings(0, 0, 0, 0, 0, 0, 0);
      boolean more = epoch.hasNext();
      if (!more) {
        throw new IllegalStateException("The loader has no batches to measure");
      }
      while (more) {
        Batch b = epoch.next();
        if (stepNanos > 0) {
          sleep(stepNanos);
        }
        if (start == null) { // the first step is done: the span starts now
          start = loader.timings();
          epochStart = start;
          wall0 = System.nanoTime();
          deadline = wall0 + nanos;
          cpu0 = Throughput.processCpuNanos();
          pages0 = Math.max(0, loader.pagesRead());
        } else {
          images += b.size();
        }
        if (System.nanoTime() >= deadline && images > 0) {
          LoaderTimings t = done.timings().plus(loader.timings().minus(epochStart));
          return new Span(images, System.nanoTime() - wall0, Throughput.processCpuNanos() - cpu0, t,
              Math.max(0, loader.pagesRead()) - pages0);
        }
        more = epoch.hasNext();
      }
      done = new Span(0, 0, 0, done.timings().plus(loader.timings().minus(epochStart)), 0);
    }
  }

  private static void sleep(long nanos) {
    long until = System.nanoTime() + nanos;
    for (long left = nanos; left > 0; left = until - System.nanoTime()) {
      LockSupport.parkNanos(left);
    }
  }
}
