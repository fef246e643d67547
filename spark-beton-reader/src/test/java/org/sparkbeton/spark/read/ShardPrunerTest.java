package org.sparkbeton.spark.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.IsNull;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.sources.Not;
import org.apache.spark.sql.sources.Or;
import org.apache.spark.sql.sources.StringStartsWith;
import org.junit.jupiter.api.Test;
import org.sparkbeton.format.dataset.ColumnStats;

class ShardPrunerTest {
  private static final Map<String, ColumnStats> STATS = Map.of(
      "label", ColumnStats.ofLongs(10, 19),
      "w", ColumnStats.ofDoubles(-1.5, 2.5, false),
      "n", ColumnStats.ofDoubles(0, 1, true));

  private static boolean might(Filter f) {
    return ShardPruner.mightMatch(new Filter[] {f}, STATS);
  }

  @Test
  void booleanDateAndTimestampLiteralsCompareAsTheIntegersTheirColumnsStore() {
    // days of 2024-01-01..2024-01-31, microseconds of 2024-01-01T00:00Z..+1 s, a column of true only
    long jan1 = java.time.LocalDate.parse("2024-01-01").toEpochDay();
    long micros = java.time.Instant.parse("2024-01-01T00:00:00Z").getEpochSecond() * 1_000_000L;
    Map<String, ColumnStats> stats = Map.of("day", ColumnStats.ofLongs(jan1, jan1 + 30),
        "at", ColumnStats.ofLongs(micros, micros + 1_000_000L), "flag", ColumnStats.ofLongs(1, 1));
    java.util.function.Predicate<Filter> might = f -> ShardPruner.mightMatch(new Filter[] {f}, stats);
    assertThat(might.test(new EqualTo("flag", false))).isFalse();
    assertThat(might.test(new EqualTo("flag", true))).isTrue();
    assertThat(might.test(new GreaterThan("day", java.time.LocalDate.parse("2024-01-31")))).isFalse();
    assertThat(might.test(new GreaterThanOrEqual("day", java.time.LocalDate.parse("2024-01-31")))).isTrue();
    assertThat(might.test(new LessThan("day", java.sql.Date.valueOf("2024-01-01")))).isFalse();
    assertThat(might.test(new LessThanOrEqual("day", java.sql.Date.valueOf("2024-01-01")))).isTrue();
    assertThat(might.test(new GreaterThan("at", java.time.Instant.parse("2024-01-01T00:00:01Z")))).isFalse();
    assertThat(might.test(new GreaterThan("at", java.time.Instant.parse("2024-01-01T00:00:00.999999Z")))).isTrue();
    assertThat(might.test(new LessThan("at", java.sql.Timestamp.from(java.time.Instant.parse("2024-01-01T00:00:00Z")))))
        .isFalse();
    assertThat(might.test(new EqualTo("at", java.time.LocalDateTime.parse("2024-01-01T00:00:00.5")))).isTrue();
    assertThat(might.test(new EqualTo("at", java.time.LocalDateTime.parse("2024-01-01T00:00:02")))).isFalse();
  }

  @Test
  void comparisonsAgainstIntBounds() {
    assertThat(might(new EqualTo("label", 10L))).isTrue();
    assertThat(might(new EqualTo("label", 20L))).isFalse();
    assertThat(might(new EqualTo("label", 9L))).isFalse();
    assertThat(might(new GreaterThan("label", 19L))).isFalse();
    assertThat(might(new GreaterThan("label", 18L))).isTrue();
    assertThat(might(new GreaterThanOrEqual("label", 19L))).isTrue();
    assertThat(might(new LessThan("label", 10L))).isFalse();
    assertThat(might(new LessThanOrEqual("label", 10L))).isTrue();
    assertThat(might(new In("label", new Object[] {1L, 25L}))).isFalse();
    assertThat(might(new In("label", new Object[] {1L, 15L}))).isTrue();
    assertThat(might(new IsNull("label"))).isFalse();
  }

  @Test
  void comparisonsAgainstFloatBounds() {
    assertThat(might(new GreaterThan("w", 2.5))).isFalse();
    assertThat(might(new GreaterThanOrEqual("w", 2.5))).isTrue();
    assertThat(might(new LessThan("w", -1.5))).isFalse();
    assertThat(might(new EqualTo("w", 0.0))).isTrue();
    assertThat(might(new EqualTo("w", Double.NaN))).isTrue();
  }

  @Test
  void neverPrunesWhatItCannotProve() {
    assertThat(might(new GreaterThan("n", 5.0))).as("column with NaN").isTrue();
    assertThat(might(new GreaterThan("other", 5L))).as("no stats").isTrue();
    assertThat(might(new Not(new EqualTo("label", 10L)))).isTrue();
    assertThat(might(new StringStartsWith("s", "x"))).isTrue();
    assertThat(might(new EqualTo("label", "ten"))).isTrue();
    assertThat(might(new EqualTo("label", 10.5))).as("mixed types").isTrue();
  }

  @Test
  void combinesAndOr() {
    assertThat(might(new And(new GreaterThan("label", 12L), new GreaterThan("w", 9.0)))).isFalse();
    assertThat(might(new And(new GreaterThan("label", 12L), new LessThan("label", 11L)))).as("each side alone might match").isTrue();
    assertThat(might(new Or(new GreaterThan("label", 30L), new LessThan("label", 5L)))).isFalse();
    assertThat(might(new Or(new GreaterThan("label", 30L), new LessThan("label", 11L)))).isTrue();
    assertThat(ShardPruner.mightMatch(new Filter[] {new GreaterThan("label", 12L), new GreaterThan("w", 9.0)}, STATS))
        .isFalse();
  }

  /**
   * A decimal(10,2) column of 0.10 .. 0.30, stored as the float64s nearest them (0.1 is 0.1000000000000000055..., 0.3
   * is 0.2999999999999999888...): decimal literals compare with the bounds rounded back to the scale, so the shard's
   * own least and greatest values match and the next cents do not; without the scale no shard is skipped.
   */
  @Test
  void decimalLiteralsCompareWithTheBoundsRoundedToTheColumnsScale() {
    Map<String, ColumnStats> stats = Map.of("price", ColumnStats.ofDoubles(0.1, 0.3, false));
    Map<String, Integer> scales = Map.of("price", 2);
    java.util.function.Predicate<Filter> might = f -> ShardPruner.mightMatch(new Filter[] {f}, stats, scales);
    java.math.BigDecimal tenCents = new java.math.BigDecimal("0.10");
    java.math.BigDecimal thirtyCents = new java.math.BigDecimal("0.3"); // any scale: compared by value
    assertThat(might.test(new LessThanOrEqual("price", tenCents))).isTrue();
    assertThat(might.test(new LessThan("price", tenCents))).isFalse();
    assertThat(might.test(new GreaterThanOrEqual("price", thirtyCents))).isTrue();
    assertThat(might.test(new GreaterThan("price", thirtyCents))).isFalse();
    assertThat(might.test(new GreaterThan("price", new java.math.BigDecimal("0.29")))).isTrue();
    assertThat(might.test(new EqualTo("price", thirtyCents))).isTrue();
    assertThat(might.test(new EqualTo("price", new java.math.BigDecimal("0.31")))).isFalse();
    assertThat(might.test(new EqualTo("price", new java.math.BigDecimal("0.095")))).isFalse();
    assertThat(might.test(new In("price", new Object[] {new java.math.BigDecimal("0.05"),
        new java.math.BigDecimal("0.31")}))).isFalse();
    assertThat(might.test(new In("price", new Object[] {new java.math.BigDecimal("0.05"), tenCents}))).isTrue();
    // the float64 bounds compared as they are would wrongly skip price <= 0.10 (0.1000000000000000055 > 0.10)
    assertThat(new java.math.BigDecimal(0.1).compareTo(tenCents)).isPositive();
    // no scale (not a decimal column): a decimal literal skips nothing
    assertThat(ShardPruner.mightMatch(new Filter[] {new LessThan("price", tenCents)}, stats)).isTrue();
  }

  @Test
  void reportsOnlyFiltersOnStatsColumnsAsPushed() {
    Set<String> cols = Set.of("label");
    assertThat(ShardPruner.usable(new EqualTo("label", 1L), cols)).isTrue();
    assertThat(ShardPruner.usable(new EqualTo("other", 1L), cols)).isFalse();
    assertThat(ShardPruner.usable(new Or(new EqualTo("label", 1L), new EqualTo("other", 1L)), cols)).isFalse();
    assertThat(ShardPruner.usable(new And(new EqualTo("label", 1L), new EqualTo("other", 1L)), cols)).isTrue();
  }
}
