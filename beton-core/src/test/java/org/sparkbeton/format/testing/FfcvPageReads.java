package org.sparkbeton.format.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Reads every payload of a {@code .beton} file the two ways FFCV's loader does (docs/format.md, "Page reads"),
 * without our reader: the header and the allocation table are parsed here as FFCV's {@code Reader} parses them.
 * <ul>
 *   <li>{@link #osCache} ({@code os_cache=True}, {@code OSCacheManager}): the whole file mapped; a payload
 *       is the slice {@code [ptr, ptr + size)}, which must lie inside the file (numpy would cut it
 *       short silently);</li>
 *   <li>{@link #processCache} ({@code os_cache=False}, {@code ProcessCacheManager}): page {@code k} is
 *       read into a page-sized slot by one positional read of {@code page_size} bytes at
 *       {@code k * page_size} whose short count at the end of the file is ignored, as libffcv's
 *       {@code read} ignores it; a payload is {@code slot[ptr - k * page_size : +size]}. Slot bytes the
 *       read did not fill hold a stale pattern here (FFCV's slots hold an earlier page), so a payload
 *       reaching past the end of the file compares unequal; one reaching past the page fails.</li>
 * </ul>
 * Both also fail when a sample's allocations lie in more than one page, which no writer of ours or
 * FFCV's produces and our loader relies on.
 */
public final class FfcvPageReads {
  private static final byte STALE = (byte) 0xA5;

  private FfcvPageReads() {}

  /** One allocation as FFCV's table holds it. */
  private record Entry(long sample, long ptr, long size) {}

  /** The payloads of every sample as {@code os_cache=False} reads them, in pointer order; index = sample. */
  public static List<List<ByteBuffer>> processCache(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      Parsed p = parse(ch);
      List<List<ByteBuffer>> out = emptyLists(p.numSamples);
      List<Entry> byPtr = new ArrayList<>(p.entries);
      byPtr.sort(Comparator.comparingLong(Entry::ptr));
      byte[] slot = new byte[Math.toIntExact(p.pageSize)];
      long loaded = -1;
      for (Entry e : byPtr) {
        long page = e.ptr >>> p.shift;
        if (page != loaded) {
          Arrays.fill(slot, STALE);
          ByteBuffer dst = ByteBuffer.wrap(slot);
          long at = page * p.pageSize;
          // one pread of page_size bytes: on a regular file it stops short only at the end of the file
          while (dst.hasRemaining() && ch.read(dst, at + dst.position()) > 0) {
            // keep reading until the slot is full or the file ends
          }
          loaded = page;
        }
        long offset = e.ptr - page * p.pageSize;
        if (offset + e.size > p.pageSize) {
          throw new AssertionError(file + ": allocation at " + e.ptr + " of " + e.size + " bytes (sample " + e.sample
              + ") runs past the end of page " + page + "; FFCV's page slot would cut it short");
        }
        out.get((int) e.sample).add(ByteBuffer.wrap(Arrays.copyOfRange(slot, (int) offset, (int) (offset + e.size))));
      }
      checkOnePagePerSample(file, p);
      return out;
    }
  }

  /** The payloads of every sample as {@code os_cache=True} reads them, in pointer order; index = sample. */
  public static List<List<ByteBuffer>> osCache(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      Parsed p = parse(ch);
      long length = ch.size();
      if (length > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(file + " is too large for this test helper's single mapping");
      }
      ByteBuffer mm = ch.map(FileChannel.MapMode.READ_ONLY, 0, length);
      List<List<ByteBuffer>> out = emptyLists(p.numSamples);
      List<Entry> byPtr = new ArrayList<>(p.entries);
      byPtr.sort(Comparator.comparingLong(Entry::ptr));
      for (Entry e : byPtr) {
        if (e.ptr + e.size > length) {
          throw new AssertionError(file + ": allocation at " + e.ptr + " of " + e.size + " bytes runs past the end"
              + " of the file (" + length + " bytes); numpy's slice of the mapping would cut it short");
        }
        byte[] b = new byte[(int) e.size];
        mm.get((int) e.ptr, b);
        out.get((int) e.sample).add(ByteBuffer.wrap(b));
      }
      checkOnePagePerSample(file, p);
      return out;
    }
  }

  private record Parsed(long pageSize, int shift, long numSamples, List<Entry> entries) {}

  /** FFCV's {@code Reader}: the 24-byte header, then the table from {@code alloc_table_ptr} to the end of the file. */
  private static Parsed parse(FileChannel ch) throws IOException {
    ByteBuffer header = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
    readFully(ch, header, 0);
    if (header.getShort(0) != 2) {
      throw new AssertionError("version " + header.getShort(0) + ", FFCV reads only 2");
    }
    long pageSize = Integer.toUnsignedLong(header.getInt(4));
    long numSamples = header.getLong(8);
    long tablePtr = header.getLong(16);
    long tableBytes = ch.size() - tablePtr;
    if (tableBytes < 0 || tableBytes % 24 != 0) {
      throw new AssertionError("allocation table from " + tablePtr + " to the end of the file (" + ch.size()
          + ") is not whole 24-byte entries");
    }
    ByteBuffer table = ByteBuffer.allocate(Math.toIntExact(tableBytes)).order(ByteOrder.LITTLE_ENDIAN);
    readFully(ch, table, tablePtr);
    List<Entry> entries = new ArrayList<>();
    for (int at = 0; at < tableBytes; at += 24) {
      entries.add(new Entry(table.getLong(at), table.getLong(at + 8), table.getLong(at + 16)));
    }
    return new Parsed(pageSize, Long.numberOfTrailingZeros(pageSize), numSamples, entries);
  }

  private static void checkOnePagePerSample(Path file, Parsed p) {
    long[] page = new long[Math.toIntExact(p.numSamples)];
    Arrays.fill(page, -1);
    for (Entry e : p.entries) {
      if (e.size == 0) {
        continue; // FFCV's own zero-length allocations may carry the next allocation's pointer
      }
      long k = e.ptr >>> p.shift;
      if (page[(int) e.sample] >= 0 && page[(int) e.sample] != k) {
        throw new AssertionError(file + ": sample " + e.sample + " has allocations in pages " + page[(int) e.sample]
            + " and " + k);
      }
      page[(int) e.sample] = k;
    }
  }

  private static List<List<ByteBuffer>> emptyLists(long n) {
    List<List<ByteBuffer>> out = new ArrayList<>();
    for (long s = 0; s < n; s++) {
      out.add(new ArrayList<>());
    }
    return out;
  }

  private static void readFully(FileChannel ch, ByteBuffer dst, long position) throws IOException {
    while (dst.hasRemaining()) {
      if (ch.read(dst, position + dst.position()) < 0) {
        throw new AssertionError("file ends at " + ch.size() + " before " + (position + dst.limit()));
      }
    }
  }
}
