package org.sparkbeton.format;

/**
 * An allocation table's entries (sample, pointer, size), interleaved in one array: three 4-byte values an entry
 * (the pointer as an offset from the data region's start) when the data region is under 4 GiB and the sample
 * count at most 2^32, else three 8-byte values. The narrow form holds every shard a Spark job writes and most
 * files; it halves the heap a reader of many shards fills, and the garbage collector copies, when it opens them.
 */
final class AllocationEntries {
  private final long base;
  private final int[] narrow; // sample, ptr - base, size (each unsigned); null when wide
  private final long[] wide; // sample, ptr, size; null when narrow

  private AllocationEntries(long base, int[] narrow, long[] wide) {
    this.base = base;
    this.narrow = narrow;
    this.wide = wide;
  }

  /**
   * Room for {@code n} entries whose pointers lie in {@code [dataStart, dataEnd]}, sizes in {@code [0, dataEnd -
   * dataStart]} and samples below {@code numSamples}.
   */
  static AllocationEntries forRanges(int n, long dataStart, long dataEnd, long numSamples) {
    long span = dataEnd - dataStart;
    boolean fits = span >= 0 && span <= 0xFFFF_FFFFL && numSamples >= 0 && numSamples <= 0x1_0000_0000L;
    return fits ? new AllocationEntries(dataStart, new int[3 * n], null)
        : new AllocationEntries(0, null, new long[3 * n]);
  }

  boolean isNarrow() {
    return narrow != null;
  }

  int size() {
    return narrow != null ? narrow.length / 3 : wide.length / 3;
  }

  /** Sets entry {@code i}; the caller has checked that its values lie in the ranges given at creation. */
  void set(int i, long sample, long ptr, long size) {
    if (narrow != null) {
      narrow[3 * i] = (int) sample;
      narrow[3 * i + 1] = (int) (ptr - base);
      narrow[3 * i + 2] = (int) size;
    } else {
      wide[3 * i] = sample;
      wide[3 * i + 1] = ptr;
      wide[3 * i + 2] = size;
    }
  }

  long sample(int i) {
    return narrow != null ? Integer.toUnsignedLong(narrow[3 * i]) : wide[3 * i];
  }

  long ptr(int i) {
    return narrow != null ? base + Integer.toUnsignedLong(narrow[3 * i + 1]) : wide[3 * i + 1];
  }

  long size(int i) {
    return narrow != null ? Integer.toUnsignedLong(narrow[3 * i + 2]) : wide[3 * i + 2];
  }

  /** Sorts the entries by pointer, stably (entries with equal pointers keep their order). */
  void sortByPointer() {
    int n = size();
    long[] ptrs = new long[n];
    long[] sizes = new long[n];
    long[] samples = new long[n];
    for (int i = 0; i < n; i++) {
      ptrs[i] = ptr(i);
      sizes[i] = size(i);
      samples[i] = sample(i);
    }
    ParallelSort.byFirst(ptrs, sizes, samples);
    for (int i = 0; i < n; i++) {
      set(i, samples[i], ptrs[i], sizes[i]);
    }
  }
}
