package org.sparkbeton.loader.order;

import java.util.SplittableRandom;

/**
 * FFCV's QUASI_RANDOM order (docs/format.md#orders): samples are grouped by data page; each epoch shuffles
 * every page's samples and the pages, keeps a buffer of at most {@code pageBuffer} open pages filled
 * in page order, and emits, for each position, the next sample of a page picked uniformly from the
 * buffer; a page leaves the buffer when used up. A window of consecutive samples therefore touches
 * at most {@code pageBuffer} pages plus the ones that replaced exhausted pages, which lets a page cache
 * hold a small part of a large dataset. FFCV hard-codes {@code pageBuffer = 2 * batchSize}.
 *
 * <p>Differences from FFCV, on purpose: each epoch starts from the pages' samples in index order
 * (FFCV shuffles its page lists in place, cumulatively, so epoch e depends on having run epochs
 * 0..e-1); an epoch is thus a pure function of (seed, epoch) and can be resumed. Samples with no
 * allocation (a dataset with only Int/Float fields) form one group each instead of being refused.
 * Distributed loaders deal contiguous runs of the global order ({@link RankSplit#CONTIGUOUS}) so
 * that ranks read mostly disjoint pages (FFCV refuses QUASI_RANDOM with distributed, its issue #92).
 */
public final class QuasiRandomOrder implements TraversalOrder {
  private static final long SALT = 0x5155415349L; // "QUASI"
  private final long seed;
  private final int pageBuffer;
  private final SampleGroups groups; // by page; a sample with no page in a group of its own

  QuasiRandomOrder(int[] indices, long seed, int pageBuffer, PageMap pages) {
    if (pageBuffer < 1) {
      throw new IllegalArgumentException("QUASI_RANDOM page buffer must hold at least 1 page, got " + pageBuffer);
    }
    this.seed = seed;
    this.pageBuffer = pageBuffer;
    this.groups = new SampleGroups(indices, pages.numPages(), pages::page); // NO_PAGE: a group of its own
  }

  /** QUASI_RANDOM with a buffer of {@code pageBuffer} open pages instead of FFCV's {@code 2 * batchSize}. */
  public static TraversalOrder.Factory withPageBuffer(int pageBuffer) {
    if (pageBuffer < 1) {
      throw new IllegalArgumentException("QUASI_RANDOM page buffer must hold at least 1 page, got " + pageBuffer);
    }
    return context -> new QuasiRandomOrder(context.indices(), context.seed(), pageBuffer, context.pages());
  }

  public int pageBuffer() {
    return pageBuffer;
  }

  @Override
  public RankSplit rankSplit() {
    return RankSplit.CONTIGUOUS;
  }

  @Override
  public int[] globalOrder(int epoch) {
    SplittableRandom rng = new SplittableRandom(Seeds.mix(seed, epoch, SALT));
    int[] pool = groups.shuffledMembers(rng);
    int numGroups = groups.count();
    int[] groupOrder = groups.shuffledOrder(rng);

    int capacity = Math.min(pageBuffer, Math.max(1, numGroups));
    int[] next = new int[capacity]; // next position in pool of each open group
    int[] end = new int[capacity];
    int open = 0;
    int nextGroup = 0;
    while (open < capacity && nextGroup < numGroups) {
      int g = groupOrder[nextGroup++];
      next[open] = groups.start(g);
      end[open++] = groups.start(g + 1);
    }
    int[] out = new int[pool.length];
    for (int i = 0; i < out.length; i++) {
      int k = rng.nextInt(open);
      out[i] = pool[next[k]++];
      if (next[k] == end[k]) {
        if (nextGroup < numGroups) {
          int g = groupOrder[nextGroup++];
          next[k] = groups.start(g);
          end[k] = groups.start(g + 1);
        } else {
          open--;
          next[k] = next[open];
          end[k] = end[open];
        }
      }
    }
    return out;
  }
}
