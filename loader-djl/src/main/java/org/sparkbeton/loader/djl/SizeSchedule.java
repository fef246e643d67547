package org.sparkbeton.loader.djl;

import java.util.Arrays;

/**
 * The image side to train each epoch at (progressive resizing): small images early, the full size at the end.
 * {@link LoaderDataset} sets it on a crop decoder before each epoch starts; the loader re-plans its slots at the
 * epoch boundary, so the size changes without rebuilding anything.
 */
public final class SizeSchedule {
  private final int[] sizes;
  private final String description;

  private SizeSchedule(int[] sizes, String description) {
    this.sizes = sizes;
    this.description = description;
  }

  /** Where a size goes: a decoder's {@code outputSize}, e.g. {@code rrc::outputSize}. */
  @FunctionalInterface
  public interface Target {
    void outputSize(int height, int width);
  }

  /** Epoch {@code e} uses {@code sizes[e]}; epochs past the list use its last size. */
  public static SizeSchedule perEpoch(int... sizes) {
    if (sizes.length == 0) {
      throw new IllegalArgumentException("A size schedule needs at least one size");
    }
    for (int s : sizes) {
      checkSide(s);
    }
    return new SizeSchedule(sizes.clone(), "perEpoch" + Arrays.toString(sizes));
  }

  /**
   * FFCV's {@code get_resolution}: {@code startSize} up to epoch {@code startEpoch}, then a linear ramp to
   * {@code endSize} at {@code endEpoch}, each size rounded to a multiple of {@code multiple} (FFCV: 32; numpy's
   * round, half to even), {@code endSize} after.
   */
  public static SizeSchedule ramp(int startSize, int endSize, int startEpoch, int endEpoch, int multiple) {
    checkSide(startSize);
    checkSide(endSize);
    if (startEpoch < 0 || endEpoch <= startEpoch) {
      throw new IllegalArgumentException("A ramp needs 0 <= startEpoch < endEpoch, got " + startEpoch + " and "
          + endEpoch);
    }
    if (multiple < 1 || startSize % multiple != 0 || endSize % multiple != 0) {
      throw new IllegalArgumentException("Ramp sizes " + startSize + " and " + endSize
          + " must be multiples of the rounding step " + multiple + " (and the step at least 1)");
    }
    int[] sizes = new int[endEpoch + 1];
    for (int e = 0; e <= endEpoch; e++) {
      double t = Math.min(1, Math.max(0, (double) (e - startEpoch) / (endEpoch - startEpoch)));
      double interpolated = startSize + t * (endSize - startSize);
      sizes[e] = (int) Math.rint(interpolated / multiple) * multiple;
    }
    return new SizeSchedule(sizes, "ramp(" + startSize + " -> " + endSize + " over epochs " + startEpoch + ".."
        + endEpoch + ", multiples of " + multiple + ")");
  }

  private static void checkSide(int side) {
    if (side < 1) {
      throw new IllegalArgumentException("Image sides must be at least 1 pixel, got " + side);
    }
  }

  /** The side of epoch {@code epoch} (0-based). */
  public int size(int epoch) {
    if (epoch < 0) {
      throw new IllegalArgumentException("Epochs start at 0, got " + epoch);
    }
    return sizes[Math.min(epoch, sizes.length - 1)];
  }

  /** The largest side of any epoch: what to build a model's input shape for. */
  public int maxSize() {
    return Arrays.stream(sizes).max().orElseThrow();
  }

  @Override
  public String toString() {
    return description;
  }
}
