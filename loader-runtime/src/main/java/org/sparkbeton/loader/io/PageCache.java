package org.sparkbeton.loader.io;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.sparkbeton.format.io.BetonSource;
import org.sparkbeton.loader.memory.BufferAllocator;
import org.sparkbeton.loader.memory.OffHeapBuffer;
import org.sparkbeton.loader.order.PageMap;

/**
 * Cache mode PROCESS: the loader's own page cache, a fixed number of page-sized slots that never
 * exceeds the memory budget. At the start of an epoch it receives the epoch's batches and works out
 * which pages each batch needs and, for every page, the batches that use it. A reader thread then
 * walks the batches in order, a few ahead of production: it pins each page of the batch, loading it
 * into a free slot or, when none is free, into the slot of the unpinned page whose next use is
 * furthest away (Belady's rule; the future is known) — never a page needed before the batch being
 * prepared, in which case it waits for a batch to finish. A batch's pages stay pinned until all of
 * its samples are decoded.
 *
 * <p>Unlike FFCV's ProcessCacheManager, which keeps a page from its first to its last use in the
 * epoch (so with RANDOM order it holds the whole dataset and fails with MemoryError), this cache
 * re-reads pages when the budget is short: the budget always holds; the order decides how often a
 * page is read. With QUASI_RANDOM each page is read about once per epoch. The budget must hold the
 * pages of the batches in flight ({@code lookahead} batches); a smaller budget is refused with the
 * page counts.
 *
 * <p>A shard with page checksums has each page checked when it is first loaded (the verdict is kept, so a page
 * re-read after eviction is not checked again); a damaged page is loaded as it is, and every payload read from it
 * fails naming the shard, the page and the region, so the loader's bad-sample policy applies per sample.
 */
public final class PageCache implements BatchStaging {
  private final FileChannel[] channels;
  private final PageVerifier[] verifiers; // per file; null entries: unchecked
  private final BetonSource[] sources; // null: read the files through channels
  private final long[] fileLength;
  private final int[] pageOffset; // global page number of each file's first page
  private final long[] firstPage; // absolute page number (offset / page size) of each file's first page
  private final int shift;
  private final int pageSize;
  private final PageMap pages;
  private final OffHeapBuffer[] slots;
  private final int[] slotOf; // page -> slot, -1 when not resident (or being loaded)
  private final int[] pageIn; // slot -> page, -1 when free
  private final int[] pins;
  private long pagesRead;

  // per epoch
  private int[] batchStart;
  private int[] batchPages;
  private int[] useStart;
  private int[] uses;
  private int[] cursor;
  private boolean[] done;
  private int doneFloor;
  private int readyUpTo;
  private int lookahead;
  private boolean stopped = true;
  private RuntimeException failure;
  private Thread reader;

  /**
   * A cache over the files of {@code shards} (all with one page size), allocating
   * {@code min(budget / pageSize, pages in the files)} slots from {@code allocator}. Decoders read
   * through {@link #store(int)}.
   */
  public PageCache(Shards shards, long budgetBytes, BufferAllocator allocator) throws IOException {
    this(shards, budgetBytes, allocator, null);
  }

  /**
   * As above, reading pages through the sources {@code opener} opens for the files (one read per page) instead
   * of the files themselves; null reads the files. The cache closes the sources.
   */
  public PageCache(Shards shards, long budgetBytes, BufferAllocator allocator, SourceOpener opener)
      throws IOException {
    this.shift = shards.reader(0).header().pageShift();
    this.pageSize = 1 << shift;
    this.pages = shards.pageMap();
    int n = shards.count();
    this.pageOffset = new int[n + 1];
    this.firstPage = new long[n];
    for (int i = 0; i < n; i++) {
      if (shards.reader(i).header().pageShift() != shift) {
        throw new IllegalArgumentException("PROCESS cache needs one page size: " + shards.reader(i).file() + " has "
            + shards.reader(i).pageSize() + "-byte pages, " + shards.reader(0).file() + " " + pageSize);
      }
      PageMap m = PageMap.of(shards.reader(i));
      firstPage[i] = m.firstPage();
      pageOffset[i + 1] = pageOffset[i] + m.numPages();
    }
    long count = Math.min(budgetBytes / pageSize, Math.max(1, pages.numPages()));
    if (count < 1) {
      throw new IllegalArgumentException("PROCESS cache budget of " + budgetBytes + " bytes is smaller than one page of "
          + pageSize + " bytes");
    }
    this.verifiers = new PageVerifier[n];
    for (int i = 0; i < n; i++) {
      verifiers[i] = shards.verifier(i);
    }
    this.channels = new FileChannel[n];
    this.sources = opener == null ? null : new BetonSource[n];
    this.fileLength = new long[n];
    try {
      for (int i = 0; i < n; i++) {
        Path file = Path.of(shards.reader(i).file());
        if (opener == null) {
          channels[i] = FileChannel.open(file, StandardOpenOption.READ);
          fileLength[i] = channels[i].size();
        } else {
          sources[i] = opener.open(file);
          fileLength[i] = sources[i].length();
        }
      }
    } catch (IOException | RuntimeException e) {
      closeChannels();
      throw e;
    }
    this.slots = new OffHeapBuffer[(int) count];
    try {
      for (int s = 0; s < slots.length; s++) {
        slots[s] = allocator.allocate(pageSize, "page cache slot " + s + " of " + slots.length);
      }
    } catch (RuntimeException | Error e) {
      close();
      throw e;
    }
    this.slotOf = new int[Math.max(1, pages.numPages())];
    Arrays.fill(slotOf, -1);
    this.pageIn = new int[slots.length];
    Arrays.fill(pageIn, -1);
    this.pins = new int[slotOf.length];
  }

  public int slots() {
    return slots.length;
  }

  public long bytes() {
    return (long) slots.length * pageSize;
  }

  /** Pages read from the file so far (all epochs). */
  public synchronized long pagesRead() {
    return pagesRead;
  }

  /**
   * Starts an epoch: {@code order} holds the samples of batch b at {@code [b * batchSize, ...)};
   * production starts at {@code firstBatch}; the reader prepares at most {@code lookahead} batches
   * beyond the oldest one not yet finished.
   */
  @Override
  public void startEpoch(int epoch, int[] order, int batchSize, int numBatches, int firstBatch, int lookahead) {
    stopEpoch();
    // distinct pages of each batch (CSR), and for each page the batches that use it, ascending
    int[] seenIn = new int[slotOf.length];
    Arrays.fill(seenIn, -1);
    int[] bStart = new int[numBatches + 1];
    int[] tmp = new int[Math.max(1, order.length)];
    int n = 0;
    int widest = 0;
    int widestBatch = 0;
    int[] useCount = new int[slotOf.length + 1];
    for (int b = 0; b < numBatches; b++) {
      bStart[b] = n;
      int end = Math.min(order.length, (b + 1) * batchSize);
      for (int i = b * batchSize; i < end; i++) {
        int p = pages.page(order[i]);
        if (p >= 0 && seenIn[p] != b) {
          seenIn[p] = b;
          tmp[n++] = p;
          useCount[p + 1]++;
        }
      }
      if (n - bStart[b] > widest) {
        widest = n - bStart[b];
        widestBatch = b;
      }
    }
    bStart[numBatches] = n;
    if (widest > slots.length) {
      throw new IllegalArgumentException("PROCESS cache holds " + slots.length + (slots.length == 1 ? " page of " : " pages of ") + pageSize
          + " bytes, but batch " + widestBatch + " of epoch " + epoch + " needs " + widest
          + " pages at once; " + fewerPagesHint(slots.length, batchSize) + smallShardsHint());
    }
    for (int p = 0; p < slotOf.length; p++) {
      useCount[p + 1] += useCount[p];
    }
    int[] u = new int[n];
    int[] fill = new int[slotOf.length];
    for (int b = 0; b < numBatches; b++) {
      for (int k = bStart[b]; k < bStart[b + 1]; k++) {
        int p = tmp[k];
        u[useCount[p] + fill[p]++] = b;
      }
    }
    synchronized (this) {
      this.batchStart = bStart;
      this.batchPages = Arrays.copyOf(tmp, n);
      this.useStart = useCount;
      this.uses = u;
      this.cursor = Arrays.copyOf(useCount, slotOf.length);
      for (int p = 0; p < cursor.length; p++) {
        while (cursor[p] < useCount[p + 1] && uses[cursor[p]] < firstBatch) {
          cursor[p]++;
        }
      }
      this.done = new boolean[numBatches];
      this.doneFloor = firstBatch;
      this.readyUpTo = firstBatch;
      this.lookahead = Math.max(1, lookahead);
      Arrays.fill(pins, 0);
      this.stopped = false;
      this.failure = null;
    }
    reader = new Thread(() -> read(firstBatch, numBatches), "beton-page-reader-e" + epoch);
    reader.setDaemon(true);
    reader.start();
  }

  private void read(int firstBatch, int numBatches) {
    try {
      for (int b = firstBatch; b < numBatches; b++) {
        synchronized (this) {
          while (!stopped && b >= doneFloor + lookahead) {
            wait();
          }
          if (stopped) {
            return;
          }
        }
        for (int k = batchStart[b]; k < batchStart[b + 1]; k++) {
          if (!pin(batchPages[k], b)) {
            return;
          }
        }
        synchronized (this) {
          readyUpTo = b + 1;
          notifyAll();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException | RuntimeException e) {
      synchronized (this) {
        failure = new IllegalStateException("PROCESS cache failed to read a page: " + e, e);
        notifyAll();
      }
    }
  }

  private int nextUse(int page) {
    return cursor[page] < useStart[page + 1] ? uses[cursor[page]] : Integer.MAX_VALUE;
  }

  /** Pins {@code page} for batch {@code b}, loading it if needed; false if the epoch was stopped. */
  private boolean pin(int page, int b) throws IOException, InterruptedException {
    int slot;
    synchronized (this) {
      while (cursor[page] < useStart[page + 1] && uses[cursor[page]] <= b) {
        cursor[page]++;
      }
      pins[page]++;
      if (slotOf[page] >= 0) {
        return true;
      }
      while (true) {
        if (stopped) {
          return false;
        }
        slot = -1;
        int furthest = b;
        for (int s = 0; s < pageIn.length; s++) {
          int q = pageIn[s];
          if (q < 0) {
            slot = s;
            break;
          }
          if (pins[q] == 0 && slotOf[q] == s && nextUse(q) > furthest) {
            furthest = nextUse(q);
            slot = s;
          }
        }
        if (slot >= 0) {
          break;
        }
        wait(); // every slot is pinned or needed before b: wait for a batch to finish
      }
      if (pageIn[slot] >= 0) {
        slotOf[pageIn[slot]] = -1;
      }
      pageIn[slot] = page;
    }
    ByteBuffer dst = slots[slot].buffer().duplicate();
    int file = fileOf(page);
    long position = (firstPage[file] + page - pageOffset[file]) << shift;
    int length = (int) Math.min(pageSize, fileLength[file] - position);
    dst.clear().limit(length);
    if (sources != null) {
      dst.put(sources[file].read(position, length));
    }
    while (dst.hasRemaining()) {
      if (channels[file].read(dst, position + dst.position()) < 0) {
        throw new IOException("file ends at " + fileLength[file] + " inside page " + page);
      }
    }
    if (verifiers[file] != null) {
      // a damaged page is loaded all the same: each payload read from it fails, as a bad sample of its own
      verifiers[file].checkLoaded(position >>> shift, slots[slot].buffer(), position);
    }
    synchronized (this) {
      slotOf[page] = slot;
      pagesRead++;
    }
    return true;
  }

  /** Blocks until every page of batch {@code b} is resident; false if the epoch was stopped. */
  @Override
  public synchronized boolean awaitBatch(int b) throws InterruptedException {
    while (!stopped && failure == null && readyUpTo <= b) {
      wait();
    }
    if (failure != null) {
      throw failure;
    }
    return !stopped;
  }

  /** Unpins batch {@code b}'s pages once all its samples are decoded. */
  @Override
  public synchronized void batchDone(int b) {
    for (int k = batchStart[b]; k < batchStart[b + 1]; k++) {
      pins[batchPages[k]]--;
    }
    done[b] = true;
    while (doneFloor < done.length && done[doneFloor]) {
      doneFloor++;
    }
    notifyAll();
  }

  /** Stops the reader of the current epoch, if any. */
  @Override
  public void stopEpoch() {
    Thread r;
    synchronized (this) {
      stopped = true;
      notifyAll();
      r = reader;
      reader = null;
    }
    if (r != null) {
      boolean interrupted = false;
      while (r.isAlive()) {
        try {
          r.join();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private int fileOf(int page) {
    int lo = 0;
    int hi = pageOffset.length - 2;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (pageOffset[mid] <= page) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  /** Payload reads of file {@code file} of the shards, served from the cache. */
  public PayloadStore store(int file) {
    return new PayloadStore() {
      @Override
      public void copy(long position, int length, ByteBuffer dst, int dstOffset) {
        PageCache.this.copy(file, position, length, dst, dstOffset);
      }

      @Override
      public boolean view(long position, int length, PayloadView view) {
        view.set(slot(file, position, length), (int) (position & (pageSize - 1)));
        return true;
      }
    };
  }

  void copy(int file, long position, int length, ByteBuffer dst, int dstOffset) {
    if (length == 0) {
      return; // an empty value's pointer may name a page the batch does not pin
    }
    int at = (int) (position & (pageSize - 1));
    dst.put(dstOffset, slot(file, position, length), at, length);
  }

  private ByteBuffer slot(int file, long position, int length) {
    long page = (position >>> shift) - firstPage[file] + pageOffset[file];
    int s = page >= 0 && page < slotOf.length ? slotOf[(int) page] : -1;
    if (s < 0 || (position & (pageSize - 1)) + length > pageSize) {
      throw new IllegalStateException("Bytes [" + position + ", +" + length + ") are not in a resident page of the"
          + " PROCESS cache (page " + (position >>> shift) + ")");
    }
    ByteBuffer bytes = slots[s].buffer();
    if (verifiers[file] != null) {
      verifiers[file].require(position, length, bytes, (position >>> shift) << shift);
    }
    return bytes;
  }

  /**
   * Where the shards average less than half a page (a streaming write's micro-batches), each still takes whole pages
   * here, so a budget many times the dataset's bytes can be too small: then says so, with the fix.
   */
  /**
   * What to do when a batch needs more pages than a cache of {@code slots} holds: more budget, or an order that
   * draws a batch from fewer pages. QUASI_RANDOM's own buffer (FFCV's 2 x batch size) may exceed a small cache's
   * pages, in which case asking for QUASI_RANDOM again does not help; a smaller buffer does.
   */
  static String fewerPagesHint(int slots, int batchSize) {
    return "raise the budget, or draw each batch from fewer pages: QUASI_RANDOM with a page buffer below the"
        + " cache's " + slots + " (QuasiRandomOrder.withPageBuffer(n); OrderOption.QUASI_RANDOM's is 2 x batch size"
        + " = " + 2L * batchSize + " pages)";
  }

  private String smallShardsHint() {
    long bytes = 0;
    for (long length : fileLength) {
      bytes += length;
    }
    long average = bytes / fileLength.length;
    if (fileLength.length < 2 || average >= pageSize / 2) {
      return "";
    }
    return String.format(java.util.Locale.ROOT, ". The dataset's %,d shards average %,d bytes, and each takes a page"
        + " of its own in this cache: compacting the dataset (beton compact) packs them into fewer pages",
        fileLength.length, average);
  }

  @Override
  public void close() {
    stopEpoch();
    for (OffHeapBuffer b : slots) {
      if (b != null) {
        b.close();
      }
    }
    closeChannels();
  }

  private void closeChannels() {
    List<Closeable> open = new ArrayList<>();
    open.addAll(Arrays.asList(channels == null ? new FileChannel[0] : channels));
    open.addAll(Arrays.asList(sources == null ? new BetonSource[0] : sources));
    for (Closeable c : open) {
      try {
        if (c != null) {
          c.close();
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
