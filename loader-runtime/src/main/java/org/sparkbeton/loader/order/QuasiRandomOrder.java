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
  private final int[] groupStart; // CSR: group g holds members[groupStart[g] .. groupStart[g+1])
  private final int[] members;

  QuasiRandomOrder(int[] indices, long seed, int pageBuffer, PageMap pages) {
    if (pageBuffer < 1) {
      throw new IllegalArgumentException("QUASI_RANDOM page buffer must hold at least 1 page, got " + pageBuffer);
    }
    this.seed = seed;
    this.pageBuffer = pageBuffer;
    int numPages = pages.numPages();
    int unpaged = 0;
    int[] count = new int[numPages + 1];
    for (int s : indices) {
      int p = pages.page(s);
      if (p == PageMap.NO_PAGE) {
        unpaged++;
      } else {
        count[p + 1]++;
      }
    }
    // compact the non-empty pages into groups 0..G-1, then one group per unpaged sample
    int[] groupOfPage = new int[numPages];
    int groups = 0;
    for (int p = 0; p < numPages; p++) {
      groupOfPage[p] = count[p + 1] > 0 ? groups++ : -1;
    }
    int totalGroups = groups + unpaged;
    int[] start = new int[totalGroups + 1];
    for (int s : indices) {
      int p = pages.page(s);
      if (p != PageMap.NO_PAGE) {
        start[groupOfPage[p] + 1]++;
      }
    }
    for (int g = groups; g < totalGroups; g++) {
      start[g + 1] = 1;
    }
    for (int g = 0; g < totalGroups; g++) {
      start[g + 1] += start[g];
    }
    int[] fill = new int[totalGroups];
    int[] out = new int[indices.length];
    int nextUnpaged = groups;
    for (int s : indices) {
      int p = pages.page(s);
      int g = p == PageMap.NO_PAGE ? nextUnpaged++ : groupOfPage[p];
      out[start[g] + fill[g]++] = s;
    }
    this.groupStart = start;
    this.members = out;
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
    int[] pool = members.clone();
    int numGroups = groupStart.length - 1;
    for (int g = 0; g < numGroups; g++) {
      RandomOrder.shuffle(pool, groupStart[g], groupStart[g + 1], rng);
    }
    int[] groupOrder = new int[numGroups];
    for (int g = 0; g < numGroups; g++) {
      groupOrder[g] = g;
    }
    RandomOrder.shuffle(groupOrder, 0, numGroups, rng);

    int capacity = Math.min(pageBuffer, Math.max(1, numGroups));
    int[] next = new int[capacity]; // next position in pool of each open group
    int[] end = new int[capacity];
    int open = 0;
    int nextGroup = 0;
    while (open < capacity && nextGroup < numGroups) {
      int g = groupOrder[nextGroup++];
      next[open] = groupStart[g];
      end[open++] = groupStart[g + 1];
    }
    int[] out = new int[pool.length];
    for (int i = 0; i < out.length; i++) {
      int k = rng.nextInt(open);
      out[i] = pool[next[k]++];
      if (next[k] == end[k]) {
        if (nextGroup < numGroups) {
          int g = groupOrder[nextGroup++];
          next[k] = groupStart[g];
          end[k] = groupStart[g + 1];
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
