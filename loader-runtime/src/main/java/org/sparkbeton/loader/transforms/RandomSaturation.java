package org.sparkbeton.loader.transforms;

/** FFCV's {@code RandomSaturation(magnitude, p=0.5)}; see {@link ColorJitter}. */
public final class RandomSaturation extends ColorJitter {
  public RandomSaturation(double magnitude) {
    this(magnitude, 0.5);
  }

  public RandomSaturation(double magnitude, double p) {
    super(magnitude, p);
  }

  @Override
  int kind() {
    return 2;
  }
}
