package org.sparkbeton.spark.write;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.sparkbeton.format.JsonStrings;

/**
 * Mutual exclusion of jobs publishing to one dataset: {@code _manifest.lock} in the dataset directory, held
 * while a job reads the current manifest, builds the next one and publishes it (milliseconds), so two
 * concurrent appends both land instead of the last publisher silently dropping the other's shards.
 *
 * <p>Taking the lock is an exclusive create: {@code O_CREAT|O_EXCL} on local files, {@code create} without
 * overwrite on HDFS (atomic in the NameNode). Object stores have no atomic create-if-absent in Hadoop 3.3
 * (S3A checks, then PUTs), so there the lock narrows the window but cannot close it: coordinate concurrent
 * appends to an object-store dataset outside Spark. A job that dies while holding the lock leaves the file;
 * the next job waits up to its timeout, then fails naming the file and its owner so a user can delete it.
 */
final class ManifestLock implements AutoCloseable {
  static final String FILE = "_manifest.lock";
  private static final long MAX_BACKOFF_MILLIS = 1000;

  private final FileSystem fs;
  private final Path path;

  private ManifestLock(FileSystem fs, Path path) {
    this.fs = fs;
    this.path = path;
  }

  /** Takes the lock of {@code dir}, waiting up to {@code timeoutMillis} for another holder to release it. */
  static ManifestLock acquire(FileSystem fs, Path dir, String owner, long timeoutMillis) throws IOException {
    Path path = new Path(dir, FILE);
    StringBuilder json = new StringBuilder("{\"owner\":");
    JsonStrings.append(json, owner);
    json.append(",\"host\":");
    JsonStrings.append(json, host());
    json.append(",\"since\":\"").append(Instant.now()).append("\"}\n");
    byte[] content = json.toString().getBytes(StandardCharsets.UTF_8);
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
    long backoff = 10;
    while (true) {
      if (tryCreate(fs, path, content)) {
        return new ManifestLock(fs, path);
      }
      if (System.nanoTime() > deadline) {
        throw new IOException("Dataset " + dir + " is locked by another job publishing to it (" + holder(fs, path)
            + ") and was not released within " + timeoutMillis / 1000 + " s; if that job is no longer running,"
            + " delete " + path + " (option manifestLockTimeout sets the wait)");
      }
      try {
        Thread.sleep(backoff);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("Interrupted while waiting for " + path, e);
      }
      backoff = Math.min(MAX_BACKOFF_MILLIS, backoff * 2);
    }
  }

  private static boolean tryCreate(FileSystem fs, Path path, byte[] content) throws IOException {
    // locally an atomic create-new (Hadoop's own local create checks, then opens), no .crc and no forked chmod
    try (OutputStream out = RawFileSystems.create(RawFileSystems.withoutChecksums(fs), path, false)) {
      out.write(content);
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    } catch (IOException e) {
      if (fs.exists(path)) { // some file systems report an existing file with a plain IOException
        return false;
      }
      throw e;
    }
  }

  private static String holder(FileSystem fs, Path path) {
    try (InputStream in = fs.open(path)) {
      return new String(in.readNBytes(512), StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      return "owner unknown: " + e.getMessage();
    }
  }

  private static String host() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "unknown host";
    }
  }

  /** Releases the lock. */
  @Override
  public void close() throws IOException {
    fs.delete(path, false);
  }
}
