package org.sparkbeton.loader.transforms;

/** FFCV's {@code RandomContrast(magnitude, p=0.5)}; see {@link ColorJitter}. */
public final class RandomContrast extends ColorJitter {
  public RandomContrast(double magnitude) {
    this(magnitude, 0.5);
  }

  public RandomContrast(double magnitude, double p) {
    super(magnitude, p);
  }

  @Override
  int kind() {
    return 1;
  }
}
