package org.sparkbeton.loader.doctor;

import java.io.IOException;
import java.io.UncheckedIOException;

/** The reader threads of a storage probe ({@link StorageProbe}, {@link RemoteStorageProbe}), run until they end. */
final class ProbeThreads {
  private ProbeThreads() {}

  /** What thread {@code t} runs. */
  @FunctionalInterface
  interface Body {
    void run(int t) throws IOException;
  }

  /**
   * Runs {@code body} on {@code threads} daemon threads named {@code name + t} and waits for them all; returns an
   * I/O error one of them ended with (an {@link UncheckedIOException}'s cause), {@code null} when none did. Any
   * other failure of a thread is thrown here, on the caller's thread, once they have all ended: a probe that
   * fails is reported as the doctor's error, never as a stack trace from a thread and a measurement of what the
   * threads did before.
   */
  static IOException run(int threads, String name, Body body) throws InterruptedException {
    Throwable[] failure = new Throwable[1];
    Thread[] workers = new Thread[threads];
    for (int t = 0; t < threads; t++) {
      int thread = t;
      workers[t] = new Thread(() -> {
        try {
          body.run(thread);
        } catch (UncheckedIOException e) {
          keepFirst(failure, e.getCause());
        } catch (IOException | RuntimeException | Error e) {
          keepFirst(failure, e);
        }
      }, name + t);
      workers[t].setDaemon(true);
      workers[t].start();
    }
    for (Thread w : workers) {
      w.join();
    }
    Throwable first;
    synchronized (failure) {
      first = failure[0];
    }
    if (first instanceof RuntimeException e) {
      throw e;
    }
    if (first instanceof Error e) {
      throw e;
    }
    return (IOException) first;
  }

  private static void keepFirst(Throwable[] failure, Throwable e) {
    synchronized (failure) {
      if (failure[0] == null) {
        failure[0] = e;
      }
    }
  }
}
