package org.sparkbeton.spark.read;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Map;
import org.apache.spark.sql.catalyst.util.DateTimeUtils;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualNullSafe;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.IsNull;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.sources.Or;
import org.sparkbeton.format.dataset.ColumnStats;
import org.sparkbeton.format.dataset.StoredDecimals;

/**
 * Decides from a shard's manifest min/max whether a pushed filter can match any of its rows. Answers
 * "might match" whenever it cannot prove otherwise: unknown filters, columns without statistics,
 * Float columns holding NaN (Spark orders NaN above every number), literals other than numbers, booleans, dates,
 * timestamps and decimals (the last only on a decimal column, whose scale the caller gives). Spark still evaluates
 * every filter on the rows, so pruning only ever skips whole shards that cannot match.
 */
public final class ShardPruner {
  private ShardPruner() {}

  /** True unless some filter (they are ANDed) provably matches no row of a shard with these stats. */
  public static boolean mightMatch(Filter[] filters, Map<String, ColumnStats> stats) {
    return mightMatch(filters, stats, Map.of());
  }

  /**
   * {@link #mightMatch(Filter[], Map)} where the columns in {@code decimalScales} are decimals of that scale stored
   * as float64s ({@link StoredDecimals}): their bounds, rounded back to the scale, are the shard's least and greatest
   * decimals exactly (the rounding keeps order and gives every stored value back), so a decimal literal is compared
   * with those.
   */
  public static boolean mightMatch(Filter[] filters, Map<String, ColumnStats> stats,
      Map<String, Integer> decimalScales) {
    Bounds bounds = new Bounds(stats, decimalScales);
    for (Filter f : filters) {
      if (!mightMatch(f, bounds)) {
        return false;
      }
    }
    return true;
  }

  /** True when the filter references only columns it could use for pruning (so it is worth reporting as pushed). */
  public static boolean usable(Filter f, java.util.Set<String> statsColumns) {
    if (f instanceof And a) {
      return usable(a.left(), statsColumns) || usable(a.right(), statsColumns);
    }
    if (f instanceof Or o) {
      return usable(o.left(), statsColumns) && usable(o.right(), statsColumns);
    }
    String column = column(f);
    return column != null && statsColumns.contains(column);
  }

  /** A shard's statistics, and the scale of each decimal column among them. */
  private record Bounds(Map<String, ColumnStats> stats, Map<String, Integer> decimalScales) {}

  private static boolean mightMatch(Filter f, Bounds b) {
    if (f instanceof And a) {
      return mightMatch(a.left(), b) && mightMatch(a.right(), b);
    }
    if (f instanceof Or o) {
      return mightMatch(o.left(), b) || mightMatch(o.right(), b);
    }
    if (f instanceof IsNull n) {
      // beton columns are never null
      return !b.stats().containsKey(n.attribute());
    }
    String column = column(f);
    ColumnStats s = column == null ? null : b.stats().get(column);
    if (s == null || s.hasNan()) {
      return true;
    }
    if (s.min() == null) {
      return false; // no values at all
    }
    Integer scale = b.decimalScales().get(column);
    if (f instanceof EqualTo e) {
      return between(e.value(), s, scale);
    }
    if (f instanceof EqualNullSafe e) {
      return between(e.value(), s, scale);
    }
    if (f instanceof In in) {
      for (Object v : in.values()) {
        if (between(v, s, scale)) {
          return true;
        }
      }
      return false;
    }
    if (f instanceof GreaterThan g) {
      Integer c = compare(s.max(), g.value(), scale);
      return c == null || c > 0;
    }
    if (f instanceof GreaterThanOrEqual g) {
      Integer c = compare(s.max(), g.value(), scale);
      return c == null || c >= 0;
    }
    if (f instanceof LessThan l) {
      Integer c = compare(s.min(), l.value(), scale);
      return c == null || c < 0;
    }
    if (f instanceof LessThanOrEqual l) {
      Integer c = compare(s.min(), l.value(), scale);
      return c == null || c <= 0;
    }
    return true;
  }

  private static boolean between(Object value, ColumnStats s, Integer scale) {
    Integer lo = compare(s.min(), value, scale);
    Integer hi = compare(s.max(), value, scale);
    return lo == null || hi == null || (lo <= 0 && hi >= 0);
  }

  /**
   * Sign of {@code bound - value}, or null when the value is not a number we can compare exactly; {@code scale} is
   * the column's where it is a decimal column, else null.
   */
  private static Integer compare(Number bound, Object value, Integer scale) {
    if (value instanceof BigDecimal v) {
      if (scale == null || !(bound instanceof Double b) || !Double.isFinite(b)) {
        return null;
      }
      return Integer.signum(StoredDecimals.fromDouble(b, scale).compareTo(v));
    }
    value = storedInteger(value);
    if (!(value instanceof Number v)) {
      return null;
    }
    if (bound instanceof Long b && (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte)) {
      return Long.compare(b, v.longValue());
    }
    if (bound instanceof Double b && (v instanceof Double || v instanceof Float)) {
      double d = v.doubleValue();
      if (Double.isNaN(d)) {
        return null;
      }
      return b == d ? 0 : b < d ? -1 : 1; // -0.0 == 0.0, as in Spark's comparison
    }
    return null;
  }

  /**
   * The Int field value a filter's boolean, date or timestamp literal stands for, in a column the writer recorded as
   * one (0 or 1; days; microseconds since 1970), converted as Spark converts them; any other value as it is.
   */
  private static Object storedInteger(Object value) {
    if (value instanceof Boolean b) {
      return b ? 1L : 0L;
    } else if (value instanceof java.sql.Date d) {
      return (long) DateTimeUtils.fromJavaDate(d);
    } else if (value instanceof LocalDate d) {
      return (long) DateTimeUtils.localDateToDays(d);
    } else if (value instanceof java.sql.Timestamp t) {
      return DateTimeUtils.fromJavaTimestamp(t);
    } else if (value instanceof Instant i) {
      return DateTimeUtils.instantToMicros(i);
    } else if (value instanceof LocalDateTime t) {
      return DateTimeUtils.localDateTimeToMicros(t);
    }
    return value;
  }

  private static String column(Filter f) {
    if (f instanceof EqualTo e) {
      return e.attribute();
    }
    if (f instanceof EqualNullSafe e) {
      return e.attribute();
    }
    if (f instanceof In i) {
      return i.attribute();
    }
    if (f instanceof GreaterThan g) {
      return g.attribute();
    }
    if (f instanceof GreaterThanOrEqual g) {
      return g.attribute();
    }
    if (f instanceof LessThan l) {
      return l.attribute();
    }
    if (f instanceof LessThanOrEqual l) {
      return l.attribute();
    }
    if (f instanceof IsNull n) {
      return n.attribute();
    }
    return null;
  }
}
