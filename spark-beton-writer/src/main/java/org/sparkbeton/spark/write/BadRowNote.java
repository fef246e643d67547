package org.sparkbeton.spark.write;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.sparkbeton.format.dataset.DatasetFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bad row that failed a partition's task, noted in the dataset directory ({@link DatasetFiles#badRowNote}) before
 * the failure leaves the task, so that a retry of the partition learns of it before reading a row: a bad row fails
 * every attempt alike, and Spark retries a failed task up to {@code spark.task.maxFailures} times. Where the save's
 * driver watches for bad rows ({@link #WATCHED_PROPERTY}), the retry waits there for the job's cancellation instead of
 * reading the partition again; elsewhere it fails at once with the noted row. The job's end deletes the note with the
 * job's other unlisted files.
 */
public final class BadRowNote {
  /**
   * Local property set by a save whose driver cancels its job at the first bad row (spark-beton's BadRowFailFast):
   * Spark hands it to every task of the job.
   */
  public static final String WATCHED_PROPERTY = "spark.beton.write.save";
  /** How long a watched retry waits for the cancellation before failing with the noted row itself. */
  static final long CANCEL_WAIT_MILLIS = 60_000;

  private static final Logger LOG = LoggerFactory.getLogger(BadRowNote.class);
  private static final long POLL_MILLIS = 10;

  private final FileSystem fs;
  private final Path path;

  BadRowNote(FileSystem fs, Path dir, String jobId, int partition) {
    this.fs = RawFileSystems.withoutChecksums(fs);
    this.path = new Path(dir, DatasetFiles.badRowNote(jobId, partition));
  }

  /**
   * Notes {@code bad} for the partition's retries and returns it. A note that cannot be written is logged and left
   * out: the retries then read the partition and fail at the same row.
   */
  <E extends RuntimeException & BadRow> E record(E bad) {
    try (OutputStream out = RawFileSystems.create(fs, path, true)) {
      out.write((bad.getClass().getName() + "\n" + bad.getMessage()).getBytes(StandardCharsets.UTF_8));
    } catch (IOException | RuntimeException e) {
      LOG.warn("Could not note the bad row at {}; the task's retries will read its partition again", path, e);
    }
    return bad;
  }

  /** The bad row an earlier attempt of the partition noted, or null. */
  BadRow read() throws IOException {
    String text;
    try (InputStream in = fs.open(path)) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (FileNotFoundException e) {
      return null;
    }
    int newline = text.indexOf('\n');
    return newline < 0 ? null : BadRow.fromTaskFailure(text.substring(0, newline), text.substring(newline + 1));
  }

  /**
   * Waits until {@code killed} holds, checking every 10 ms, for at most {@code timeoutMillis}: whether it held. An
   * interrupt (Spark's kill, where it interrupts tasks) counts as killed.
   */
  static boolean awaitKill(BooleanSupplier killed, long timeoutMillis) {
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
    while (!killed.getAsBoolean()) {
      if (System.nanoTime() - deadline >= 0) {
        return false;
      }
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return true;
      }
    }
    return true;
  }
}
