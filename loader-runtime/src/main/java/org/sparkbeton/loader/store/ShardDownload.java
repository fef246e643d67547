package org.sparkbeton.loader.store;

import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import org.sparkbeton.format.dataset.ShardEntry;

/**
 * Streams one shard from its store into a {@code .part} file of the cache, computing the manifest's
 * checksum as the bytes pass. A partial file left by an earlier attempt is resumed (its bytes are hashed
 * from local disk, the store is read from the first missing byte). A failed read from the store is
 * retried after a pause, from the bytes already written, up to {@code retries} times in a row without
 * progress; then the download fails and the {@code .part} stays for a later resume. A store copy shorter
 * than the manifest says fails at once (a retry would read the same end). A checksum mismatch after a
 * resume empties the {@code .part} and downloads the shard once more from scratch (the earlier attempt's
 * bytes may be the bad ones); a mismatch of a download from scratch deletes the {@code .part}: the shard is
 * corrupt in the store ({@link ShardIntegrityException}). A shard the store no longer has throws {@link Gone};
 * a failed write to the cache throws {@link CacheWriteException}.
 */
final class ShardDownload implements ShardCache.Fetcher {
  /** Bytes per write into the cache: one huge page (see copy). */
  private static final int CHUNK = 2 << 20;
  private static final long MAX_PAUSE_MILLIS = 4_000;

  private final DatasetStore store;
  private final ShardEntry shard;
  private final int retries;
  private final StagingListener listener;
  private final BooleanSupplier cancelled;
  private final long pauseMillis;

  ShardDownload(DatasetStore store, ShardEntry shard, int retries, StagingListener listener, BooleanSupplier cancelled,
      long pauseMillis) {
    this.store = store;
    this.shard = shard;
    this.retries = retries;
    this.listener = listener;
    this.cancelled = cancelled;
    this.pauseMillis = pauseMillis;
  }

  /** Signals a failed read from the store (retried), as opposed to a failed write to the cache (not retried). */
  private static final class StoreReadException extends IOException {
    private static final long serialVersionUID = 1L;

    StoreReadException(IOException cause) {
      super(cause.getMessage(), cause);
    }
  }

  /** The store no longer has the shard (deleted since the manifest was read): a retry would not bring it back. */
  static final class Gone extends IOException {
    private static final long serialVersionUID = 1L;

    Gone(IOException cause) {
      super(cause.getMessage(), cause);
    }

    /** The store's own exception. */
    IOException storeError() {
      return (IOException) getCause();
    }
  }

  /** Writing the shard into the cache failed (a full disk, an I/O error): the store is not at fault. */
  static final class CacheWriteException extends IOException {
    private static final long serialVersionUID = 1L;

    CacheWriteException(String message, IOException cause) {
      super(message, cause);
    }
  }

  @Override
  public void fetch(Path part) throws IOException, InterruptedException {
    boolean fromScratch = false;
    while (true) {
      long resumedFrom = Files.size(part);
      if (resumedFrom > shard.bytes()) {
        empty(part); // longer than the shard: not a prefix of it
        resumedFrom = 0;
      }
      Digests.Running digest = Digests.running(shard.checksum().algorithm());
      long have;
      try (FileChannel out = FileChannel.open(part, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
        hashPrefix(out, resumedFrom, digest);
        have = download(out, resumedFrom, digest);
        force(out, part); // a published file must survive a crash as it was verified
      }
      String actual = digest.hex();
      if (actual.equals(shard.checksum().value())) {
        listener.downloaded(shard.path(), have - resumedFrom, resumedFrom);
        return;
      }
      if (resumedFrom > 0 && !fromScratch) {
        fromScratch = true; // the earlier attempt's bytes may be the bad ones: all of them go, the shard comes again
        empty(part);
        continue;
      }
      Files.deleteIfExists(part);
      throw new ShardIntegrityException("Shard " + shard.path() + " of " + store.uri() + " is corrupt: the "
          + shard.checksum().algorithm() + " of its " + shard.bytes() + " bytes is " + actual + " but the manifest says "
          + shard.checksum().value() + ". The download was deleted and none of its samples were used");
    }
  }

  /** Hashes the first {@code bytes} bytes of {@code in}. */
  static void hashPrefix(FileChannel in, long bytes, Digests.Running digest) throws IOException {
    byte[] buf = new byte[CHUNK];
    ByteBuffer b = ByteBuffer.wrap(buf);
    long at = 0;
    while (at < bytes) {
      b.clear().limit((int) Math.min(CHUNK, bytes - at));
      int n = in.read(b, at);
      if (n < 0) {
        throw new EOFException("partial download ends before byte " + bytes);
      }
      digest.update(buf, 0, n);
      at += n;
    }
  }

  /** Writes the shard from {@code have} to its end; returns its length. */
  private long download(FileChannel out, long have, Digests.Running digest) throws IOException, InterruptedException {
    byte[] buf = new byte[CHUNK];
    int failures = 0;
    while (have < shard.bytes()) {
      long before = have;
      try {
        have = copy(out, have, digest, buf);
      } catch (StoreReadException e) {
        have = out.size(); // every byte written so far is hashed: a write is hashed as soon as it is complete
        failures = have > before ? 1 : failures + 1;
        IOException cause = (IOException) e.getCause();
        if (failures > retries) {
          throw new IOException("Cannot download shard " + shard.path() + " of " + store.uri() + ": " + failures
              + " reads in a row failed, the last with: " + cause + ". Its first " + have + " of " + shard.bytes()
              + " bytes stay in the cache, and the next attempt resumes from there", cause);
        }
        listener.retrying(shard.path(), failures, cause);
        pause(Math.min(MAX_PAUSE_MILLIS, pauseMillis << (failures - 1)));
      }
    }
    return have;
  }

  /** One attempt: opens the store at {@code have} and copies until the shard is complete or a read fails. */
  private long copy(FileChannel out, long have, Digests.Running digest, byte[] buf) throws IOException {
    InputStream in;
    try {
      in = store.open(shard.path(), have);
    } catch (FileNotFoundException | NoSuchFileException gone) {
      throw new Gone(gone);
    } catch (IOException e) {
      throw new StoreReadException(e);
    }
    try {
      while (have < shard.bytes()) {
        int want = (int) Math.min(buf.length, shard.bytes() - have);
        int n = 0;
        try {
          // a whole chunk per write: the page cache keeps a write's bytes in folios as large as the write (ext4 and
          // XFS on recent kernels), and 2 MiB ones, whole huge pages, let decoding read the staged shard as fast
          // as a file written in place; with 1 MiB writes an epoch from the cache took 1.05x as long, and reading
          // back socket-sized writes of a few KiB is slower still (BENCHMARKS.md, "Training loader over a remote
          // store")
          while (n < want) {
            if (cancelled.getAsBoolean()) {
              throw new CancellationException("staging stopped");
            }
            int r = in.read(buf, n, want - n);
            if (r < 0) {
              have = write(out, have, digest, buf, n);
              throw endOfStream(have);
            }
            n += r;
          }
        } catch (ShardIntegrityException | StoreReadException | CacheWriteException e) {
          throw e; // already said what failed
        } catch (IOException e) {
          have = write(out, have, digest, buf, n); // what was read is kept: a resume starts after it
          throw new StoreReadException(e);
        }
        have = write(out, have, digest, buf, n);
      }
      return have;
    } finally {
      closeQuietly(in);
    }
  }

  /** Writes {@code buf[0, n)} at {@code have}, then hashes it (every byte in the file is hashed); the new length. */
  private long write(FileChannel out, long have, Digests.Running digest, byte[] buf, int n) throws IOException {
    if (n == 0) {
      return have;
    }
    ByteBuffer b = ByteBuffer.wrap(buf, 0, n);
    try {
      while (b.hasRemaining()) {
        out.write(b, have + b.position());
      }
    } catch (IOException e) {
      throw new CacheWriteException("Cannot write byte " + (have + b.position()) + " of shard " + shard.path() + " of "
          + store.uri() + " (" + shard.bytes() + " bytes) into the shard cache: " + e, e);
    }
    digest.update(buf, 0, n);
    listener.progress(shard.path(), have + n, shard.bytes());
    return have + n;
  }

  /**
   * The store's stream of the shard ended after {@code end} bytes. When a ranged read of the shard's last byte
   * finds the store's copy that short too, the copy is shorter than the manifest says and a retry would end at the
   * same byte: fails at once. Otherwise the stream ended early (a connection closed) and the read is retried.
   */
  private IOException endOfStream(long end) {
    EOFException early = new EOFException("the store's stream of the shard ended at byte " + end + " of the "
        + shard.bytes() + " the manifest lists");
    try {
      store.readFully(shard.path(), shard.bytes() - 1, new byte[1]);
    } catch (EOFException shorter) {
      ShardIntegrityException e = new ShardIntegrityException("Shard " + shard.path() + " of " + store.uri()
          + " is shorter in the store than its manifest says: the store's copy ends at byte " + end + ", the manifest"
          + " lists " + shard.bytes() + " bytes. A retry would read the"
          + " same copy: the shard was cut or replaced by something other than the dataset's writer; rewrite the"
          + " dataset, or restore the shard. None of its samples were used");
      e.initCause(shorter);
      return e;
    } catch (IOException other) {
      early.addSuppressed(other);
    }
    return new StoreReadException(early);
  }

  private void force(FileChannel out, Path part) throws IOException {
    try {
      out.force(false);
    } catch (IOException e) {
      throw new CacheWriteException("Cannot flush shard " + shard.path() + " of " + store.uri() + " to " + part
          + ": " + e, e);
    }
  }

  /** Truncates {@code part} to nothing, keeping the file: the cache counts it as this download's reservation. */
  private static void empty(Path part) throws IOException {
    try (FileChannel ch = FileChannel.open(part, StandardOpenOption.WRITE)) {
      ch.truncate(0);
    }
  }

  /** A read stream's close: what was read is written, and a failed close loses nothing. */
  private static void closeQuietly(InputStream in) {
    try {
      in.close();
    } catch (IOException | RuntimeException e) {
      // nothing to keep from a stream that is done
    }
  }

  private void pause(long millis) throws InterruptedException {
    long end = System.nanoTime() + millis * 1_000_000L;
    while (System.nanoTime() < end) {
      if (cancelled.getAsBoolean()) {
        throw new CancellationException("staging stopped");
      }
      Thread.sleep(Math.min(50, Math.max(1, (end - System.nanoTime()) / 1_000_000L)));
    }
  }
}
