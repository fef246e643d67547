package org.sparkbeton.loader.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.sparkbeton.format.dataset.ShardChecksum;
import org.sparkbeton.format.dataset.ShardEntry;

/**
 * The node-local shard cache: one directory of complete, verified shard files, shared by every loader
 * and every process on the node under a byte budget for the whole directory. Files:
 * <ul>
 *   <li>{@code <key>.beton}: a complete shard whose checksum matched; immutable. The key is the shard's
 *       SHA-256 (see {@link #key}), so a shard is downloaded once whatever dataset or store names it, and a
 *       changed shard never reads a stale copy;
 *   <li>{@code <key>-<bytes>.part}: a download in progress, or one a failure interrupted (the next one
 *       resumes it); it counts as its full size, so a download never overruns the budget;
 *   <li>{@code <key>.lock}, never deleted: a process reading the shard holds a shared lock on it (a pin),
 *       one downloading or evicting it an exclusive lock. {@code .budget.lock}: held while a process
 *       counts the directory, evicts, creates a download or publishes one.
 * </ul>
 * Making room evicts the least recently used files (by modification time, set at every pin) that no
 * process holds. Each process enforces its own budget against the directory's total, so processes that
 * share a directory should pass the same budget; the default ({@link #defaultBudget}) is a property of the
 * directory's disk, not of a dataset, so loaders of different datasets that leave it unset agree on it.
 *
 * <p>When the room a download needs is held (pinned or downloading) by loaders of this process alone, none of
 * them is downloading, and none has released or completed a shard for {@link #STALL_MILLIS}, the wait fails
 * without waiting longer: such loaders are typically paused by the thread that now waits (a training loader
 * mid-epoch while a validation loader runs), so the room would never come. Room held by other processes is
 * waited for (10 minutes).
 *
 * <p>Java's file locks belong to the whole JVM, and closing any channel of a file drops all of the JVM's
 * locks on it; so one instance serves each directory per JVM ({@link #open}), holds at most one channel
 * per lock file, and lets one thread at a time take or change a key's lock. Waits poll with
 * {@code tryLock}: the threads are never interrupted (an interrupt closes a channel, which would drop
 * other threads' pins).
 */
public final class ShardCache implements AutoCloseable {
  static final long POLL_MILLIS = 20;
  /** How long loaders of this process may go without releasing or completing a shard before a wait on them fails. */
  static final long STALL_MILLIS = 60_000;
  /** The default budget's share of the free space of the directory's disk: the rest is left to other files. */
  static final double DISK_SHARE = 0.9;
  private static final Map<Path, ShardCache> OPEN = new HashMap<>();

  private final Path dir;
  private final FileChannel budgetChannel;
  private final ReentrantLock budgetMutex = new ReentrantLock();
  private final Map<String, Key> keys = new HashMap<>();
  private long waitMillis = 10 * 60_000L;
  private long stallMillis = STALL_MILLIS;
  /** When a loader of this process last unpinned a shard for good or published a download (nanoTime). */
  private volatile long lastProgress = System.nanoTime();
  /** Downloads this process runs now: while one runs, its loader is making progress. */
  private final AtomicInteger downloading = new AtomicInteger();
  private int refs;

  /** Writes a shard into a {@code .part} file: complete and verified on return, or throws. */
  @FunctionalInterface
  public interface Fetcher {
    void fetch(Path part) throws IOException, InterruptedException;
  }

  private static final class Key {
    final ReentrantLock lock = new ReentrantLock();
    final Condition changed = lock.newCondition();
    FileChannel channel; // open while busy or pinned
    boolean busy; // a thread of this JVM is taking or changing the key's file lock
    int pins;
    FileLock shared;
  }

  private ShardCache(Path dir) throws IOException {
    this.dir = dir;
    this.budgetChannel = FileChannel.open(dir.resolve(".budget.lock"), StandardOpenOption.CREATE,
        StandardOpenOption.READ, StandardOpenOption.WRITE);
  }

  /** The JVM's instance for {@code dir} (created if needed); {@link #close()} once per call. */
  public static ShardCache open(Path dir) throws IOException {
    createDirectory(dir);
    Path real = dir.toRealPath();
    synchronized (OPEN) {
      ShardCache c = OPEN.get(real);
      if (c == null) {
        c = new ShardCache(real);
        OPEN.put(real, c);
      }
      c.refs++;
      return c;
    }
  }

  /** Creates the cache directory, or says why {@code dir} cannot be one (e.g. a file of that name). */
  private static void createDirectory(Path dir) throws IOException {
    try {
      Files.createDirectories(dir);
    } catch (FileSystemException e) {
      String why = Files.exists(dir) && !Files.isDirectory(dir) ? "it is a file, not a directory" : e.toString();
      throw new IOException("Cannot use cacheDir " + dir + " as the shard cache: " + why + ". cacheDir names the"
          + " directory remote shards are staged into (created if missing; default <java.io.tmpdir>/beton-shard-cache)",
          e);
    }
  }

  /**
   * The budget of a directory whose loaders pass no cacheBytes: {@value #DISK_SHARE} of the space its disk has free,
   * plus what the cache already holds. It covers every dataset and process sharing the directory (a dataset's own
   * size would not: a second dataset's loader could never make room for its shards while the first holds its own);
   * a cache holding several datasets keeps them until the disk's allowance is reached, and evicts what no loader
   * holds, least recently used first, to stay within it.
   */
  public static long defaultBudget(Path dir) throws IOException {
    createDirectory(dir);
    long usable = Files.getFileStore(dir).getUsableSpace();
    long held = 0;
    for (CachedFile e : CachedFile.scan(dir)) {
      held += e.bytes();
    }
    return Math.max(1, (long) (DISK_SHARE * usable) + held);
  }

  /** The cache key of a shard: its SHA-256, or for a CRC32C manifest the CRC, size and a hash of its location. */
  public static String key(URI store, ShardEntry shard) {
    ShardChecksum c = shard.checksum();
    if (c.algorithm().equals(ShardChecksum.SHA256)) {
      return c.value();
    }
    return "crc32c-" + c.value() + "-" + shard.bytes() + "-" + Digests.sha256Hex(store + "/" + shard.path()).substring(0, 16);
  }

  public Path directory() {
    return dir;
  }

  /** How long a download waits for room held by other processes before failing (default 10 minutes). */
  void waitForRoom(long millis) {
    this.waitMillis = millis;
  }

  /** How long loaders of this process may make no progress before a wait on their room fails (default 60 s). */
  void stallAfter(long millis) {
    this.stallMillis = millis;
  }

  /** The complete file of {@code key}, whether or not it exists. */
  public Path file(String key) {
    return dir.resolve(key + ".beton");
  }

  /**
   * Pins {@code key} ({@code bytes} bytes): returns its complete file, which no process evicts until
   * {@link #unpin}. When no process on the node has it, this thread reserves room within {@code budget}
   * (evicting what no one holds, or waiting for it) and runs {@code fetcher}; when another process is
   * downloading it, waits for that download. {@code cancelled} is polled while waiting. {@code name} is the
   * shard as messages call it (its file name and dataset).
   */
  public Path pin(String key, String name, long bytes, long budget, Fetcher fetcher, BooleanSupplier cancelled)
      throws IOException, InterruptedException {
    Key k = key(key);
    k.lock.lock();
    try {
      while (true) {
        if (k.pins > 0) {
          k.pins++;
          return file(key);
        }
        if (!k.busy) {
          break;
        }
        k.changed.await();
      }
      k.channel = lockChannel(key);
      k.busy = true;
    } finally {
      k.lock.unlock();
    }
    FileLock shared = null;
    try {
      shared = acquireShared(k.channel, key, name, bytes, budget, fetcher, cancelled);
    } finally {
      k.lock.lock();
      try {
        k.busy = false;
        if (shared != null) {
          k.pins = 1;
          k.shared = shared;
        } else {
          closeQuietly(k.channel);
          k.channel = null;
        }
        k.changed.signalAll();
      } finally {
        k.lock.unlock();
      }
    }
    touch(file(key));
    return file(key);
  }

  /** Ends one {@link #pin} of {@code key}; the file becomes evictable once no one pins it. */
  public void unpin(String key) {
    Key k = key(key);
    k.lock.lock();
    try {
      if (k.pins <= 0) {
        throw new IllegalStateException("Shard " + key + " is not pinned in " + dir);
      }
      if (--k.pins == 0) {
        lastProgress = System.nanoTime();
        try {
          k.shared.release();
        } catch (IOException e) {
          throw new UncheckedIOException("Cannot unlock " + key + " in " + dir, e);
        } finally {
          k.shared = null;
          closeQuietly(k.channel); // held no other lock of this JVM
          k.channel = null;
        }
      }
    } finally {
      k.lock.unlock();
    }
  }

  /** Bytes the directory's shards and downloads count for now (downloads at their full size). */
  public long usedBytes() throws IOException {
    long used = 0;
    for (CachedFile e : CachedFile.scan(dir)) {
      used += e.bytes();
    }
    return used;
  }

  private FileLock acquireShared(FileChannel ch, String key, String name, long bytes, long budget, Fetcher fetcher,
      BooleanSupplier cancelled) throws IOException, InterruptedException {
    Path complete = file(key);
    while (true) {
      FileLock shared = poll(ch, true, cancelled);
      if (isComplete(complete, bytes)) {
        return shared;
      }
      shared.release();
      FileLock exclusive = poll(ch, false, cancelled);
      try {
        if (!isComplete(complete, bytes)) {
          Path part = reserve(key, name, bytes, budget, cancelled);
          downloading.incrementAndGet();
          try {
            fetcher.fetch(part);
            publish(part, complete);
          } finally {
            downloading.decrementAndGet();
          }
        }
      } finally {
        exclusive.release();
      }
    }
  }

  private static boolean isComplete(Path file, long bytes) throws IOException {
    try {
      return Files.size(file) == bytes;
    } catch (NoSuchFileException e) {
      return false;
    }
  }

  /** Renames a verified download to its final name, under the budget lock so that no count sees neither. */
  private void publish(Path part, Path complete) throws IOException, InterruptedException {
    budgetMutex.lock();
    try {
      FileLock g = poll(budgetChannel, false, () -> false);
      try {
        Files.move(part, complete, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        lastProgress = System.nanoTime();
      } finally {
        g.release();
      }
    } finally {
      budgetMutex.unlock();
    }
  }

  /**
   * Makes room for {@code bytes} within {@code budget} and returns the key's {@code .part} file (created
   * empty, or kept from an interrupted download); waits while the room is held by others, and fails when it
   * cannot come (see the class comment).
   */
  private Path reserve(String key, String name, long bytes, long budget, BooleanSupplier cancelled)
      throws IOException, InterruptedException {
    if (bytes > budget) {
      throw new IllegalArgumentException("Shard " + name + " (" + bytes + " bytes) is larger than the cache budget of "
          + budget + " bytes");
    }
    Path part = dir.resolve(key + "-" + bytes + ".part");
    long deadline = System.nanoTime() + waitMillis * 1_000_000L;
    while (true) {
      CacheBudgetErrors.Held held;
      budgetMutex.lock();
      try {
        FileLock g = poll(budgetChannel, false, cancelled);
        try {
          List<CachedFile> entries = CachedFile.scan(dir);
          long used = 0;
          for (CachedFile e : entries) {
            used += e.key().equals(key) ? 0 : e.bytes(); // our own .part is this reservation
          }
          if (used + bytes > budget) {
            used -= evict(entries, key, used + bytes - budget);
          }
          if (used + bytes <= budget) {
            if (!Files.exists(part)) {
              Files.createFile(part);
            }
            touch(part);
            return part;
          }
          held = holders(entries, key, used);
        } finally {
          g.release();
        }
      } finally {
        budgetMutex.unlock();
      }
      long now = System.nanoTime();
      boolean stalled = held.here() + bytes > budget && downloading.get() == 0
          && now - lastProgress > stallMillis * 1_000_000L;
      if (stalled || now > deadline) {
        throw new IOException(stalled ? CacheBudgetErrors.noRoomStalled(dir, name, bytes, budget, held, stallMillis)
            : CacheBudgetErrors.noRoomAfterWaiting(dir, name, bytes, budget, held, waitMillis));
      }
      if (cancelled.getAsBoolean()) {
        throw new CancellationException("staging stopped");
      }
      Thread.sleep(POLL_MILLIS * 5);
    }
  }

  private CacheBudgetErrors.Held holders(List<CachedFile> entries, String except, long used) {
    long here = 0;
    for (CachedFile e : entries) {
      if (!e.key().equals(except) && heldHere(e.key())) {
        here += e.bytes();
      }
    }
    return new CacheBudgetErrors.Held(here, Math.max(0, used - here));
  }

  /** Whether a loader of this process pins {@code key} or is downloading it. */
  private boolean heldHere(String key) {
    Key k;
    synchronized (keys) {
      k = keys.get(key);
    }
    if (k == null) {
      return false;
    }
    k.lock.lock(); // never held while waiting for budgetMutex, which our caller holds
    try {
      return k.busy || k.pins > 0;
    } finally {
      k.lock.unlock();
    }
  }

  /** Deletes least recently used files no one holds until {@code needed} bytes are free; returns bytes freed. */
  private long evict(List<CachedFile> entries, String keep, long needed) throws IOException {
    List<CachedFile> lru = new ArrayList<>(entries);
    lru.sort(Comparator.comparingLong(CachedFile::modified));
    long freed = 0;
    for (CachedFile e : lru) {
      if (freed >= needed) {
        break;
      }
      if (!e.key().equals(keep) && tryDelete(e)) {
        freed += e.bytes();
      }
    }
    return freed;
  }

  private boolean tryDelete(CachedFile e) throws IOException {
    Key k = key(e.key());
    if (!k.lock.tryLock()) {
      return false;
    }
    try {
      if (k.busy || k.pins > 0) {
        return false;
      }
      try (FileChannel ch = lockChannel(e.key())) {
        FileLock exclusive = ch.tryLock(0, Long.MAX_VALUE, false);
        if (exclusive == null) {
          return false; // another process reads or downloads it
        }
        try {
          Files.deleteIfExists(e.file());
        } finally {
          exclusive.release();
        }
      }
      return true;
    } finally {
      k.lock.unlock();
    }
  }

  private static void touch(Path f) throws IOException {
    Files.setLastModifiedTime(f, FileTime.fromMillis(System.currentTimeMillis()));
  }

  private static FileLock poll(FileChannel ch, boolean shared, BooleanSupplier cancelled)
      throws IOException, InterruptedException {
    while (true) {
      FileLock l = ch.tryLock(0, Long.MAX_VALUE, shared);
      if (l != null) {
        return l;
      }
      if (cancelled.getAsBoolean()) {
        throw new CancellationException("staging stopped");
      }
      Thread.sleep(POLL_MILLIS);
    }
  }

  private FileChannel lockChannel(String key) throws IOException {
    return FileChannel.open(dir.resolve(key + ".lock"), StandardOpenOption.CREATE, StandardOpenOption.READ,
        StandardOpenOption.WRITE);
  }

  private Key key(String key) {
    synchronized (keys) {
      return keys.computeIfAbsent(key, x -> new Key());
    }
  }

  private static void closeQuietly(FileChannel ch) {
    try {
      if (ch != null) {
        ch.close();
      }
    } catch (IOException e) {
      // a lock channel; nothing was written through it
    }
  }

  /** Releases this caller's use; the last one closes the directory's lock channel. */
  @Override
  public void close() {
    synchronized (OPEN) {
      if (--refs > 0) {
        return;
      }
      OPEN.remove(dir);
    }
    closeQuietly(budgetChannel);
  }
}
