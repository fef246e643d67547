package org.sparkbeton.spark.read;

import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.sparkbeton.format.dataset.StoredDecimals;

/**
 * A column narrower than its field, as the dataset's writer recorded it ({@link BetonSchema}): an Int field's int64
 * read as an int, smallint, tinyint, boolean or date (an int of days); a Float field's float64 as a float or a decimal.
 * A stored value the column cannot hold exactly is no value of the column, and its readers fail rather than wrap it.
 */
enum NarrowColumn {
  INT {
    @Override
    boolean fits(long v) {
      return (int) v == v;
    }

    @Override
    Object value(long v) {
      return (int) v;
    }
  },
  SMALLINT {
    @Override
    boolean fits(long v) {
      return (short) v == v;
    }

    @Override
    Object value(long v) {
      return (short) v;
    }
  },
  TINYINT {
    @Override
    boolean fits(long v) {
      return (byte) v == v;
    }

    @Override
    Object value(long v) {
      return (byte) v;
    }
  },
  BOOLEAN {
    @Override
    boolean fits(long v) {
      return v == 0 || v == 1;
    }

    @Override
    Object value(long v) {
      return v == 1;
    }
  };

  /** Whether the column holds the stored integer {@code v}. */
  abstract boolean fits(long v);

  /** The column's value for a stored integer it {@link #fits}. */
  abstract Object value(long v);

  /**
   * The column of Spark type {@code type} that an Int field's values are read as, or null where they are read as the
   * longs they are ({@code bigint}, and timestamps, which Spark keeps as microseconds). A date is an int of days.
   */
  static NarrowColumn ofInteger(DataType type) {
    if (type == DataTypes.IntegerType || type == DataTypes.DateType) {
      return INT;
    } else if (type == DataTypes.ShortType) {
      return SMALLINT;
    } else if (type == DataTypes.ByteType) {
      return TINYINT;
    } else if (type == DataTypes.BooleanType) {
      return BOOLEAN;
    }
    return null;
  }

  /**
   * The value of a decimal column of {@code type} that the stored float64 {@code d} gives back
   * ({@link StoredDecimals}), or null where {@code d} is none (not finite, or more digits than the type holds).
   */
  static Decimal decimal(double d, DecimalType type) {
    if (!Double.isFinite(d)) {
      return null;
    }
    java.math.BigDecimal value = StoredDecimals.fromDouble(d, type.scale());
    return value.precision() - value.scale() > type.precision() - type.scale() ? null
        : Decimal.apply(value, type.precision(), type.scale());
  }

  /** Whether a {@code float} column holds the stored float64 {@code d}: exactly, or as a NaN. */
  static boolean floatFits(double d) {
    return (float) d == d || Double.isNaN(d);
  }
}
