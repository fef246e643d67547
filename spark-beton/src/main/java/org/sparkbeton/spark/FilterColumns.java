package org.sparkbeton.spark;

import java.util.Optional;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualNullSafe;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.IsNotNull;
import org.apache.spark.sql.sources.IsNull;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.sources.Not;
import org.apache.spark.sql.sources.Or;

/**
 * Spark's V1 filters as DataFrame conditions, for a V1 scan that runs a DataFrame read beneath it: the read then
 * prunes shards by their min/max as a direct read does. A filter of another kind gives none (Spark applies every
 * filter above the scan anyway).
 */
final class FilterColumns {
  private FilterColumns() {}

  static Optional<Column> of(Filter f) {
    if (f instanceof EqualTo e) {
      return Optional.of(col(e.attribute()).equalTo(e.value()));
    } else if (f instanceof EqualNullSafe e) {
      return Optional.of(col(e.attribute()).eqNullSafe(e.value()));
    } else if (f instanceof GreaterThan g) {
      return Optional.of(col(g.attribute()).gt(g.value()));
    } else if (f instanceof GreaterThanOrEqual g) {
      return Optional.of(col(g.attribute()).geq(g.value()));
    } else if (f instanceof LessThan l) {
      return Optional.of(col(l.attribute()).lt(l.value()));
    } else if (f instanceof LessThanOrEqual l) {
      return Optional.of(col(l.attribute()).leq(l.value()));
    } else if (f instanceof In in) {
      return Optional.of(col(in.attribute()).isin(in.values()));
    } else if (f instanceof IsNull n) {
      return Optional.of(col(n.attribute()).isNull());
    } else if (f instanceof IsNotNull n) {
      return Optional.of(col(n.attribute()).isNotNull());
    } else if (f instanceof And a) {
      return of(a.left()).flatMap(l -> of(a.right()).map(l::and));
    } else if (f instanceof Or o) {
      return of(o.left()).flatMap(l -> of(o.right()).map(l::or));
    } else if (f instanceof Not n) {
      return of(n.child()).map(functions::not);
    }
    return Optional.empty();
  }

  /** A top-level column by its name as Spark's filter gives it (quoted, so dots and backticks stay in the name). */
  private static Column col(String attribute) {
    return functions.col("`" + attribute.replace("`", "``") + "`");
  }
}
