package org.sparkbeton.loader.order;

import java.util.function.Supplier;

/** What an order may use: the loader's index set, seed, batch size, and (lazily) the page of each sample. */
public final class OrderContext {
  private final int[] indices;
  private final long seed;
  private final int batchSize;
  private final Supplier<PageMap> pages;
  private PageMap pageMap;

  public OrderContext(int[] indices, long seed, int batchSize, Supplier<PageMap> pages) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("Batch size must be at least 1, got " + batchSize);
    }
    this.indices = indices;
    this.seed = seed;
    this.batchSize = batchSize;
    this.pages = pages;
  }

  /** The loader's samples in their given order (all samples, or the user's subset). Do not modify. */
  public int[] indices() {
    return indices;
  }

  public long seed() {
    return seed;
  }

  public int batchSize() {
    return batchSize;
  }

  /** Page of each sample of the dataset; computed on first call. */
  public synchronized PageMap pages() {
    if (pageMap == null) {
      pageMap = pages.get();
    }
    return pageMap;
  }
}
