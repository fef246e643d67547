package org.sparkbeton.loader.transforms;

/** FFCV's {@code RandomBrightness(magnitude, p=0.5)}; see {@link ColorJitter}. */
public final class RandomBrightness extends ColorJitter {
  public RandomBrightness(double magnitude) {
    this(magnitude, 0.5);
  }

  public RandomBrightness(double magnitude, double p) {
    super(magnitude, p);
  }

  @Override
  int kind() {
    return 0;
  }
}
