package org.sparkbeton.spark.write;

import java.io.Serializable;

/**
 * FFCV's size rule for stored images: none, a longest side ({@code maxResolution}) or a shortest side
 * ({@code minResolution}); the two options exclude each other, so one value holds the rule.
 */
record ResolutionLimit(Side side, int length) implements Serializable {
  /** Which side of an image the limit applies to. */
  enum Side {
    /** no limit: images keep their size */
    NONE,
    /** the longer side is at most {@code length} ({@code maxResolution}) */
    LONGER,
    /** the shorter side is at most {@code length} ({@code minResolution}) */
    SHORTER
  }

  static final ResolutionLimit NONE = new ResolutionLimit(Side.NONE, 0);

  /**
   * The scale factor for a {@code w x h} image, before any clamping: above 1 means the limit would enlarge it,
   * which the writer never does.
   */
  double ratio(int w, int h) {
    return switch (side) {
      case NONE -> 1;
      case LONGER -> (double) length / Math.max(w, h);
      case SHORTER -> (double) length / Math.min(w, h);
    };
  }

  /** The recipe's value for {@code side}: the length when this limit is on that side, else {@code none}. */
  String recipe(Side of) {
    return side == of ? Integer.toString(length) : "none";
  }
}
