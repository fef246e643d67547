package org.sparkbeton.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.execution.LocalTableScanExec;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.SparkStrategy;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2ScanRelation;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.spark.CatalystContract.Member;
import org.sparkbeton.spark.read.BetonReadOptions;
import scala.collection.JavaConverters;
import scala.collection.Seq;

/**
 * {@link LocalAnswerStrategy} works on Catalyst's internal plan classes, which change between Spark releases.
 * On the Spark the build uses, every member it calls is there as {@link CatalystContract} lists it, and Spark
 * plans the queries it exists for (a label histogram answered from metadata) in the shape it rewrites. A Spark
 * upgrade that changes either fails here, naming what changed, rather than at run time. At run time the same
 * mismatch leaves planning to Spark, with one warning, and the answer stays right.
 */
class CatalystContractTest {
  private static final String PROJECT = "org.apache.spark.sql.catalyst.plans.logical.Project";

  @TempDir static Path tmp;
  static SparkSession spark;
  static Path dataset;
  /** The label histogram of the dataset: 60 rows, labels 0..5, 10 each. */
  static final Map<Long, Long> HISTOGRAM = new TreeMap<>(Map.of(0L, 10L, 1L, 10L, 2L, 10L, 3L, 10L, 4L, 10L, 5L, 10L));
  private final List<String> warnings = new ArrayList<>();
  private AbstractAppender capture;

  @BeforeAll
  static void setUp() {
    spark = SparkTests.session("CatalystContractTest");
    dataset = tmp.resolve("labels");
    spark.range(0, 60, 1, 3).selectExpr("id % 6 as label", "cast(id as double) / 4 as score").write().format("beton")
        .save(dataset.toString());
  }

  @AfterAll
  static void tearDown() {
    spark.stop();
  }

  @AfterEach
  void stopCapturing() {
    spark.experimental().extraStrategies_$eq(JavaConverters.asScalaBuffer(List.<SparkStrategy>of()).toSeq());
    if (capture != null) {
      LoggerContext context = (LoggerContext) LogManager.getContext(false);
      context.getConfiguration().removeLogger(LocalAnswerStrategy.class.getName());
      context.updateLoggers();
      capture.stop();
    }
  }

  @Test
  void everyInternalTheStrategyUsesIsThereAsListed() {
    assertThat(CatalystContract.check(CatalystContract.MEMBERS))
        .as("Catalyst internals LocalAnswerStrategy uses that Spark %s lacks or changed", spark.version()).isEmpty();
    assertThat(CatalystContract.problems()).isEmpty();
  }

  /** The check's positive control: a member that is gone, or returns another type, is named with what was found. */
  @Test
  void aChangedInternalIsNamedWithWhatWasFound() {
    List<Member> changed = List.of(
        Member.method(PROJECT, "projectList", "scala.collection.immutable.List"),
        Member.method(PROJECT, "projectListV2", "scala.collection.Seq"),
        Member.method(PROJECT, "child", "boolean"),
        Member.constructor("org.apache.spark.sql.execution.LocalTableScanExec", "scala.collection.Seq"),
        Member.method("org.apache.spark.sql.connector.read.LocalScan", "rows", "[Lscala.collection.Seq;"),
        Member.type("org.apache.spark.sql.catalyst.expressions.NoSuchExpression"));
    assertThat(CatalystContract.check(changed)).containsExactly(
        "Project.projectList() returning List: returns " + CatalystContract.SEQ,
        "Project.projectListV2() returning Seq: no such method",
        "Project.child() returning boolean: returns org.apache.spark.sql.catalyst.plans.logical.LogicalPlan",
        "LocalTableScanExec(Seq): no such constructor",
        "LocalScan.rows() returning Seq[]: returns [Lorg.apache.spark.sql.catalyst.InternalRow;",
        "org.apache.spark.sql.catalyst.expressions.NoSuchExpression: no class"
            + " org.apache.spark.sql.catalyst.expressions.NoSuchExpression");
  }

  /**
   * The plan check: Spark plans a pushed label histogram as a Project over the source's LocalScan, and the
   * strategy turns exactly that into one LocalTableScan holding the histogram.
   */
  @Test
  void sparkPlansAPushedHistogramAsTheShapeTheStrategyAnswers() {
    LogicalPlan optimized = histogram().queryExecution().optimizedPlan();
    assertThat(optimized).as("Spark %s's optimized plan of a label histogram answered from metadata:%n%s",
        spark.version(), optimized).isInstanceOf(Project.class);
    assertThat(((Project) optimized).child()).isInstanceOf(DataSourceV2ScanRelation.class);
    assertThat(((DataSourceV2ScanRelation) ((Project) optimized).child()).scan()).isInstanceOf(LocalScan.class);

    List<SparkPlan> planned = JavaConverters.seqAsJavaList(new LocalAnswerStrategy().apply(optimized));
    assertThat(planned).hasSize(1).first().isInstanceOf(LocalTableScanExec.class);
    assertThat(counts(planned.get(0).executeCollect())).isEqualTo(HISTOGRAM);

    BetonSparkExtensions.install(spark);
    Dataset<Row> answered = histogram();
    assertThat(answered.queryExecution().executedPlan()).isInstanceOf(LocalTableScanExec.class);
    assertThat(counts(answered)).isEqualTo(HISTOGRAM);
  }

  /** The runtime check: a strategy that met other internals plans nothing, says so once, and Spark answers. */
  @Test
  void aDisabledStrategyLeavesThePlanToSparkWithOneWarning() {
    captureWarnings();
    LocalAnswerStrategy disabled = LocalAnswerStrategy.disabled("test: Project.projectList() returning Seq: no such method");
    LogicalPlan optimized = histogram().queryExecution().optimizedPlan();
    assertThat(disabled.apply(optimized).isEmpty()).isTrue();
    assertThat(disabled.apply(optimized).isEmpty()).isTrue();
    assertThat(warnings).containsExactly("WARN spark-beton: BetonSparkExtensions leaves planning to Spark "
        + spark.version() + ": test: Project.projectList() returning Seq: no such method. Aggregates the beton"
        + " source answers from metadata still are, through Spark's own plan (a one-task job over the driver's rows)");

    spark.experimental().extraStrategies_$eq(JavaConverters.asScalaBuffer(List.<SparkStrategy>of(disabled)).toSeq());
    Dataset<Row> answered = histogram();
    SparkPlan executed = answered.queryExecution().executedPlan();
    assertThat(executed).isNotInstanceOf(LocalTableScanExec.class);
    assertThat(executed.toString()).contains("LocalTableScan").doesNotContain("BatchScan");
    assertThat(counts(answered)).isEqualTo(HISTOGRAM);
  }

  /** A linkage error met while answering (a class changed under the strategy) turns it off the same way. */
  @Test
  void aLinkageErrorWhileAnsweringTurnsTheStrategyOff() {
    captureWarnings();
    Project optimized = (Project) histogram().queryExecution().optimizedPlan();
    DataSourceV2ScanRelation relation = (DataSourceV2ScanRelation) optimized.child();
    LocalScan broken = new LocalScan() {
      @Override
      public InternalRow[] rows() {
        throw new NoSuchMethodError("'org.apache.spark.sql.catalyst.InternalRow[] LocalScan.rows()'");
      }

      @Override
      public StructType readSchema() {
        return relation.scan().readSchema();
      }
    };
    LogicalPlan changed = optimized.withNewChildren(JavaConverters.asScalaBuffer(List.<LogicalPlan>of(
        relation.copy(relation.relation(), broken, relation.output(), relation.keyGroupedPartitioning(),
            relation.ordering()))).toSeq());
    LocalAnswerStrategy strategy = new LocalAnswerStrategy();
    assertThat(strategy.apply(changed).isEmpty()).isTrue();
    assertThat(strategy.disabledBecause()).isEqualTo("Catalyst's plan classes are not what its planner strategy was"
        + " built against: java.lang.NoSuchMethodError: 'org.apache.spark.sql.catalyst.InternalRow[] LocalScan.rows()'");
    assertThat(strategy.apply(optimized).isEmpty()).as("off for good").isTrue();
    assertThat(warnings).hasSize(1);
    assertThat(warnings.get(0)).startsWith("WARN spark-beton: BetonSparkExtensions leaves planning to Spark")
        .contains("java.lang.NoSuchMethodError");
  }

  private static Dataset<Row> histogram() {
    return spark.read().format("beton").option(BetonReadOptions.AGGREGATE_PUSHDOWN_MAX_SAMPLES, 1_000_000)
        .load(dataset.toString()).groupBy("label").count();
  }

  private static Map<Long, Long> counts(Dataset<Row> df) {
    Map<Long, Long> out = new TreeMap<>();
    for (Row r : df.collectAsList()) {
      out.put(r.getLong(0), r.getLong(1));
    }
    return out;
  }

  private static Map<Long, Long> counts(InternalRow[] rows) {
    Map<Long, Long> out = new TreeMap<>();
    for (InternalRow r : rows) {
      out.put(r.getLong(0), r.getLong(1));
    }
    return out;
  }

  /** Collects what LocalAnswerStrategy logs at WARN and above, as "LEVEL message". */
  private void captureWarnings() {
    capture = new AbstractAppender("CatalystContractTest", null, null, true, Property.EMPTY_ARRAY) {
      @Override
      public void append(LogEvent event) {
        synchronized (warnings) {
          warnings.add(event.getLevel() + " " + event.getMessage().getFormattedMessage());
        }
      }
    };
    capture.start();
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    Configuration config = context.getConfiguration();
    LoggerConfig logger = new LoggerConfig(LocalAnswerStrategy.class.getName(), Level.WARN, false);
    logger.addAppender(capture, Level.WARN, null);
    config.addLogger(LocalAnswerStrategy.class.getName(), logger);
    context.updateLoggers();
  }
}
