package org.sparkbeton.loader.order;

import java.util.function.Supplier;

/**
 * What an order may use: the loader's index set, seed, batch size, the shard (file) of each sample and
 * (lazily) the page of each sample.
 */
public final class OrderContext {
  private final int[] indices;
  private final long seed;
  private final int batchSize;
  private final Supplier<PageMap> pages;
  private final long[] shardStarts;
  private PageMap pageMap;

  /** A context for a dataset read as one shard. */
  public OrderContext(int[] indices, long seed, int batchSize, Supplier<PageMap> pages) {
    this(indices, seed, batchSize, pages, null);
  }

  /**
   * A context for a dataset of several shards: shard i holds the samples {@code [shardStarts[i],
   * shardStarts[i + 1])}; null means one shard.
   */
  public OrderContext(int[] indices, long seed, int batchSize, Supplier<PageMap> pages, long[] shardStarts) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("Batch size must be at least 1, got " + batchSize);
    }
    if (shardStarts != null && (shardStarts.length < 2 || shardStarts[0] != 0)) {
      throw new IllegalArgumentException("Shard starts must begin at 0 and end at the sample count, got "
          + java.util.Arrays.toString(shardStarts));
    }
    this.indices = indices;
    this.seed = seed;
    this.batchSize = batchSize;
    this.pages = pages;
    this.shardStarts = shardStarts == null ? null : shardStarts.clone();
  }

  /** Number of shards: the files or remote shards of the dataset, 1 for a single file. */
  public int shards() {
    return shardStarts == null ? 1 : shardStarts.length - 1;
  }

  /** The shard holding dataset sample {@code sample}. */
  public int shardOf(int sample) {
    if (shardStarts == null) {
      return 0;
    }
    int lo = 0;
    int hi = shardStarts.length - 2;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (shardStarts[mid] <= sample) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
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
