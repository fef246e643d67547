package org.sparkbeton.spark.write;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.sparkbeton.format.JsonStrings;
import org.sparkbeton.format.dataset.DatasetFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running job's marker in its dataset directory, {@code _job-<job>.live} (see {@link DatasetFiles}): written by
 * the driver before any task runs and rewritten every {@link DatasetFiles#HEARTBEAT} by a daemon thread, so that
 * another job's cleanup, or {@code beton gc}, leaves this job's files alone; deleted when the job ends. A driver that
 * dies leaves a marker that goes stale, and its files become orphans. Rewriting (rather than touching the time)
 * works on every Hadoop file system, object stores included.
 */
final class JobMarker implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(JobMarker.class);
  /** How long {@link #close} waits for a beat under way before interrupting it. */
  static final Duration BEAT_GRACE = Duration.ofSeconds(10);

  private final FileSystem fs;
  private final Path path;
  private final String job;
  private final Instant started = Instant.now();
  private final ScheduledExecutorService heartbeat;
  /** Set once {@link #close} interrupts a beat that outlived {@link #BEAT_GRACE}. */
  private volatile boolean closing;

  private JobMarker(FileSystem fs, Path path, String job) {
    this.fs = fs;
    this.path = path;
    this.job = job;
    this.heartbeat = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "beton-job-marker-" + job);
      t.setDaemon(true);
      return t;
    });
  }

  /** Writes the marker of {@code job} in {@code dir} (created if missing) and starts its heartbeat. */
  static JobMarker start(FileSystem fs, Path dir, String job) throws IOException {
    return start(fs, dir, job, DatasetFiles.HEARTBEAT);
  }

  /** {@link #start(FileSystem, Path, String)} beating every {@code every} (tests beat faster). */
  static JobMarker start(FileSystem fs, Path dir, String job, Duration every) throws IOException {
    FileSystem raw = RawFileSystems.withoutChecksums(fs);
    raw.mkdirs(dir);
    JobMarker marker = new JobMarker(raw, new Path(dir, DatasetFiles.jobMarker(job)), job);
    marker.write();
    long millis = every.toMillis();
    marker.heartbeat.scheduleWithFixedDelay(marker::beat, millis, millis, TimeUnit.MILLISECONDS);
    return marker;
  }

  private void beat() {
    try {
      write();
    } catch (IOException | RuntimeException e) {
      if (closing) {
        LOG.debug("beton write {}: job marker's last beat interrupted as the job ends", job, e);
        return;
      }
      // a missed beat or two is harmless (the marker stays fresh for twenty); keep trying
      LOG.warn("beton write {}: could not rewrite its job marker {}", job, path, e);
    }
  }

  private void write() throws IOException {
    StringBuilder json = new StringBuilder("{\"job\":");
    JsonStrings.append(json, job);
    json.append(",\"started\":\"").append(started).append("\",\"heartbeat\":\"").append(Instant.now())
        .append("\"}\n");
    try (OutputStream out = RawFileSystems.create(fs, path, true)) {
      out.write(json.toString().getBytes(StandardCharsets.UTF_8));
    }
  }

  /**
   * Stops the heartbeat and deletes the marker. A beat under way is let finish rather than interrupted: an
   * interrupted write on an object store (S3A deleting the parent's directory markers) fails loudly, which on a
   * job that succeeded is noise. Only a beat still running after {@link #BEAT_GRACE} is interrupted, and its
   * failure is then expected and not logged. Either way no beat runs when the marker is deleted, so none
   * writes it again.
   */
  @Override
  public void close() throws IOException {
    heartbeat.shutdown(); // cancels the beats to come
    try {
      if (!heartbeat.awaitTermination(BEAT_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
        closing = true;
        heartbeat.shutdownNow();
        heartbeat.awaitTermination(BEAT_GRACE.toMillis(), TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    fs.delete(path, false);
  }
}
