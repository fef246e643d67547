package org.sparkbeton.format;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.sparkbeton.format.io.BetonSource;

/**
 * The allocation table (docs/format.md#allocation-table), sorted by pointer so that a payload's size is found by binary
 * search on its exact pointer, as FFCV's memory managers do. Entries are kept in one
 * primitive array ({@link AllocationEntries}): 12 bytes an entry where the data region is under 4 GiB, else 24.
 *
 * <p>FFCV files may hold zero-length allocations that share a pointer with the next allocation
 * (docs/format.md#zero-length-values). Where pointers repeat, {@link #sizeAt} answers with the largest size, which
 * is the one a reader of that pointer needs; our writer never produces repeated pointers.
 */
public final class AllocationTable {
  private static final int CHUNK_ENTRIES = 1 << 20;

  private final AllocationEntries entries;
  private final boolean hasDuplicatePointers;

  /** Entries read in pointer order ({@code sorted}; then {@code duplicates} says whether a pointer repeats), or not. */
  private AllocationTable(AllocationEntries entries, boolean sorted, boolean duplicates) {
    this.entries = entries;
    if (sorted) {
      this.hasDuplicatePointers = duplicates;
    } else {
      entries.sortByPointer();
      boolean dup = false;
      for (int i = 1; i < entries.size() && !dup; i++) {
        dup = entries.ptr(i) == entries.ptr(i - 1);
      }
      this.hasDuplicatePointers = dup;
    }
  }

  /**
   * Reads and checks the table that runs from {@code start} to the end of the file: every entry must
   * lie inside the data region {@code [dataStart, start)} and name a sample below {@code numSamples}.
   */
  static AllocationTable read(BetonSource source, long start, long dataStart, long numSamples) throws IOException {
    String file = source.name();
    long bytes = source.length() - start;
    if (bytes % BetonFormat.ALLOCATION_ENTRY_SIZE != 0) {
      throw new BetonFormatException(file, "allocation table", start,
          bytes + " bytes to end of file is not a multiple of " + BetonFormat.ALLOCATION_ENTRY_SIZE);
    }
    long count = bytes / BetonFormat.ALLOCATION_ENTRY_SIZE;
    if (count > Integer.MAX_VALUE - 8) {
      throw new BetonFormatException(file, "allocation table", start, count + " entries is more than a reader can hold");
    }
    int n = (int) count;
    // the checks below keep every entry inside these ranges
    AllocationEntries entries = AllocationEntries.forRanges(n, dataStart, start, numSamples);
    boolean sorted = true;
    boolean duplicates = false;
    long previous = Long.MIN_VALUE;
    for (int from = 0; from < n; from += CHUNK_ENTRIES) {
      int m = Math.min(CHUNK_ENTRIES, n - from);
      ByteBuffer b = source.read(start + (long) from * BetonFormat.ALLOCATION_ENTRY_SIZE, m * BetonFormat.ALLOCATION_ENTRY_SIZE);
      for (int i = 0; i < m; i++) {
        int at = i * BetonFormat.ALLOCATION_ENTRY_SIZE;
        long sample = b.getLong(at);
        long ptr = b.getLong(at + 8);
        long size = b.getLong(at + 16);
        long entryOffset = start + (long) (from + i) * BetonFormat.ALLOCATION_ENTRY_SIZE;
        if (sample < 0 || sample >= numSamples) {
          throw new BetonFormatException(file, "allocation table entry " + (from + i), entryOffset,
              "sample id " + Long.toUnsignedString(sample) + " is not below the sample count " + numSamples);
        }
        if (ptr < dataStart || size < 0 || ptr > start || size > start - ptr) {
          throw new BetonFormatException(file, "allocation table entry " + (from + i), entryOffset + 8,
              "allocation [" + Long.toUnsignedString(ptr) + ", +" + Long.toUnsignedString(size)
                  + ") is outside the data region [" + dataStart + ", " + start + ")");
        }
        entries.set(from + i, sample, ptr, size);
        sorted &= ptr >= previous;
        duplicates |= ptr == previous;
        previous = ptr;
      }
    }
    return new AllocationTable(entries, sorted, duplicates);
  }

  public int size() {
    return entries.size();
  }

  /** Pointer of the i-th entry in pointer order. */
  public long ptr(int i) {
    return entries.ptr(i);
  }

  public long size(int i) {
    return entries.size(i);
  }

  public long sample(int i) {
    return entries.sample(i);
  }

  /** Whether the entries are kept in 4-byte values (for tests). */
  boolean isCompact() {
    return entries.isNarrow();
  }

  /** Index (in pointer order) of an entry starting exactly at {@code ptr}, or -1. */
  public int indexOf(long ptr) {
    int lo = 0;
    int hi = entries.size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      long p = entries.ptr(mid);
      if (p < ptr) {
        lo = mid + 1;
      } else if (p > ptr) {
        hi = mid - 1;
      } else {
        if (hasDuplicatePointers) {
          int best = mid;
          for (int j = mid; j >= 0 && entries.ptr(j) == ptr; j--) {
            best = entries.size(j) > entries.size(best) ? j : best;
          }
          for (int j = mid; j < entries.size() && entries.ptr(j) == ptr; j++) {
            best = entries.size(j) > entries.size(best) ? j : best;
          }
          return best;
        }
        return mid;
      }
    }
    return -1;
  }

  /** Size of the allocation starting exactly at {@code ptr}, or -1 when no entry starts there. */
  public long sizeAt(long ptr) {
    int i = indexOf(ptr);
    return i < 0 ? -1 : entries.size(i);
  }

  public boolean hasDuplicatePointers() {
    return hasDuplicatePointers;
  }
}
