package org.sparkbeton.spark;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.ExceptionFailure;
import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.sparkbeton.spark.write.BadImageException;
import org.sparkbeton.spark.write.BadRow;
import org.sparkbeton.spark.write.BadRowNote;
import org.sparkbeton.spark.write.BadValueException;
import scala.collection.JavaConverters;

/**
 * Stops a beton write at its first bad row: a bad image ({@link BadImageException}) or a value that cannot be
 * stored ({@link BadValueException}: a null, an array not of its shape). Either fails every attempt of its task the
 * same way, and Spark 3.5 retries a failed task up to {@code spark.task.maxFailures} times (4 on a cluster) with no
 * public way for a task to say "do not retry": so this driver-side listener, registered for one save, cancels the
 * write's job as soon as a task of it fails with one. A retry Spark starts before the cancellation arrives finds the
 * failed attempt's {@link BadRowNote} and waits for it without reading its partition again. The save then throws
 * that failure at the top of its own (see {@link #failure}), whether the job was cancelled here or aborted by Spark
 * first (local mode does not retry, and aborts at once).
 */
final class BadRowFailFast extends SparkListener implements AutoCloseable {
  /**
   * Local property that marks the jobs of one save, so that other threads' jobs are left alone; it also tells a
   * retry of a task that met a bad row to wait for this cancellation ({@link BadRowNote}).
   */
  static final String PROPERTY = BadRowNote.WATCHED_PROPERTY;

  private final SparkContext sc;
  private final String token;
  private final String previous;
  /** stage id to job id, for the jobs of this save */
  private final Map<Integer, Integer> stages = new ConcurrentHashMap<>();
  private volatile BadRow firstBadRow;

  private BadRowFailFast(SparkContext sc, String token) {
    this.sc = sc;
    this.token = token;
    this.previous = sc.getLocalProperty(PROPERTY);
  }

  /** Watches the jobs this thread starts until {@link #close}. */
  static BadRowFailFast watch(SparkContext sc) {
    BadRowFailFast guard = new BadRowFailFast(sc, java.util.UUID.randomUUID().toString());
    sc.addSparkListener(guard);
    sc.setLocalProperty(PROPERTY, guard.token);
    return guard;
  }

  @Override
  public void onJobStart(SparkListenerJobStart job) {
    if (job.properties() != null && token.equals(job.properties().getProperty(PROPERTY))) {
      for (Object stage : JavaConverters.seqAsJavaList(job.stageIds())) {
        stages.put((Integer) stage, job.jobId());
      }
    }
  }

  @Override
  public void onTaskEnd(SparkListenerTaskEnd task) {
    Integer job = stages.get(task.stageId());
    if (job == null || firstBadRow != null || !(task.reason() instanceof ExceptionFailure f)) {
      return;
    }
    BadRow bad = BadRow.fromTaskFailure(f.className(), f.description());
    if (bad != null) {
      firstBadRow = bad;
      sc.cancelJob(job, "because a task met a bad row, which fails every attempt the same way: " + bad.getMessage());
    }
  }

  /**
   * The bad row a failed save ran into, thrown again with the save's failure as its cause: from the failure's causes
   * (Spark aborted the job with the task's exception), else the one this listener cancelled the job for. Null when
   * the save failed on something else.
   */
  IllegalArgumentException failure(Throwable saveFailure) {
    BadRow bad = BadRow.in(saveFailure);
    if (bad == null) {
      bad = firstBadRow;
    }
    return bad == null ? null : bad.rethrownWith(saveFailure);
  }

  @Override
  public void close() {
    sc.removeSparkListener(this);
    sc.setLocalProperty(PROPERTY, previous);
  }
}
