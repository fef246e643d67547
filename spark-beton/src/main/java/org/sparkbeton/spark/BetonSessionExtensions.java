package org.sparkbeton.spark;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.QueryContext;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.SparkSessionExtensions;
import org.apache.spark.sql.SparkSessionExtensionsProvider;
import org.apache.spark.sql.catalyst.analysis.ResolvedIdentifier;
import org.apache.spark.sql.catalyst.catalog.CatalogTable;
import org.apache.spark.sql.catalyst.plans.logical.CreateTable;
import org.apache.spark.sql.catalyst.plans.logical.CreateTableAsSelect;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.ReplaceTableAsSelect;
import org.apache.spark.sql.catalyst.plans.logical.TableSpec;
import org.apache.spark.sql.catalyst.plans.logical.TableSpecBase;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.connector.catalog.CatalogV2Util;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.slf4j.LoggerFactory;
import scala.Function1;
import scala.Option;
import scala.collection.JavaConverters;
import scala.collection.Seq;
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
 * way, naming what does replace a table's rows. A beton table created {@code PARTITIONED BY} is refused too, as
 * {@code df.write().partitionBy(...)} is, and one created without columns where its location holds no dataset to
 * take them from; where it holds one, a resolution rule gives the table the dataset's columns.
 *
 * <p>Compiled for Java 8 like {@link BetonDataSource}: Spark runs every registered extension on Java 8 and 11 too,
 * and this one refers to nothing of ours that needs Java 17.
 */
public final class BetonSessionExtensions extends AbstractFunction1<SparkSessionExtensions, BoxedUnit>
    implements SparkSessionExtensionsProvider {
  /** The names a statement may give the provider: the short name and the classes behind it. */
  private static final String[] PROVIDER_NAMES = {BetonDataSource.SHORT_NAME,
      "org.sparkbeton.spark.BetonDataSource", "org.sparkbeton.spark.BetonProvider"};

  /**
   * The read options a table's columns depend on (BetonReadOptions.CUSTOM_FIELD_LAYOUT and IMAGE_MODE, named here:
   * BetonReadOptions is a Java 17 class, and this one loads where the Scala check below may refuse).
   */
  private static final String CUSTOM_FIELD_LAYOUT = "customFieldLayout";
  private static final String IMAGE_MODE = "imageMode";

  /** Whether the Scala mismatch was logged: Spark runs the extension for every session. */
  private static boolean warned;

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

  /**
   * Gives a beton table created without columns the columns of the dataset at its location, as Spark does for a
   * Parquet table (its V1 create infers them), where Spark 3.5's session catalog would store a table of no columns
   * for a V2 provider: {@code saveAsTable} in append mode then failed comparing the DataFrame with that empty
   * schema, and {@code SHOW CREATE TABLE} printed none. Where they cannot be read, the plan is left as it is and
   * the check below refuses it with the read's reason.
   */
  private static final Rule<LogicalPlan> COLUMNS_FROM_LOCATION = new Rule<LogicalPlan>() {
    @Override
    public LogicalPlan apply(LogicalPlan plan) {
      if (!(plan instanceof CreateTable)) {
        return plan;
      }
      CreateTable create = (CreateTable) plan;
      TableSpecBase spec = create.tableSpec();
      if (!create.tableSchema().isEmpty() || !isBeton(spec.provider()) || spec.location().isEmpty()) {
        return plan;
      }
      StructType columns;
      try {
        columns = datasetColumns(spec);
      } catch (RuntimeException e) {
        return plan;
      }
      return new CreateTable(create.name(), columns, create.partitioning(), spec, create.ignoreIfExists());
    }
  };

  /**
   * The options of {@code df.write().format("beton").option(...).saveAsTable(t)} and
   * {@code df.writeTo(t).using("beton").option(...).create()} into Spark's session catalog, made the new table's
   * {@code OPTIONS}, as Spark records a Parquet table's: Spark 3.5 hands them to a V2 provider's create as the
   * write's options, which the session catalog's write (through the table's relation, {@link BetonCatalogRelation})
   * never sees, so every writer option was dropped without a word (an image column stored as plain bytes, nullPolicy
   * and stringEncoding ignored, a misspelled option accepted). As table options they apply to this write and to the
   * table's later inserts, and a bad one is refused at the create (the check below).
   */
  private static final Rule<LogicalPlan> WRITE_OPTIONS_INTO_TABLE = new Rule<LogicalPlan>() {
    @Override
    public LogicalPlan apply(LogicalPlan plan) {
      if (!(plan instanceof CreateTableAsSelect)) {
        return plan;
      }
      CreateTableAsSelect create = (CreateTableAsSelect) plan;
      if (create.writeOptions().isEmpty() || !(create.tableSpec() instanceof TableSpec)
          || !isBeton(create.tableSpec().provider()) || !(create.name() instanceof ResolvedIdentifier)
          || !CatalogV2Util.isSessionCatalog(((ResolvedIdentifier) create.name()).catalog())) {
        return plan;
      }
      TableSpec spec = (TableSpec) create.tableSpec();
      Map<String, String> options = new java.util.LinkedHashMap<>(JavaConverters.mapAsJavaMap(spec.options()));
      for (Map.Entry<String, String> o : JavaConverters.mapAsJavaMap(create.writeOptions()).entrySet()) {
        if (!o.getKey().equalsIgnoreCase("path")) { // the table's location already
          options.put(o.getKey(), o.getValue());
        }
      }
      TableSpec withOptions = new TableSpec(spec.properties(), spec.provider(), scalaMap(options), spec.location(),
          spec.comment(), spec.serde(), spec.external());
      return new CreateTableAsSelect(create.name(), create.partitioning(), create.query(), withOptions,
          scalaMap(new HashMap<>()), create.ignoreIfExists(), create.isAnalyzed());
    }
  };

  @SuppressWarnings("unchecked")
  private static scala.collection.immutable.Map<String, String> scalaMap(Map<String, String> map) {
    // an immutable map on both Scala lines; Java sees 2.13's ++ as returning a scala.collection.Map
    Object joined = scala.collection.immutable.Map$.MODULE$.<String, String>empty()
        .$plus$plus(JavaConverters.mapAsScalaMap(map));
    return (scala.collection.immutable.Map<String, String>) joined;
  }

  /**
   * Installs the rules, unless this jar was built for another Scala than Spark runs (their calls into Catalyst fail
   * there with a {@link NoSuchMethodError}, as a beton {@code CREATE TABLE} did): then it logs why, once, and installs
   * nothing.
   */
  @Override
  public BoxedUnit apply(SparkSessionExtensions extensions) {
    String scala = ScalaBinaryCheck.mismatch();
    if (scala != null) {
      warnOnce(scala);
      return BoxedUnit.UNIT;
    }
    extensions.injectResolutionRule(new AbstractFunction1<SparkSession, Rule<LogicalPlan>>() {
      @Override
      public Rule<LogicalPlan> apply(SparkSession session) {
        return COLUMNS_FROM_LOCATION;
      }
    });
    extensions.injectResolutionRule(new AbstractFunction1<SparkSession, Rule<LogicalPlan>>() {
      @Override
      public Rule<LogicalPlan> apply(SparkSession session) {
        return WRITE_OPTIONS_INTO_TABLE;
      }
    });
    extensions.injectResolutionRule(new AbstractFunction1<SparkSession, Rule<LogicalPlan>>() {
      @Override
      public Rule<LogicalPlan> apply(SparkSession session) {
        return new Rule<LogicalPlan>() {
          @Override
          public LogicalPlan apply(LogicalPlan plan) {
            try {
              refuseIgnoredWriteOptions(session, plan);
            } catch (AnalysisException e) {
              BetonSessionExtensions.<RuntimeException>rethrow(e);
            }
            return plan;
          }
        };
      }
    });
    extensions.injectCheckRule(new AbstractFunction1<SparkSession, Function1<LogicalPlan, BoxedUnit>>() {
      @Override
      public Function1<LogicalPlan, BoxedUnit> apply(SparkSession session) {
        return CHECK;
      }
    });
    return BoxedUnit.UNIT;
  }

  private static synchronized void warnOnce(String why) {
    if (!warned) {
      warned = true;
      LoggerFactory.getLogger(BetonSessionExtensions.class).warn("{}", why);
    }
  }

  /**
   * Throws an {@link AnalysisException} for a replace-as-select of a beton table in the session catalog, and for a
   * beton table created partitioned.
   */
  static void check(LogicalPlan plan) throws AnalysisException {
    if (plan instanceof CreateTable) {
      CreateTable create = (CreateTable) plan;
      refusePartitioning(create.tableSpec(), create.partitioning(), create.name());
      refuseOptions(create.tableSpec(), create.name());
      refuseWithoutColumns(create);
    } else if (plan instanceof CreateTableAsSelect) {
      CreateTableAsSelect create = (CreateTableAsSelect) plan;
      refusePartitioning(create.tableSpec(), create.partitioning(), create.name());
      refuseOptions(create.tableSpec(), create.name());
    }
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
    throw analysisException("Table " + name + " cannot be replaced by a query (CREATE OR REPLACE TABLE ... USING"
        + " beton AS SELECT, REPLACE TABLE ... AS SELECT, writeTo(...).createOrReplace() or replace()): Spark 3.5's"
        + " session catalog would drop the table, and a managed table's data, then fail to write the new one. To"
        + " replace its rows: INSERT OVERWRITE TABLE " + name + " SELECT ..., or"
        + " df.write().format(\"beton\").mode(\"overwrite\").saveAsTable(\"" + name + "\"); to change its columns,"
        + " DROP TABLE it first, then CREATE TABLE ... USING beton AS SELECT");
  }

  /**
   * A partitioned beton table: the catalog would record partition columns that the dataset, one directory of shards
   * under one manifest, does not have (a partitioned CTAS then failed saying the column "is not a valid partition
   * column", and so did each INSERT ... PARTITION). Refused as {@code df.write().partitionBy(...)} is.
   */
  private static void refusePartitioning(TableSpecBase spec, Seq<Transform> partitioning, LogicalPlan name)
      throws AnalysisException {
    if (partitioning.isEmpty() || !isBeton(spec.provider())) {
      return;
    }
    List<String> columns = new ArrayList<>();
    boolean buckets = false;
    for (Transform t : JavaConverters.seqAsJavaList(partitioning)) {
      columns.add(t.describe());
      buckets |= t.name().equals("bucket") || t.name().equals("sorted_bucket");
    }
    String table = tableName(name);
    if (buckets) {
      throw analysisException("Table " + table + " cannot be bucketed (" + String.join(", ", columns) + ": CLUSTERED"
          + " BY, bucketBy): a beton dataset is one directory of shards under one manifest, in the order it was"
          + " written, opened as one by FFCV and the loader. Write it without buckets; a join or groupBy on the"
          + " column shuffles as over any unbucketed table");
    }
    // BetonWriteConf.WHY_NOT_PARTITIONED's words: this class, compiled for Java 8, loads none of the writer's
    throw analysisException("Table " + table + " cannot be partitioned by " + String.join(", ", columns)
        + " (PARTITIONED BY, partitionBy): a beton dataset is one directory of shards under one manifest, opened as one by FFCV and the loader."
        + " Keep the columns as fields (filters and groupBy on them are answered from the manifest and the"
        + " metadata), or make a table per value");
  }

  /**
   * Options given to a write into an existing beton table of the session catalog ({@code
   * df.write().option(...).mode("append").saveAsTable(t)}; {@code writeTo(t).append()} Spark refuses for such a
   * table, "Cannot write into v1 table"): Spark 3.5
   * writes such a table with the table's own options (as it does a Parquet table's) and dropped these without a
   * word. Refused where they differ from the table's, naming them and the ways that apply them. Runs at resolution,
   * before Spark's own rules replace the statement's table with the catalog's.
   */
  static void refuseIgnoredWriteOptions(SparkSession session, LogicalPlan plan) throws AnalysisException {
    CatalogTable table = null;
    Map<String, String> given = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    if (plan instanceof org.apache.spark.sql.execution.datasources.CreateTable) {
      org.apache.spark.sql.execution.datasources.CreateTable create =
          (org.apache.spark.sql.execution.datasources.CreateTable) plan;
      if (create.mode() != SaveMode.Append || create.query().isEmpty() || !isBeton(create.tableDesc().provider())
          || !session.sessionState().catalog().tableExists(create.tableDesc().identifier())) {
        return;
      }
      table = session.sessionState().catalog().getTableMetadata(create.tableDesc().identifier());
      given.putAll(JavaConverters.mapAsJavaMap(create.tableDesc().storage().properties()));
    }
    if (table == null || !isBeton(table.provider())) {
      return;
    }
    given.remove("path");
    Map<String, String> own = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    own.putAll(JavaConverters.mapAsJavaMap(table.storage().properties()));
    given.entrySet().removeIf(o -> o.getValue().equals(own.get(o.getKey())));
    if (given.isEmpty()) {
      return;
    }
    String location = table.location().toString();
    throw analysisException("Table " + table.identifier().unquotedString() + " is written with its own OPTIONS: the"
        + " options given to this write (" + String.join(", ", given.keySet()) + ") would not apply, so it is"
        + " refused. Write to its location by path, where they do: df.write().format(\"beton\").option(...)"
        + ".mode(\"append\").save(\"" + location + "\"); or give a table over the same dataset those OPTIONS"
        + " (CREATE TABLE ... USING beton OPTIONS (...) LOCATION '" + location + "')");
  }

  /**
   * A beton table's {@code OPTIONS} that its first query would refuse (a misspelled name, a bad value): refused at
   * its creation instead, where Spark's session catalog would store them and every query of the table fail.
   */
  private static void refuseOptions(TableSpecBase spec, LogicalPlan name) throws AnalysisException {
    if (!isBeton(spec.provider()) || !(spec instanceof TableSpec)) {
      return;
    }
    Map<String, String> options = new HashMap<>(JavaConverters.mapAsJavaMap(((TableSpec) spec).options()));
    try {
      new BetonDataSource().checkTableOptions(options);
    } catch (RuntimeException e) {
      throw analysisException("Table " + tableName(name) + " USING beton: " + e.getMessage());
    }
  }

  /**
   * A beton table created without columns takes them from the dataset at its location, which must then be there:
   * refused now with the read's reason (no location, no dataset there), as Spark refuses a Parquet table whose schema
   * it cannot infer, instead of a table that fails every query.
   */
  private static void refuseWithoutColumns(CreateTable create) throws AnalysisException {
    TableSpecBase spec = create.tableSpec();
    if (!create.tableSchema().isEmpty() || !isBeton(spec.provider())) {
      return;
    }
    String table = tableName(create.name());
    if (spec.location().isEmpty()) {
      throw analysisException("Table " + table + " USING beton has no columns and no LOCATION: give its columns"
          + " (CREATE TABLE " + table + " (id BIGINT, ...) USING beton), the LOCATION of a beton dataset to take them"
          + " from, or a query (AS SELECT ...)");
    }
    try {
      datasetColumns(spec);
    } catch (RuntimeException e) {
      throw analysisException("Table " + table + " USING beton has no columns, and they cannot be read from its"
          + " LOCATION '" + spec.location().get() + "': " + e.getMessage() + ". Give its columns to create it before"
          + " a write fills the location");
    }
  }

  /**
   * The columns of the dataset at the location of a table spec, nullable and without the annotations reads add (a
   * table's scan adds those of the dataset as it is then); throws what the read throws.
   */
  private static StructType datasetColumns(TableSpecBase spec) {
    // the table's OPTIONS mix read and write options (checked above); a custom field's layout and the image mode
    // shape the columns (a table of Spark images has one struct column per image, where bytes have four columns)
    Map<String, String> options = new HashMap<>();
    if (spec instanceof TableSpec) {
      for (Map.Entry<String, String> o : JavaConverters.mapAsJavaMap(((TableSpec) spec).options()).entrySet()) {
        if (o.getKey().equalsIgnoreCase(CUSTOM_FIELD_LAYOUT) || o.getKey().equalsIgnoreCase(IMAGE_MODE)) {
          options.put(o.getKey(), o.getValue());
        }
      }
    }
    options.put("path", spec.location().get());
    StructType read = new BetonDataSource().inferSchema(new CaseInsensitiveStringMap(options));
    StructType plain = new StructType();
    for (StructField f : read.fields()) {
      // nullable, as Spark stores a Parquet table's: a null inserted then meets the write's nullPolicy (skip, or fail
      // naming the column) instead of Spark's not-null assertion
      plain = plain.add(new StructField(f.name(), f.dataType(), true, Metadata.empty()));
    }
    return plain;
  }

  private static String tableName(LogicalPlan name) {
    return name instanceof ResolvedIdentifier ? ((ResolvedIdentifier) name).identifier().toString() : "";
  }

  private static AnalysisException analysisException(String message) {
    return new AnalysisException(message, Option.empty(), Option.empty(), Option.empty(), Option.empty(),
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
    return provider.isDefined() && isBetonProvider(provider.get());
  }

  /** Whether a statement's {@code USING} names this source: its short name or a class behind it (any case). */
  static boolean isBetonProvider(String provider) {
    String given = provider.toLowerCase(Locale.ROOT);
    for (String name : PROVIDER_NAMES) {
      if (given.equals(name.toLowerCase(Locale.ROOT))) {
        return true;
      }
    }
    return false;
  }
}
