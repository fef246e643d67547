package org.sparkbeton.spark.write;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * CPU time of every thread of this process, JVM-internal ones included (JIT compilers, GC workers), from
 * Linux's {@code /proc/self/task}: who else uses the 2 cores while a write's tasks run. Threads are grouped by
 * name with digits dropped ("Executor task launch worker for task 3.0 in stage 1.0" and "C2 CompilerThread0"
 * become one group each). Linux only; elsewhere every snapshot is empty. For {@link WriterBenchmark}.
 */
final class ThreadCpu {
  /** Ticks per second of the stat file's utime/stime (USER_HZ, 100 on every Linux that matters here). */
  private static final double TICK_MS = 10;

  private ThreadCpu() {}

  /** CPU ms per thread id, with each thread's name. */
  record Snapshot(Map<String, Double> cpuMs, Map<String, String> names) {}

  static Snapshot take() {
    Map<String, Double> cpu = new HashMap<>();
    Map<String, String> names = new HashMap<>();
    try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
      for (Path t : (Iterable<Path>) tasks::iterator) {
        try {
          String stat = Files.readString(t.resolve("stat"));
          // "tid (comm) state ... utime stime ...": comm may hold spaces and parentheses, so cut at the last ')'
          int close = stat.lastIndexOf(')');
          String[] rest = stat.substring(close + 2).split(" ");
          double ms = (Long.parseLong(rest[11]) + Long.parseLong(rest[12])) * TICK_MS; // fields 14 and 15
          String id = t.getFileName().toString();
          cpu.put(id, ms);
          names.put(id, stat.substring(stat.indexOf('(') + 1, close));
        } catch (IOException | RuntimeException gone) {
          // the thread ended between the listing and the read
        }
      }
    } catch (IOException notLinux) {
      // no /proc: nothing to attribute
    }
    return new Snapshot(cpu, names);
  }

  /** CPU ms used between two snapshots, per thread group (threads that started in between count from zero). */
  static Map<String, Double> between(Snapshot before, Snapshot after) {
    Map<String, Double> groups = new TreeMap<>();
    after.cpuMs.forEach((id, ms) -> {
      double used = ms - before.cpuMs.getOrDefault(id, 0.0);
      if (used > 0) {
        groups.merge(group(after.names.get(id)), used, Double::sum);
      }
    });
    return groups;
  }

  /** Linux keeps 15 characters of a thread's name; digits are dropped so that pools fall into one group. */
  static String group(String name) {
    return name.replaceAll("[0-9]+", "#").trim();
  }
}
