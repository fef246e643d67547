package org.sparkbeton.loader.io;

import java.util.Arrays;
import java.util.List;
import org.sparkbeton.loader.order.PageMap;

/**
 * The page reads of the PROCESS cache ({@link PageCache}) over consecutive epochs, computed from the epochs'
 * orders and the page map without reading anything: what {@code beton doctor} predicts for an order and a
 * budget it does not run. The policy is the cache's: the pages of each batch are loaded into free slots or,
 * when none is free, into the slot of the page whose next use in the epoch is furthest away (never one the
 * batch needs); the cache keeps its pages from one epoch to the next. The model has one batch in flight; the
 * loader prepares a few batches ahead with more pages pinned at once, so it may read a little more (a test
 * compares both).
 */
public final class PageReadModel {
  private final PageMap pages;
  private final int slots;
  private final boolean[] resident;
  private final int[] inSlot;
  private int used;

  /** A cold cache of {@code slots} pages (at most the dataset's pages are ever used). */
  public PageReadModel(PageMap pages, int slots) {
    if (slots < 1) {
      throw new IllegalArgumentException("A PROCESS cache holds at least one page, got " + slots);
    }
    this.pages = pages;
    this.slots = Math.min(slots, Math.max(1, pages.numPages()));
    this.resident = new boolean[Math.max(1, pages.numPages())];
    this.inSlot = new int[this.slots];
  }

  /** Pages read over each epoch in turn; each order holds the samples of batch b at {@code [b * batchSize, ...)}. */
  public static long[] reads(PageMap pages, int slots, int batchSize, List<int[]> epochOrders) {
    PageReadModel model = new PageReadModel(pages, slots);
    long[] out = new long[epochOrders.size()];
    for (int e = 0; e < out.length; e++) {
      out[e] = model.epoch(epochOrders.get(e), batchSize);
    }
    return out;
  }

  /**
   * Runs one epoch (whole batches of {@code order}) and returns the pages it read; throws like the cache when a
   * batch needs more pages at once than there are slots.
   */
  public long epoch(int[] order, int batchSize) {
    int numPages = resident.length;
    int numBatches = order.length / batchSize;
    // distinct pages of each batch (CSR), then each page's uses, ascending
    int[] seenIn = new int[numPages];
    Arrays.fill(seenIn, -1);
    int[] batchStart = new int[numBatches + 1];
    int[] batchPages = new int[Math.max(1, numBatches * batchSize)];
    int[] useStart = new int[numPages + 1];
    int n = 0;
    for (int b = 0; b < numBatches; b++) {
      batchStart[b] = n;
      for (int i = b * batchSize; i < (b + 1) * batchSize; i++) {
        int p = pages.page(order[i]);
        if (p >= 0 && seenIn[p] != b) {
          seenIn[p] = b;
          batchPages[n++] = p;
          useStart[p + 1]++;
        }
      }
      if (n - batchStart[b] > slots) {
        throw new IllegalArgumentException("PROCESS cache holds " + slots + (slots == 1 ? " page" : " pages") + ", but batch " + b + " needs "
            + (n - batchStart[b]) + " pages at once");
      }
    }
    batchStart[numBatches] = n;
    for (int p = 0; p < numPages; p++) {
      useStart[p + 1] += useStart[p];
    }
    int[] uses = new int[n];
    int[] fill = new int[numPages];
    for (int b = 0; b < numBatches; b++) {
      for (int k = batchStart[b]; k < batchStart[b + 1]; k++) {
        int p = batchPages[k];
        uses[useStart[p] + fill[p]++] = b;
      }
    }
    int[] cursor = Arrays.copyOf(useStart, numPages);
    Arrays.fill(seenIn, -1); // now: the batch that last pinned each page
    long reads = 0;
    for (int b = 0; b < numBatches; b++) {
      for (int k = batchStart[b]; k < batchStart[b + 1]; k++) {
        int p = batchPages[k];
        seenIn[p] = b;
        while (cursor[p] < useStart[p + 1] && uses[cursor[p]] <= b) {
          cursor[p]++;
        }
        if (resident[p]) {
          continue;
        }
        reads++;
        if (used < slots) {
          inSlot[used++] = p;
        } else {
          inSlot[victim(b, seenIn, cursor, useStart, uses)] = p;
        }
        resident[p] = true;
      }
    }
    return reads;
  }

  /**
   * The slot whose page is next used furthest after batch {@code b}; never a page of batch b (pinned, or used at
   * b).
   */
  private int victim(int b, int[] pinnedIn, int[] cursor, int[] useStart, int[] uses) {
    int slot = -1;
    int furthest = b;
    for (int s = 0; s < used; s++) {
      int q = inSlot[s];
      if (pinnedIn[q] == b) {
        continue;
      }
      int next = cursor[q] < useStart[q + 1] ? uses[cursor[q]] : Integer.MAX_VALUE;
      if (next > furthest) {
        furthest = next;
        slot = s;
      }
    }
    if (slot < 0) { // unreachable: a batch never needs more pages than slots (checked above)
      throw new IllegalStateException("No page to evict in batch " + b);
    }
    resident[inSlot[slot]] = false;
    return slot;
  }
}
