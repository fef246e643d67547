package org.sparkbeton.format;

/** Stable merge sort of three parallel long arrays by the first; no boxing, O(n) scratch. */
final class ParallelSort {
  private ParallelSort() {}

  static void byFirst(long[] keys, long[] a, long[] b) {
    int n = keys.length;
    long[] k2 = new long[n];
    long[] a2 = new long[n];
    long[] b2 = new long[n];
    long[] srcK = keys, srcA = a, srcB = b, dstK = k2, dstA = a2, dstB = b2;
    for (int width = 1; width < n; width <<= 1) {
      for (int lo = 0; lo < n; lo += 2 * width) {
        int mid = Math.min(lo + width, n);
        int hi = Math.min(lo + 2 * width, n);
        int i = lo, j = mid, o = lo;
        while (i < mid && j < hi) {
          int take = srcK[j] < srcK[i] ? j++ : i++;
          dstK[o] = srcK[take];
          dstA[o] = srcA[take];
          dstB[o++] = srcB[take];
        }
        while (i < mid) {
          dstK[o] = srcK[i];
          dstA[o] = srcA[i];
          dstB[o++] = srcB[i++];
        }
        while (j < hi) {
          dstK[o] = srcK[j];
          dstA[o] = srcA[j];
          dstB[o++] = srcB[j++];
        }
      }
      long[] t = srcK; srcK = dstK; dstK = t;
      t = srcA; srcA = dstA; dstA = t;
      t = srcB; srcB = dstB; dstB = t;
    }
    if (srcK != keys) {
      System.arraycopy(srcK, 0, keys, 0, n);
      System.arraycopy(srcA, 0, a, 0, n);
      System.arraycopy(srcB, 0, b, 0, n);
    }
  }
}
