package org.sparkbeton.spark.write;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;

/**
 * Image files of a remote file system fetched ahead of the rows that name them, {@code depth} at a time, for one task.
 * A task reads its rows' files one after the other; on an object store each file costs a round trip or two (S3A's
 * HEAD and GET: about 4 ms against a local S3 server on the development VM, more across a network), during which
 * the task's core waits. {@link BetonDataWriter} keeps the last {@code depth} rows of a path column waiting while
 * their files are read on this object's threads, and encodes each row, in order, once its file is in.
 *
 * <p>Slot {@code k} (a reader with its own direct buffer, made once) holds the file of the row in place {@code k}
 * of the writer's ring of waiting rows; its bytes are valid until the slot is started again, which happens only
 * after that row was encoded and written. What a read threw (a missing file: bad input; any other I/O error: the
 * task fails) is thrown when its row's turn comes, as a read done in place would have thrown it.
 */
final class ImageReadAhead implements AutoCloseable {
  private static final AtomicInteger POOLS = new AtomicInteger();

  private final ImageFileReader[] readers;
  private final Future<?>[] reads;
  private final ByteBuffer[] bytes;
  private final IOException[] ioErrors;
  private final RuntimeException[] errors;
  private final ImageFiles[] slots;
  private final ExecutorService threads;

  ImageReadAhead(Configuration hadoopConf, int depth, int partition) {
    if (depth < 1) {
      throw new IllegalArgumentException("read-ahead depth must be positive, got " + depth);
    }
    readers = new ImageFileReader[depth];
    for (int k = 0; k < depth; k++) {
      readers[k] = new ImageFileReader(hadoopConf);
    }
    reads = new Future<?>[depth];
    bytes = new ByteBuffer[depth];
    ioErrors = new IOException[depth];
    errors = new RuntimeException[depth];
    slots = new ImageFiles[depth];
    for (int k = 0; k < depth; k++) {
      int slot = k;
      slots[k] = location -> take(slot);
    }
    int pool = POOLS.incrementAndGet();
    AtomicInteger thread = new AtomicInteger();
    threads = Executors.newFixedThreadPool(depth, r -> {
      Thread t = new Thread(r, "beton-image-read-" + pool + "-p" + partition + "-" + thread.incrementAndGet());
      t.setDaemon(true); // never keeps an executor's JVM alive; close() stops them anyway
      return t;
    });
  }

  /**
   * Slot {@code k} as the encoder reads files: {@link #take} of what it read ahead (the location the row names is the
   * one the read was started with).
   */
  ImageFiles slot(int k) {
    return slots[k];
  }

  /** Starts reading {@code location} into slot {@code k}, which must be free (never started, or settled). */
  void start(int k, String location) {
    bytes[k] = null;
    ioErrors[k] = null;
    errors[k] = null;
    ImageFileReader reader = readers[k];
    reads[k] = threads.submit(() -> {
      try {
        bytes[k] = reader.read(location);
      } catch (IOException e) {
        ioErrors[k] = e;
      } catch (RuntimeException e) {
        errors[k] = e;
      }
    });
  }

  /**
   * Waits for slot {@code k}'s read and gives its bytes (a view of the slot's buffer, valid until the slot is started
   * again), or throws what the read threw. The fields the read set are visible here: {@link Future#get} orders them.
   */
  ByteBuffer take(int k) throws IOException {
    try {
      reads[k].get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for an image file to be read");
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException("image read failed outside the reader", e.getCause());
    } finally {
      reads[k] = null;
    }
    if (ioErrors[k] != null) {
      throw ioErrors[k];
    }
    if (errors[k] != null) {
      throw errors[k];
    }
    return bytes[k];
  }

  /**
   * Waits until slot {@code k} reads nothing (its read, if any, done; its outcome dropped): a row refused before its
   * image was taken leaves its read running, and the slot's buffer must not be read into twice at once.
   */
  void settle(int k) throws InterruptedIOException {
    Future<?> read = reads[k];
    if (read == null) {
      return;
    }
    try {
      read.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for an image file to be read");
    } catch (java.util.concurrent.ExecutionException e) {
      // the outcome is dropped: the row it was for is already refused
    } finally {
      reads[k] = null;
    }
  }

  /** Stops the threads, interrupting reads still running (an aborted task's); the buffers go with this object. */
  @Override
  public void close() {
    threads.shutdownNow();
  }
}
