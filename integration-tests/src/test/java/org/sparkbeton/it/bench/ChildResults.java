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

  /** CPU time of every thread of this process, in nanoseconds. */
  static long cpu() {
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    return os.getProcessCpuTime();
  }
}
