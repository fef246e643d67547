package org.sparkbeton.format.dataset;

/**
 * Per-shard minimum and maximum of one Int or Float field, for skipping shards a filter cannot
 * match. For Int fields {@code min}/{@code max} are {@link Long}s; for Float fields {@link Double}s
 * over the non-NaN values, with {@code hasNan} telling whether any value was NaN. Both bounds are
 * null when there is no non-NaN value (an empty shard, or all NaN).
 */
public record ColumnStats(Number min, Number max, boolean hasNan) {
  public ColumnStats {
    if ((min == null) != (max == null)) {
      throw new IllegalArgumentException("min and max must both be present or both absent");
    }
    if (min != null && min.getClass() != max.getClass()) {
      throw new IllegalArgumentException("min and max must have the same type, got " + min.getClass().getSimpleName()
          + " and " + max.getClass().getSimpleName());
    }
    if (min instanceof Long lo && lo > (Long) max) {
      throw new IllegalArgumentException("min " + min + " is above max " + max);
    }
    if (min instanceof Double lo && (lo.isNaN() || ((Double) max).isNaN() || lo > (Double) max)) {
      throw new IllegalArgumentException("min " + min + " and max " + max + " must be ordered non-NaN values");
    }
    if (min != null && !(min instanceof Long || min instanceof Double)) {
      throw new IllegalArgumentException("bounds must be Long or Double, got " + min.getClass().getSimpleName());
    }
    if (min instanceof Long && hasNan) {
      throw new IllegalArgumentException("an Int field cannot hold NaN");
    }
  }

  public static ColumnStats ofLongs(long min, long max) {
    return new ColumnStats(min, max, false);
  }

  public static ColumnStats ofDoubles(double min, double max, boolean hasNan) {
    return new ColumnStats(min, max, hasNan);
  }

  /** Running min/max, for writers that see one value at a time. */
  public static final class Accumulator {
    private final boolean floating;
    private long minL = Long.MAX_VALUE;
    private long maxL = Long.MIN_VALUE;
    private double minD = Double.POSITIVE_INFINITY;
    private double maxD = Double.NEGATIVE_INFINITY;
    private boolean any;
    private boolean nan;

    private Accumulator(boolean floating) {
      this.floating = floating;
    }

    public static Accumulator forInts() {
      return new Accumulator(false);
    }

    public static Accumulator forFloats() {
      return new Accumulator(true);
    }

    public void add(long v) {
      if (floating) {
        add((double) v);
        return;
      }
      minL = Math.min(minL, v);
      maxL = Math.max(maxL, v);
      any = true;
    }

    public void add(double v) {
      if (!floating) {
        throw new IllegalStateException("Int statistics take long values");
      }
      if (Double.isNaN(v)) {
        nan = true;
        return;
      }
      minD = Math.min(minD, v);
      maxD = Math.max(maxD, v);
      any = true;
    }

    public ColumnStats result() {
      if (!any) {
        return new ColumnStats(null, null, nan);
      }
      return floating ? ofDoubles(minD, maxD, nan) : ofLongs(minL, maxL);
    }
  }
}
