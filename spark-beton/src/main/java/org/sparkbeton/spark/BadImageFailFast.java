package org.sparkbeton.spark;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.ExceptionFailure;
import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.sparkbeton.spark.write.BadImageException;
import scala.collection.JavaConverters;

/**
 * Stops a beton write at its first bad image. A bad image fails every attempt of its task the same way, and Spark
 * 3.5 retries a failed task up to {@code spark.task.maxFailures} times (4 on a cluster) with no public way for a
 * task to say "do not retry": so this driver-side listener, registered for one save, cancels the write's job as soon
 * as a task of it fails with a {@link BadImageException}. The save then throws that bad image at the top of its
 * failure (see {@link #failure}), whether the job was cancelled here or aborted by Spark first (local mode does not
 * retry, and aborts at once).
 */
final class BadImageFailFast extends SparkListener implements AutoCloseable {
  /** Local property that marks the jobs of one save, so that other threads' jobs are left alone. */
  static final String PROPERTY = "spark.beton.write.save";

  private final SparkContext sc;
  private final String token;
  private final String previous;
  /** stage id to job id, for the jobs of this save */
  private final Map<Integer, Integer> stages = new ConcurrentHashMap<>();
  private volatile BadImageException firstBadImage;

  private BadImageFailFast(SparkContext sc, String token) {
    this.sc = sc;
    this.token = token;
    this.previous = sc.getLocalProperty(PROPERTY);
  }

  /** Watches the jobs this thread starts until {@link #close}. */
  static BadImageFailFast watch(SparkContext sc) {
    BadImageFailFast guard = new BadImageFailFast(sc, java.util.UUID.randomUUID().toString());
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
    if (job == null || firstBadImage != null || !(task.reason() instanceof ExceptionFailure f)) {
      return;
    }
    BadImageException bad = BadImageException.fromTaskFailure(f.className(), f.description(), null);
    if (bad != null) {
      firstBadImage = bad;
      sc.cancelJob(job, "because a task met a bad image, which fails every attempt the same way: " + bad.getMessage());
    }
  }

  /**
   * The bad image a failed save ran into, thrown again with the save's failure as its cause: from the failure's
   * causes (Spark aborted the job with the task's exception), else the one this listener cancelled the job for.
   * Null when the save failed on something else.
   */
  BadImageException failure(Throwable saveFailure) {
    BadImageException bad = BadImageException.in(saveFailure);
    if (bad == null) {
      bad = firstBadImage;
    }
    return bad == null ? null : bad.rethrownWith(saveFailure);
  }

  @Override
  public void close() {
    sc.removeSparkListener(this);
    sc.setLocalProperty(PROPERTY, previous);
  }
}
