package org.sparkbeton.loader.bench;

import java.lang.management.ManagementFactory;

/**
 * Images/s of epoch 1 and of the later epochs together, by the wall clock and per second of this
 * process's CPU time (all threads: workers, consumer, JIT, GC). The machine is shared: other builds
 * take cores and move wall-clock figures by 2x between runs, while the CPU time a run spends per image
 * moves far less, so ratios are shown on both.
 */
final class Throughput {
  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  double firstWall;
  double firstCpu;
  private long restImages;
  private long restWallNanos;
  private long restCpuNanos;
  private long wall0;
  private long cpu0;

  /** Starts timing an epoch (for epoch 1 call it before building what is measured). */
  void start() {
    wall0 = System.nanoTime();
    cpu0 = OS.getProcessCpuTime();
  }

  /** Ends the epoch started last and starts timing the next. */
  void epochDone(int epoch, long images) {
    long wall = System.nanoTime() - wall0;
    long cpu = OS.getProcessCpuTime() - cpu0;
    if (epoch == 0) {
      firstWall = images / (wall / 1e9);
      firstCpu = images / (cpu / 1e9);
    } else {
      restImages += images;
      restWallNanos += wall;
      restCpuNanos += cpu;
    }
    start();
  }

  double restWall() {
    return restImages / (restWallNanos / 1e9);
  }

  double restCpu() {
    return restImages / (restCpuNanos / 1e9);
  }
}
