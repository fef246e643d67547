package org.sparkbeton.spark.write;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

/**
 * Where a Spark write's wall time goes, from the scheduler's own task records: before the first task starts
 * (listing the input, planning, scheduling), the tasks themselves (their CPU per row, and how much of their
 * run time they were off the CPU: the 2 cores are shared with the driver, the JIT and the GC), and after the
 * last one (commit, manifest). Compared with the plain loop's CPU per photo, it says whether Spark costs per
 * row (inside the tasks) or around them. For {@link WriterBenchmark}.
 */
final class TaskTimes extends SparkListener {
  /** One task: launch and finish (epoch ms), executor run time (ms), executor CPU time (ns). */
  private record Task(long launch, long finish, long runMs, long cpuNanos) {}

  /** One write: wall ms before the first task, the tasks' span, after the last one; CPU and run time sums. */
  record Job(long beforeMs, long spanMs, long afterMs, long wallMs, double taskCpuMs, double taskRunMs, int tasks) {}

  private final List<Task> tasks = new ArrayList<>();

  @Override
  public synchronized void onTaskEnd(SparkListenerTaskEnd end) {
    if (end.taskMetrics() != null) {
      tasks.add(new Task(end.taskInfo().launchTime(), end.taskInfo().finishTime(), end.taskMetrics().executorRunTime(),
          end.taskMetrics().executorCpuTime()));
    }
  }

  synchronized void clear() {
    tasks.clear();
  }

  /** The write that ran from {@code startMs} to {@code endMs} (call after the listener bus has drained). */
  synchronized Job job(long startMs, long endMs) {
    long first = Long.MAX_VALUE;
    long last = 0;
    double cpu = 0;
    double run = 0;
    for (Task t : tasks) {
      first = Math.min(first, t.launch);
      last = Math.max(last, t.finish);
      cpu += t.cpuNanos / 1e6;
      run += t.runMs;
    }
    if (tasks.isEmpty()) {
      throw new IllegalStateException("no task of the write was seen by the listener");
    }
    return new Job(first - startMs, last - first, endMs - last, endMs - startMs, cpu, run, tasks.size());
  }

  /** Medians over {@code jobs} of each part, next to the plain loop's CPU per photo ({@code plainCpuMs}). */
  static void print(String what, List<Job> jobs, int rows, double plainCpuMs) {
    System.out.printf("%nwhere the %s writes' time goes (median of %d writes of %d rows, 8 tasks)%n", what, jobs.size(),
        rows);
    System.out.printf("%-66s %10.0f%n", "wall ms", median(jobs, j -> j.wallMs));
    System.out.printf("%-66s %10.0f%n", "  before the first task starts (listing, planning, scheduling), ms",
        median(jobs, j -> j.beforeMs));
    System.out.printf("%-66s %10.0f%n", "  first task start to last task end, ms", median(jobs, j -> j.spanMs));
    System.out.printf("%-66s %10.0f%n", "  after the last task (commit, manifest), ms", median(jobs, j -> j.afterMs));
    System.out.printf("%-66s %10.2f%n", "tasks' run time / (2 cores x their span)",
        median(jobs, j -> j.taskRunMs / (2.0 * j.spanMs)));
    System.out.printf("%-66s %10.2f%n", "tasks' share of run time off the CPU", median(jobs, j -> 1 - j.taskCpuMs / j.taskRunMs));
    System.out.printf("%-66s %10.3f%n", "tasks' CPU ms per row", median(jobs, j -> j.taskCpuMs / rows));
    System.out.printf("%-66s %10.3f%n", "plain Java loop's CPU ms per photo (1 thread, same image step)", plainCpuMs);
  }

  private static double median(List<Job> jobs, ToDoubleFunction<Job> part) {
    double[] v = jobs.stream().mapToDouble(part).sorted().toArray();
    int n = v.length;
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }
}
