package org.sparkbeton.loader.order;

/** How a global epoch order is dealt to {@code worldSize} ranks; see {@link RankShare}. */
public enum RankSplit {
  /** Rank r takes positions r, r + w, r + 2w, ... (torch {@code DistributedSampler}). */
  STRIDED,
  /**
   * Rank r takes one contiguous run of the global order. Used by {@link QuasiRandomOrder}: a run of a
   * page-local order touches few pages, and different ranks' runs touch mostly different pages.
   */
  CONTIGUOUS
}
