package org.sparkbeton.spark.prepare;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * The first call of {@code beton prepare} or {@code beton compact} to a remote store, made before Spark's job
 * starts, and a line on standard error while it goes unanswered. Hadoop's clients retry a store they cannot reach
 * before failing (S3A at Hadoop's defaults for about 15 minutes, which these jobs keep: their tasks retry too), and
 * that wait was silent: the command looked hung. Local paths are not called.
 */
final class StoreWaitNotice {
  /** How long the first call may go unanswered before the first line, and between the lines after it. */
  static final Duration FIRST = Duration.ofSeconds(20);
  static final Duration EVERY = Duration.ofSeconds(60);

  private StoreWaitNotice() {}

  /**
   * Looks {@code path} up in its store ({@code flag} names it in the lines, {@code tool} starts them); a path that
   * does not exist is an answer, whatever the command then makes of it. A store that fails the call throws.
   */
  static void reach(Configuration conf, String tool, String flag, String path, PrintStream err) throws IOException {
    reach(conf, tool, flag, path, err, FIRST, EVERY);
  }

  static void reach(Configuration conf, String tool, String flag, String path, PrintStream err, Duration first,
      Duration every) throws IOException {
    Path p = new Path(path);
    String scheme = p.toUri().getScheme();
    if (scheme == null || scheme.equals("file")) {
      return;
    }
    ScheduledExecutorService watch = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "beton-store-wait");
      t.setDaemon(true);
      return t;
    });
    long start = System.nanoTime();
    AtomicBoolean explained = new AtomicBoolean();
    watch.scheduleWithFixedDelay(() -> err.println(tool + ": " + flag + " " + path + ": " + waiting(scheme,
        Duration.ofNanos(System.nanoTime() - start), !explained.getAndSet(true))), first.toMillis(), every.toMillis(),
        TimeUnit.MILLISECONDS);
    try {
      p.getFileSystem(conf).getFileStatus(p);
    } catch (FileNotFoundException absent) {
      // an answer: the store is there
    } catch (IOException e) {
      throw new IOException(flag + " " + path + ": the store failed the first call: " + e.getMessage(), e);
    } finally {
      watch.shutdownNow();
    }
  }

  /** The line for a store that has not answered for {@code waited}; the first one ({@code explain}) says why. */
  static String waiting(String scheme, Duration waited, boolean explain) {
    String s = "the store has not answered for " + waited.toSeconds() + " s; still trying";
    if (!explain) {
      return s;
    }
    return s + " (Hadoop's client retries a store it cannot reach before failing"
        + (scheme.equals("s3a") ? "; S3A at Hadoop's defaults for about 15 minutes: bound it with BETON_JAVA_OPTS=\""
            + "-Dspark.hadoop.fs.s3a.attempts.maximum=2 -Dspark.hadoop.fs.s3a.retry.limit=3\", or look at"
            + " fs.s3a.endpoint" : "")
        + ")";
  }
}
