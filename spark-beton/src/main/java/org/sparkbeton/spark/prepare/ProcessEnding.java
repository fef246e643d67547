package org.sparkbeton.spark.prepare;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Whether this JVM has begun to end (Ctrl-C, {@code kill}, a timeout's TERM). Spark's own shutdown hook then
 * stops the session under the running job, whose failure said "the Spark session was stopped while the job ran
 * (Spark's log above says why)" as if something had gone wrong; the jobs say the process was asked to end instead.
 */
final class ProcessEnding {
  private static final AtomicBoolean ENDING = new AtomicBoolean();
  private static final AtomicBoolean WATCHED = new AtomicBoolean();

  private ProcessEnding() {}

  /** Watches from now on: adds the shutdown hook that sets {@link #ending()}, once per JVM. */
  static void watch() {
    if (WATCHED.compareAndSet(false, true)) {
      Runtime.getRuntime().addShutdownHook(new Thread(() -> ENDING.set(true), "beton-process-ending"));
    }
  }

  static boolean ending() {
    return ENDING.get();
  }

  /** The line a job prints for a failure met while its process ends. */
  static String line(String tool) {
    return tool + ": stopped: the process was asked to end (Ctrl-C, kill or a timeout) while the job ran";
  }
}
