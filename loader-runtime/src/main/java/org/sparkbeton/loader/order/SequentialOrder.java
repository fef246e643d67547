package org.sparkbeton.loader.order;

/** The indices as given, every epoch. */
final class SequentialOrder implements TraversalOrder {
  private final int[] indices;

  SequentialOrder(int[] indices) {
    this.indices = indices;
  }

  @Override
  public int[] globalOrder(int epoch) {
    return indices.clone();
  }
}
