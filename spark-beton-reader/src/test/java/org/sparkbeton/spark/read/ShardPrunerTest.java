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

  @Test
  void reportsOnlyFiltersOnStatsColumnsAsPushed() {
    Set<String> cols = Set.of("label");
    assertThat(ShardPruner.usable(new EqualTo("label", 1L), cols)).isTrue();
    assertThat(ShardPruner.usable(new EqualTo("other", 1L), cols)).isFalse();
    assertThat(ShardPruner.usable(new Or(new EqualTo("label", 1L), new EqualTo("other", 1L)), cols)).isFalse();
    assertThat(ShardPruner.usable(new And(new EqualTo("label", 1L), new EqualTo("other", 1L)), cols)).isTrue();
  }
}
