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
   * I/O error one of them ended with (an {@link UncheckedIOException}'s cause), {@code null} when none did.
   */
  static IOException run(int threads, String name, Body body) throws InterruptedException {
    IOException[] failure = new IOException[1];
    Thread[] workers = new Thread[threads];
    for (int t = 0; t < threads; t++) {
      int thread = t;
      workers[t] = new Thread(() -> {
        try {
          body.run(thread);
        } catch (IOException e) {
          synchronized (failure) {
            failure[0] = e;
          }
        } catch (UncheckedIOException e) {
          synchronized (failure) {
            failure[0] = e.getCause();
          }
        }
      }, name + t);
      workers[t].setDaemon(true);
      workers[t].start();
    }
    for (Thread w : workers) {
      w.join();
    }
    synchronized (failure) {
      return failure[0];
    }
  }
}
