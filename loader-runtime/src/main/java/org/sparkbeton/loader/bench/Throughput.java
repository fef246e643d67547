package org.sparkbeton.loader.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Images/s of epoch 1 and of the later epochs together, by the wall clock and per second of this
 * process's CPU time (all threads: workers, consumer, JIT, GC). The machine is shared: other builds
 * take cores and move wall-clock figures by 2x between runs, while the CPU time a run spends per image
 * moves far less, so ratios are shown on both.
 */
public final class Throughput {
  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private double firstWall;
  private double firstCpu;
  private long restImages;
  private long restWallNanos;
  private long restCpuNanos;
  private long wall0;
  private long cpu0;

  /** CPU time of this process so far, all threads, in nanoseconds. */
  public static long processCpuNanos() {
    return OS.getProcessCpuTime();
  }

  /** The system load average of the last minute, or a negative value where there is none. */
  public static double loadAverage() {
    return OS.getSystemLoadAverage();
  }

  /** Minor page faults of this process so far ({@code /proc/self/stat}), or 0 where there is no such file. */
  public static long minorPageFaults() {
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"));
      return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[7]);
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  /** The median of {@code values} (the mean of the middle two for an even count); {@code values} is not changed. */
  public static double median(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  /** Starts timing an epoch (for epoch 1 call it before building what is measured). */
  public void start() {
    wall0 = System.nanoTime();
    cpu0 = processCpuNanos();
  }

  /** Ends the epoch started last and starts timing the next; epoch 0 is "epoch 1", any other adds to the rest. */
  public void epochDone(int epoch, long images) {
    long wall = System.nanoTime() - wall0;
    long cpu = processCpuNanos() - cpu0;
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

  /** Images/s of epoch 1 by the wall clock. */
  public double firstWall() {
    return firstWall;
  }

  /** Images per CPU-second of epoch 1. */
  public double firstCpu() {
    return firstCpu;
  }

  /** Images/s of the later epochs by the wall clock. */
  public double restWall() {
    return restImages / (restWallNanos / 1e9);
  }

  /** Images per CPU-second of the later epochs. */
  public double restCpu() {
    return restImages / (restCpuNanos / 1e9);
  }
}
