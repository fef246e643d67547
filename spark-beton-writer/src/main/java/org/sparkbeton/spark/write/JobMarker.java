package org.sparkbeton.spark.write;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
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

  private final FileSystem fs;
  private final Path path;
  private final String job;
  private final Instant started = Instant.now();
  private final ScheduledExecutorService heartbeat;

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
    FileSystem raw = RawFileSystems.withoutChecksums(fs);
    raw.mkdirs(dir);
    JobMarker marker = new JobMarker(raw, new Path(dir, DatasetFiles.jobMarker(job)), job);
    marker.write();
    long every = DatasetFiles.HEARTBEAT.toMillis();
    marker.heartbeat.scheduleWithFixedDelay(marker::beat, every, every, TimeUnit.MILLISECONDS);
    return marker;
  }

  private void beat() {
    try {
      write();
    } catch (IOException | RuntimeException e) {
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

  /** Stops the heartbeat and deletes the marker. */
  @Override
  public void close() throws IOException {
    heartbeat.shutdownNow();
    try {
      heartbeat.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    fs.delete(path, false);
  }
}
