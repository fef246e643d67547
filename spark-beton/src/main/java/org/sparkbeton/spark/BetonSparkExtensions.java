package org.sparkbeton.spark;

import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.SparkSessionExtensions;
import org.apache.spark.sql.execution.SparkStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.runtime.AbstractFunction1;
import scala.runtime.BoxedUnit;

/**
 * Optional session extensions of the {@code beton} source, enabled with
 * {@code spark.sql.extensions=org.sparkbeton.spark.BetonSparkExtensions} (or added to a running session with
 * {@link #install}). Today one planner strategy, {@link LocalAnswerStrategy}: a query the source answers on
 * the driver from metadata (a label histogram, a count, min/max per group) is returned without running a
 * Spark job at all. Without the extension the same query still reads no shard, but Spark evaluates the
 * final projection of the driver's rows in a one-task job (~40–90 ms here, most of such a query's time).
 *
 * <p>The strategy works on Catalyst's internal plan classes. On a Spark where one of them is not as
 * {@link CatalystContract} lists, neither entry point adds it: a warning names what changed, and Spark plans
 * as it would without the extension.
 */
public final class BetonSparkExtensions extends AbstractFunction1<SparkSessionExtensions, BoxedUnit> {
  private static final Logger LOG = LoggerFactory.getLogger(BetonSparkExtensions.class);

  @Override
  public BoxedUnit apply(SparkSessionExtensions extensions) {
    if (!contractHolds()) {
      return BoxedUnit.UNIT;
    }
    extensions.injectPlannerStrategy(new AbstractFunction1<SparkSession, SparkStrategy>() {
      @Override
      public SparkStrategy apply(SparkSession session) {
        return new LocalAnswerStrategy();
      }
    });
    return BoxedUnit.UNIT;
  }

  /** Adds the extension's strategy to a session that was built without it (Spark's experimental hook). */
  public static void install(SparkSession session) {
    if (!contractHolds()) {
      return;
    }
    scala.collection.Seq<SparkStrategy> current = session.experimental().extraStrategies();
    for (SparkStrategy s : scala.collection.JavaConverters.seqAsJavaList(current)) {
      if (s instanceof LocalAnswerStrategy) {
        return;
      }
    }
    java.util.List<SparkStrategy> strategies = new java.util.ArrayList<>(
        scala.collection.JavaConverters.seqAsJavaList(current));
    strategies.add(new LocalAnswerStrategy());
    session.experimental().extraStrategies_$eq(scala.collection.JavaConverters.asScalaBuffer(strategies).toSeq());
  }

  /** True when this Spark has every internal the strategy uses; otherwise logs why it is left out. */
  private static boolean contractHolds() {
    List<String> problems = CatalystContract.problems();
    if (problems.isEmpty()) {
      return true;
    }
    LOG.warn("{}", CatalystContract.fallbackWarning("Catalyst internals its planner strategy uses changed: "
        + String.join("; ", problems)));
    return false;
  }
}
