package org.sparkbeton.format.dataset;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Decimals stored in a Float field, FFCV's float64: a value is stored when its float64, rounded back to the value's
 * scale, is the value again, which holds for every decimal of up to 15 significant digits and for many longer ones.
 * FFCV's loader reads the nearest float64 to the decimal; a reader that knows the column's scale (the type a Spark
 * write records, {@link RecordedColumnTypes}) gets the decimal back, exactly. A value that does not come back is
 * refused, never rounded.
 */
public final class StoredDecimals {
  private StoredDecimals() {}

  /** The float64 that stores {@code value}; refused where it would not give the value back. */
  public static double toDouble(BigDecimal value) {
    double d = value.doubleValue();
    if (Double.isFinite(d) && fromDouble(d, value.scale()).compareTo(value) == 0) {
      return d;
    }
    // trailing zeros are the column's scale, not digits of the value: 1.000000000000000100 at scale 18 has 17 (an
    // integer's zeros before the point are stripped too: its precision then counts the digits before them)
    BigDecimal digits = value.stripTrailingZeros();
    if (!Double.isFinite(d)) {
      throw new IllegalArgumentException("decimal " + digits.toPlainString() + " is beyond the range of a float64"
          + " (about 1.8E308): cast the column to string for its exact text");
    }
    throw new IllegalArgumentException("decimal " + digits.toPlainString() + " has more significant digits ("
        + digits.precision() + ") than a float64 gives back exactly (15 always fit): cast the column to double"
        + " for the nearest value, or to string for its exact text");
  }

  /**
   * The decimal of {@code scale} digits after the point that the finite float64 {@code d} stores: its exact binary
   * value rounded half-even to the scale (not its shortest text, which differs between Java versions).
   */
  public static BigDecimal fromDouble(double d, int scale) {
    return new BigDecimal(d).setScale(scale, RoundingMode.HALF_EVEN);
  }
}
