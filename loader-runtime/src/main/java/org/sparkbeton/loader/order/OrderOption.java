package org.sparkbeton.loader.order;

/** FFCV's three built-in orders. */
public enum OrderOption implements TraversalOrder.Factory {
  /** The indices as given, every epoch. */
  SEQUENTIAL {
    @Override
    public TraversalOrder create(OrderContext context) {
      return new SequentialOrder(context.indices());
    }
  },
  /** A uniform permutation drawn from (seed, epoch). */
  RANDOM {
    @Override
    public TraversalOrder create(OrderContext context) {
      return new RandomOrder(context.indices(), context.seed());
    }
  },
  /** FFCV's page-local shuffle (docs/format.md#orders) with a page buffer of {@code 2 * batchSize} pages. */
  QUASI_RANDOM {
    @Override
    public TraversalOrder create(OrderContext context) {
      return QuasiRandomOrder.withPageBuffer(2 * context.batchSize()).create(context);
    }
  }
}
