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
 * of the writer's ring of waiting rows; its bytes are valid until the slot is settled, which happens only after that
 * row was encoded and written. The slots' buffers share a {@link ReadAheadBudget} of {@link #BUDGET_BYTES} beyond
 * their first {@link ImageFileReader#INITIAL_BYTES}: large files are read ahead only as far as it allows. What a read
 * threw (a missing file: bad input; any other I/O error: the
 * task fails) is thrown when its row's turn comes, as a read done in place would have thrown it.
 */
final class ImageReadAhead implements AutoCloseable {
  /** The direct memory a task's slots may hold for files read ahead, beyond their first buffers. */
  static final long BUDGET_BYTES = 64L << 20;

  private static final AtomicInteger POOLS = new AtomicInteger();

  private final ReadAheadBudget budget;
  private final ImageFileReader[] readers;
  private final Future<?>[] reads;
  private final ByteBuffer[] bytes;
  private final IOException[] ioErrors;
  private final RuntimeException[] errors;
  private final ImageFiles[] slots;
  private final ExecutorService threads;

  ImageReadAhead(Configuration hadoopConf, int depth, int partition) {
    this(hadoopConf, depth, partition, BUDGET_BYTES);
  }

  ImageReadAhead(Configuration hadoopConf, int depth, int partition, long budgetBytes) {
    if (depth < 1) {
      throw new IllegalArgumentException("read-ahead depth must be positive, got " + depth);
    }
    budget = new ReadAheadBudget(budgetBytes, depth);
    readers = new ImageFileReader[depth];
    for (int k = 0; k < depth; k++) {
      readers[k] = new ImageFileReader(hadoopConf, budget.slot(k));
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

  /**
   * Starts reading {@code location} into slot {@code k}, which must be free (never started, or settled). Slots are
   * started and settled in turn, 0, 1, ... depth - 1, 0, ... ({@link ReadAheadBudget}).
   */
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
   * Waits for slot {@code k}'s read and gives its bytes (the slot's buffer, valid until the slot is settled), or
   * throws what the read threw. The fields the read set are visible here: {@link Future#get} orders them.
   */
  ByteBuffer take(int k) throws IOException {
    try {
      reads[k].get();
    } catch (InterruptedException e) {
      // the read may still run: the slot stays started, and its buffer is not given back (settle refuses too)
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for an image file to be read");
    } catch (java.util.concurrent.ExecutionException e) {
      reads[k] = null;
      throw new IllegalStateException("image read failed outside the reader", e.getCause());
    }
    reads[k] = null;
    if (ioErrors[k] != null) {
      throw ioErrors[k];
    }
    if (errors[k] != null) {
      throw errors[k];
    }
    return bytes[k];
  }

  /**
   * Ends slot {@code k}'s turn once its row was encoded and stored, or refused: waits until the slot reads nothing (a
   * row refused before its image was taken leaves its read running, whose outcome is dropped), then gives back the
   * memory its buffer holds beyond what the budget lets a slot keep. The slot's bytes are gone after this.
   */
  void settle(int k) throws InterruptedIOException {
    Future<?> read = reads[k];
    if (read != null) {
      try {
        read.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while waiting for an image file to be read");
      } catch (java.util.concurrent.ExecutionException e) {
        // the outcome is dropped: the row it was for is already refused
      }
      reads[k] = null;
    }
    bytes[k] = null;
    readers[k].shrink();
    budget.taken(k);
  }

  /** The budget the slots' buffers share. */
  ReadAheadBudget budget() {
    return budget;
  }

  /** Stops the threads, interrupting reads still running (an aborted task's); the buffers go with this object. */
  @Override
  public void close() {
    threads.shutdownNow();
  }
}
