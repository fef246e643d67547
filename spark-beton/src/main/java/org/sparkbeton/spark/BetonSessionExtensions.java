package org.sparkbeton.spark;

import java.util.Locale;
import org.apache.spark.QueryContext;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.SparkSessionExtensions;
import org.apache.spark.sql.SparkSessionExtensionsProvider;
import org.apache.spark.sql.catalyst.analysis.ResolvedIdentifier;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.ReplaceTableAsSelect;
import org.apache.spark.sql.connector.catalog.CatalogV2Util;
import scala.Function1;
import scala.Option;
import scala.runtime.AbstractFunction1;
import scala.runtime.BoxedUnit;

/**
 * Spark loads this at every session's start (META-INF/services, Spark's {@code SparkSessionExtensionsProvider}):
 * a check of each analysed plan that refuses, before anything runs, what Spark 3.5's session catalog cannot do with
 * a beton table but would start doing.
 *
 * <p>{@code CREATE OR REPLACE TABLE ... USING beton AS SELECT}, {@code REPLACE TABLE ... AS SELECT} and
 * {@code df.writeTo(t).using("beton").createOrReplace()} / {@code replace()} plan a replace that drops the table (a
 * managed table's data with it), creates it again, then fails to write into it, as Spark resolves a session-catalog
 * table of a data source through V1 interfaces that take no overwrite of this kind: the table and its data were
 * gone. Spark refuses the same statement for Parquet tables at analysis; this refuses it for beton tables the same
 * way, naming what does replace a table's rows.
 *
 * <p>Compiled for Java 8 like {@link BetonDataSource}: Spark runs every registered extension on Java 8 and 11 too,
 * and this one refers to nothing of ours that needs Java 17.
 */
public final class BetonSessionExtensions extends AbstractFunction1<SparkSessionExtensions, BoxedUnit>
    implements SparkSessionExtensionsProvider {
  /** The names a statement may give the provider: the short name and the classes behind it. */
  private static final String[] PROVIDER_NAMES = {BetonDataSource.SHORT_NAME,
      "org.sparkbeton.spark.BetonDataSource", "org.sparkbeton.spark.BetonProvider"};

  private static final Function1<LogicalPlan, BoxedUnit> CHECK = new AbstractFunction1<LogicalPlan, BoxedUnit>() {
    @Override
    public BoxedUnit apply(LogicalPlan plan) {
      try {
        check(plan);
      } catch (AnalysisException e) {
        BetonSessionExtensions.<RuntimeException>rethrow(e);
      }
      return BoxedUnit.UNIT;
    }
  };

  @Override
  public BoxedUnit apply(SparkSessionExtensions extensions) {
    extensions.injectCheckRule(new AbstractFunction1<SparkSession, Function1<LogicalPlan, BoxedUnit>>() {
      @Override
      public Function1<LogicalPlan, BoxedUnit> apply(SparkSession session) {
        return CHECK;
      }
    });
    return BoxedUnit.UNIT;
  }

  /** Throws an {@link AnalysisException} for a replace-as-select of a beton table in the session catalog. */
  static void check(LogicalPlan plan) throws AnalysisException {
    if (!(plan instanceof ReplaceTableAsSelect)) {
      return;
    }
    ReplaceTableAsSelect replace = (ReplaceTableAsSelect) plan;
    if (!isBeton(replace.tableSpec().provider()) || !(replace.name() instanceof ResolvedIdentifier)) {
      return;
    }
    ResolvedIdentifier table = (ResolvedIdentifier) replace.name();
    if (!CatalogV2Util.isSessionCatalog(table.catalog())) {
      return;
    }
    String name = table.identifier().toString();
    throw new AnalysisException("Table " + name + " cannot be replaced by a query (CREATE OR REPLACE TABLE ... USING"
        + " beton AS SELECT, REPLACE TABLE ... AS SELECT, writeTo(...).createOrReplace() or replace()): Spark 3.5's"
        + " session catalog would drop the table, and a managed table's data, then fail to write the new one. To"
        + " replace its rows: INSERT OVERWRITE TABLE " + name + " SELECT ..., or"
        + " df.write().format(\"beton\").mode(\"overwrite\").saveAsTable(\"" + name + "\"); to change its columns,"
        + " DROP TABLE it first, then CREATE TABLE ... USING beton AS SELECT",
        Option.empty(), Option.empty(), Option.empty(), Option.empty(),
        scala.collection.immutable.Map$.MODULE$.<String, String>empty(), new QueryContext[0]);
  }

  /**
   * Throws {@code e} as it is: Spark's check rules are Scala functions, which throw its (to Java, checked)
   * {@link AnalysisException} undeclared, and Spark's callers expect that type, not a wrapper.
   */
  @SuppressWarnings("unchecked")
  private static <T extends Throwable> void rethrow(Throwable e) throws T {
    throw (T) e;
  }

  private static boolean isBeton(Option<String> provider) {
    if (provider.isEmpty()) {
      return false;
    }
    String given = provider.get().toLowerCase(Locale.ROOT);
    for (String name : PROVIDER_NAMES) {
      if (given.equals(name.toLowerCase(Locale.ROOT))) {
        return true;
      }
    }
    return false;
  }
}
