package org.sparkbeton.spark.prepare;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.Success$;
import org.apache.spark.scheduler.AccumulableInfo;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.scheduler.SparkListenerExecutorMetricsUpdate;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.execution.SparkPlanInfo;
import org.apache.spark.sql.execution.metric.SQLMetricInfo;
import org.apache.spark.sql.execution.ui.SparkListenerSQLAdaptiveExecutionUpdate;
import org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart;
import org.sparkbeton.spark.write.BetonWriteMetrics;
import scala.Tuple4;
import scala.collection.JavaConverters;
import scala.collection.Seq;

/**
 * Feeds a {@link ProgressModel} from Spark's listener events: the beton write's task metrics
 * ({@link BetonWriteMetrics}), live from executor heartbeats and final at each task's end. Heartbeats carry a running
 * task's metrics by accumulator id only, so the ids come from the write's SQL plan (the event that starts its
 * execution names each metric). The write's jobs are those of a job group: their tasks' ends are counted, and
 * {@link #awaitJobsEnded} waits until the last of them has been seen (listener events are delivered asynchronously,
 * possibly after the job that caused them has returned).
 */
final class WriteProgressListener extends SparkListener {
  private final ProgressModel model;
  private final String jobGroup;
  /** accumulator id to metric description, for the metrics a progress display needs */
  private final Map<Long, String> metrics = new ConcurrentHashMap<>();
  private final Set<Integer> jobs = ConcurrentHashMap.newKeySet();
  private final Set<Integer> stages = ConcurrentHashMap.newKeySet();
  private final Set<Integer> endedJobs = ConcurrentHashMap.newKeySet();

  WriteProgressListener(ProgressModel model, String jobGroup) {
    this.model = model;
    this.jobGroup = jobGroup;
  }

  @Override
  public void onOtherEvent(SparkListenerEvent event) {
    if (event instanceof SparkListenerSQLExecutionStart start) {
      collect(start.sparkPlanInfo());
    } else if (event instanceof SparkListenerSQLAdaptiveExecutionUpdate update) {
      collect(update.sparkPlanInfo());
    }
  }

  private void collect(SparkPlanInfo plan) {
    for (SQLMetricInfo m : JavaConverters.seqAsJavaList(plan.metrics())) {
      if (Metric.of(m.name()) != null) {
        metrics.put(m.accumulatorId(), m.name());
      }
    }
    JavaConverters.seqAsJavaList(plan.children()).forEach(this::collect);
  }

  @Override
  public void onJobStart(SparkListenerJobStart job) {
    if (job.properties() != null && jobGroup.equals(job.properties().getProperty("spark.jobGroup.id"))) {
      jobs.add(job.jobId());
      JavaConverters.seqAsJavaList(job.stageIds()).forEach(stage -> stages.add((Integer) stage));
    }
  }

  @Override
  public void onExecutorMetricsUpdate(SparkListenerExecutorMetricsUpdate update) {
    // the updates' Seq is scala.collection.Seq on Scala 2.12, an immutable one on 2.13: this bound takes both
    for (Tuple4<Object, Object, Object, ? extends Seq<AccumulableInfo>> task
        : JavaConverters.seqAsJavaList(update.accumUpdates())) {
      WriteCounts counts = counts(task._4(), 0);
      if (counts != null) {
        model.running((Long) task._1(), counts);
      }
    }
  }

  @Override
  public void onTaskEnd(SparkListenerTaskEnd end) {
    if (!stages.contains(end.stageId())) {
      return;
    }
    long task = end.taskInfo().taskId();
    if (end.reason() == Success$.MODULE$) {
      // a metric that stayed 0 is left out of the task's values (and a failed task's SQL metrics are not reported)
      long bytes = end.taskMetrics() == null ? 0 : end.taskMetrics().outputMetrics().bytesWritten();
      WriteCounts counts = counts(end.taskInfo().accumulables(), bytes);
      model.succeeded(task, counts == null ? new WriteCounts(0, 0, 0, 0, 0, bytes) : counts);
    } else {
      model.failed(task);
    }
  }

  @Override
  public void onJobEnd(SparkListenerJobEnd job) {
    if (jobs.contains(job.jobId())) {
      synchronized (this) {
        endedJobs.add(job.jobId());
        notifyAll();
      }
    }
  }

  /**
   * Waits until every job of the group that started has ended as far as this listener knows, so that its counts are
   * final; false if that took longer than {@code timeout} (or no job started).
   */
  synchronized boolean awaitJobsEnded(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (jobs.isEmpty() || !endedJobs.containsAll(jobs)) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      wait(Math.max(1, left / 1_000_000));
    }
    return true;
  }

  /** A task's write counts from its accumulator values; null when none of them is a write metric. */
  private WriteCounts counts(Seq<AccumulableInfo> infos, long bytes) {
    Map<Metric, Long> values = new HashMap<>();
    for (AccumulableInfo info : JavaConverters.seqAsJavaList(infos)) {
      String name = metrics.get(info.id());
      if (name == null && info.name().isDefined()) {
        name = info.name().get();
      }
      Metric metric = name == null ? null : Metric.of(name);
      if (metric != null && info.update().isDefined() && info.update().get() instanceof Number n) {
        values.put(metric, n.longValue());
      }
    }
    if (values.isEmpty()) {
      return null;
    }
    return new WriteCounts(values.getOrDefault(Metric.WRITTEN, 0L), values.getOrDefault(Metric.SKIPPED, 0L),
        values.getOrDefault(Metric.QUARANTINED, 0L), values.getOrDefault(Metric.BAD_IMAGES, 0L),
        values.getOrDefault(Metric.SHARDS, 0L), bytes);
  }

  /** The write metrics the counts come from, by description. */
  private enum Metric {
    WRITTEN(BetonWriteMetrics.SAMPLES_WRITTEN), SKIPPED(BetonWriteMetrics.ROWS_SKIPPED),
    QUARANTINED(BetonWriteMetrics.ROWS_QUARANTINED), BAD_IMAGES(BetonWriteMetrics.ROWS_WITH_BAD_IMAGES),
    SHARDS(BetonWriteMetrics.SHARD_FILES_WRITTEN);

    private final String description;

    Metric(String description) {
      this.description = description;
    }

    static Metric of(String description) {
      for (Metric m : values()) {
        if (m.description.equals(description)) {
          return m;
        }
      }
      return null;
    }
  }
}
