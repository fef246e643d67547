package org.sparkbeton.loader.order;

/**
 * The order in which one epoch visits the loader's samples. An order computes the <em>global</em>
 * order of an epoch, the same on every rank; the loader then cuts this rank's share out of it with
 * {@link #rankSplit()} (see {@link RankShare}), so every order, user orders included, works with
 * {@code distributed(rank, worldSize)}.
 *
 * <p>Contract: {@link #globalOrder(int)} is a pure function of the loader's seed and {@code epoch}
 * (never of thread timing or of previous calls), so any epoch can be recomputed to resume a run; it
 * returns a permutation of the loader's indices (the same multiset) so that ranks stay disjoint.
 */
public interface TraversalOrder {

  /** Every sample of the loader's index set, in the order epoch {@code epoch} visits them. */
  int[] globalOrder(int epoch);

  /** How the global order is dealt to ranks; {@link RankSplit#STRIDED} like torch's DistributedSampler. */
  default RankSplit rankSplit() {
    return RankSplit.STRIDED;
  }

  /** Creates an order for one loader; the built-in ones are the constants of {@link OrderOption}. */
  @FunctionalInterface
  interface Factory {
    TraversalOrder create(OrderContext context);
  }
}
