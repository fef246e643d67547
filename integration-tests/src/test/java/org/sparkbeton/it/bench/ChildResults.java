package org.sparkbeton.it.bench;

import java.lang.management.ManagementFactory;

/**
 * What the benchmarks' child JVMs print and time with: {@code RESULT name<TAB>ms} lines, which the parent collects,
 * and the process's CPU time. It refers to no Spark class, so a child on the loader's own class path can use it.
 */
final class ChildResults {
  private ChildResults() {}

  static void result(String name, double ms) {
    System.out.println("RESULT " + name + "\t" + ms);
  }

  static double ms(long nanos) {
    return nanos / 1e6;
  }

  /**
   * CPU time of every thread of this process, in nanoseconds: on Linux from {@code /proc/self/stat} (user and
   * system time, in 10 ms ticks), which a child reads at its {@code main} without loading anything; elsewhere from
   * the platform's MXBean, whose first use loads and initialises ~50 ms of management classes (cgroup metrics
   * included), time that would otherwise count as the measured work's.
   */
  static long cpu() {
    try {
      byte[] stat;
      try (java.io.FileInputStream in = new java.io.FileInputStream("/proc/self/stat")) {
        stat = in.readAllBytes();
      }
      String text = new String(stat, java.nio.charset.StandardCharsets.US_ASCII);
      // after the command name in parentheses: state, ppid, ... utime is the 14th field, stime the 15th
      String[] fields = text.substring(text.lastIndexOf(')') + 2).split(" ");
      long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
      return ticks * 10_000_000L; // USER_HZ is 100 on Linux
    } catch (java.io.IOException | RuntimeException notLinux) {
      var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      return os.getProcessCpuTime();
    }
  }
}
