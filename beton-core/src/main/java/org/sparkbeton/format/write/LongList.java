package org.sparkbeton.format.write;

import java.util.Arrays;

/** A growable list of longs without boxing. */
final class LongList {
  private long[] values = new long[64];
  private int size;

  void add(long v) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    values[size++] = v;
  }

  long get(int i) {
    return values[i];
  }

  void set(int i, long v) {
    values[i] = v;
  }

  int size() {
    return size;
  }

  void truncate(int newSize) {
    size = newSize;
  }
}
