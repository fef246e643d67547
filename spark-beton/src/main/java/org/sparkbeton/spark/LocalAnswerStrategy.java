package org.sparkbeton.spark;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Unevaluable;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.execution.LocalTableScanExec;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.SparkStrategy;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2ScanRelation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.collection.JavaConverters;
import scala.collection.immutable.Seq;
import scala.runtime.AbstractFunction1;

/**
 * Plans a {@code Project} over a connector's {@link LocalScan} (what Spark's aggregate pushdown leaves when
 * the {@code beton} source answers an aggregate from metadata) as a bare {@code LocalTableScan} of the
 * projected rows, computed here on the driver. Spark collects a bare {@code LocalTableScan} without a job;
 * with the {@code Project} on top it runs one. Projections that are not plain deterministic expressions
 * are left to Spark's own planning.
 *
 * <p>The classes it matches and builds are Catalyst's internals ({@link CatalystContract} lists them). Should a
 * call still meet one that is not as listed (a {@link LinkageError}, a {@link ClassCastException}), the strategy
 * logs a warning once and from then on plans nothing: Spark's own plan answers, with its one-task job.
 */
final class LocalAnswerStrategy extends SparkStrategy {
  private static final Logger LOG = LoggerFactory.getLogger(LocalAnswerStrategy.class);

  /** Why this strategy plans nothing any more; null while it answers. */
  private volatile String disabledBecause;

  /** A strategy that plans nothing, as on a Spark whose internals are not as {@link CatalystContract} lists. */
  static LocalAnswerStrategy disabled(String why) {
    LocalAnswerStrategy s = new LocalAnswerStrategy();
    s.disable(why);
    return s;
  }

  /**
   * Returns an immutable {@code Seq}: Spark's {@code Seq} is {@code scala.collection.Seq} on Scala 2.12 and
   * {@code scala.collection.immutable.Seq} on 2.13, and an immutable one is both, so this source compiles for either
   * runtime jar. The same goes for the sequences built below ({@code toList()}).
   */
  @Override
  public Seq<SparkPlan> apply(LogicalPlan plan) {
    if (disabledBecause != null) {
      return none();
    }
    try {
      return answer(plan);
    } catch (LinkageError | ClassCastException e) {
      disable("Catalyst's plan classes are not what its planner strategy was built against: " + e);
      return none();
    }
  }

  /** Why the strategy plans nothing, or null while it answers. */
  String disabledBecause() {
    return disabledBecause;
  }

  private synchronized void disable(String why) {
    if (disabledBecause == null) {
      disabledBecause = why;
      LOG.warn("{}", CatalystContract.fallbackWarning(why));
    }
  }

  private static Seq<SparkPlan> none() {
    return JavaConverters.asScalaBuffer(List.<SparkPlan>of()).toList();
  }

  private static Seq<SparkPlan> answer(LogicalPlan plan) {
    if (!(plan instanceof Project project) || !(project.child() instanceof DataSourceV2ScanRelation relation)
        || !(relation.scan() instanceof LocalScan scan) || !evaluableHere(project)) {
      return none();
    }
    @SuppressWarnings("unchecked")
    Seq<Expression> exprs = (Seq<Expression>) (Seq<?>) project.projectList().toList();
    @SuppressWarnings("unchecked")
    Seq<Attribute> input = (Seq<Attribute>) (Seq<?>) relation.output().toList();
    UnsafeProjection projection = UnsafeProjection.create(exprs, input);
    List<InternalRow> rows = new ArrayList<>();
    for (InternalRow row : scan.rows()) {
      rows.add(projection.apply(row).copy());
    }
    SparkPlan local = new LocalTableScanExec(project.output(), JavaConverters.asScalaBuffer(rows).toList());
    return JavaConverters.asScalaBuffer(List.of(local)).toList();
  }

  /** Deterministic, and nothing that only Spark's later phases can evaluate (Spark's ConvertToLocalRelation rule). */
  private static boolean evaluableHere(Project project) {
    for (Object named : JavaConverters.seqAsJavaList(project.projectList())) {
      Expression e = (Expression) named; // every NamedExpression is an Expression
      if (!e.deterministic() || e.find(new AbstractFunction1<Expression, Object>() {
        @Override
        public Object apply(Expression x) {
          return x instanceof Unevaluable && !(x instanceof AttributeReference);
        }
      }).isDefined()) {
        return false;
      }
    }
    return true;
  }
}
