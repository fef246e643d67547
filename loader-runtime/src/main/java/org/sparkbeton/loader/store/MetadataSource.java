package org.sparkbeton.loader.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.sparkbeton.format.io.BetonSource;

/**
 * The metadata of a shard that is not (yet) local, as a {@link BetonSource} for its {@code BetonReader}:
 * the reader's opening reads (header, descriptors, allocation table) go to the store, then
 * {@link #preload} fetches the metadata records in one read and {@link #seal} forbids further reads, so
 * nothing reaches the store while batches are decoded (payloads are read from the staged copy). Every
 * range read is remembered by its SHA-256, so that {@link #mismatch} can check the staged copy, which is
 * verified against the manifest, holds the same bytes the reader planned with.
 */
final class MetadataSource implements BetonSource {
  /** Reads exact byte ranges of the shard. */
  @FunctionalInterface
  interface RangeReader {
    void readFully(long position, byte[] dst) throws IOException;
  }

  private record Range(long position, int length, byte[] sha256) {}

  private final String name;
  private final long length;
  private final RangeReader reader;
  private final List<Range> ranges = new ArrayList<>();
  private byte[] records = new byte[0];
  private long recordsAt;
  private long bytesRead;
  private boolean sealed;

  MetadataSource(String name, long length, RangeReader reader) {
    this.name = name;
    this.length = length;
    this.reader = reader;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public long length() {
    return length;
  }

  @Override
  public synchronized ByteBuffer read(long position, int len) throws IOException {
    if (position < 0 || len < 0 || position > length - len) {
      throw new IOException(name + ": read of " + len + " bytes at " + position + " is outside the shard (" + length
          + " bytes)");
    }
    bytesRead += len;
    if (position >= recordsAt && position + len <= recordsAt + records.length) {
      return wrap(records, (int) (position - recordsAt), len);
    }
    if (sealed) {
      throw new IllegalStateException(name + ": bytes [" + position + ", +" + len + ") are not metadata; payloads are"
          + " read from the shard's staged copy");
    }
    return wrap(fetch(position, len), 0, len);
  }

  /** Reads the metadata records {@code [from, to)} in one go. */
  synchronized void preload(long from, long to) throws IOException {
    if (to - from > Integer.MAX_VALUE - 8) {
      throw new IOException(name + " has " + (to - from) + " bytes of metadata records; at most "
          + (Integer.MAX_VALUE - 8) + " per shard are supported");
    }
    records = fetch(from, (int) (to - from));
    recordsAt = from;
  }

  /** The metadata records {@link #preload} read (the bytes themselves, not a copy). */
  synchronized byte[] records() {
    return records;
  }

  /** Where in the shard {@link #records()} start. */
  synchronized long recordsAt() {
    return recordsAt;
  }

  /** From now on only preloaded bytes are served. */
  synchronized void seal() {
    sealed = true;
  }

  private byte[] fetch(long position, int len) throws IOException {
    byte[] b = new byte[len];
    reader.readFully(position, b);
    ranges.add(new Range(position, len, Digests.sha256(b)));
    return b;
  }

  private static ByteBuffer wrap(byte[] b, int at, int len) {
    return ByteBuffer.wrap(b, at, len).slice().asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
  }

  /**
   * Compares every range read with the same bytes of {@code staged}; returns a description of the first
   * difference, or null when they all match.
   */
  synchronized String mismatch(Path staged) throws IOException {
    try (FileChannel ch = FileChannel.open(staged, StandardOpenOption.READ)) {
      for (Range r : ranges) {
        byte[] b = new byte[r.length];
        ByteBuffer buf = ByteBuffer.wrap(b);
        while (buf.hasRemaining()) {
          if (ch.read(buf, r.position + buf.position()) < 0) {
            return "bytes [" + r.position + ", +" + r.length + ") lie past its end";
          }
        }
        if (!Arrays.equals(Digests.sha256(b), r.sha256)) {
          return "bytes [" + r.position + ", +" + r.length + ") differ";
        }
      }
    }
    return null;
  }

  /** A reader of a local file's ranges (a shard already in the cache). */
  static RangeReader of(FileChannel ch, String name) {
    return (position, dst) -> {
      ByteBuffer b = ByteBuffer.wrap(dst);
      while (b.hasRemaining()) {
        if (ch.read(b, position + b.position()) < 0) {
          throw new IOException(name + " ends before byte " + (position + dst.length));
        }
      }
    };
  }

  @Override
  public synchronized long bytesRead() {
    return bytesRead;
  }
}
