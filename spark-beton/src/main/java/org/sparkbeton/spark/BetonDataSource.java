package org.sparkbeton.spark;

import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SQLContext;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.execution.streaming.Source;
import org.apache.spark.sql.sources.BaseRelation;
import org.apache.spark.sql.sources.CreatableRelationProvider;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.sources.RelationProvider;
import org.apache.spark.sql.sources.SchemaRelationProvider;
import org.apache.spark.sql.sources.StreamSourceProvider;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The class registered as Spark's {@code beton} data source (META-INF/services), and the only one of ours compiled
 * for Java 8 (spark-beton's pom): every other class needs Java 17. Spark 3.5 also runs on Java 8 and 11, and
 * instantiates every registered data source whenever it looks up any format by name: a registered class that
 * does not load there fails {@code spark.read.parquet(...)} as well, for every user of the cluster. This one loads
 * on any of them, answers its short name, and hands everything else to a {@link BetonProvider} of its own, made
 * on first use by name; where that cannot load, each call fails with one message naming the Java it needs and the
 * one it found.
 */
public final class BetonDataSource implements TableProvider, DataSourceRegister, CreatableRelationProvider,
    RelationProvider, SchemaRelationProvider, StreamSourceProvider {
  public static final String SHORT_NAME = "beton";
  /** Loaded by name: a reference the verifier follows would load it with this class. */
  private static final String PROVIDER = "org.sparkbeton.spark.BetonProvider";

  /** This instance's provider: Spark asks one instance for a read's schema, then for its table. */
  private Object provider;

  @Override
  public String shortName() {
    return SHORT_NAME;
  }

  /** Spark names a data source by this in some refusals ({@code ALTER TABLE ... ADD COLUMNS}): its short name. */
  @Override
  public String toString() {
    return SHORT_NAME;
  }

  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    return ((TableProvider) provider()).inferSchema(options);
  }

  @Override
  public boolean supportsExternalMetadata() {
    return ((TableProvider) provider()).supportsExternalMetadata();
  }

  @Override
  public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
    return ((TableProvider) provider()).getTable(schema, partitioning, properties);
  }

  @Override
  public BaseRelation createRelation(SQLContext sqlContext, SaveMode mode,
      scala.collection.immutable.Map<String, String> parameters, Dataset<Row> data) {
    return ((CreatableRelationProvider) provider()).createRelation(sqlContext, mode, parameters, data);
  }

  @Override
  public BaseRelation createRelation(SQLContext sqlContext, scala.collection.immutable.Map<String, String> parameters) {
    return ((RelationProvider) provider()).createRelation(sqlContext, parameters);
  }

  @Override
  public BaseRelation createRelation(SQLContext sqlContext, scala.collection.immutable.Map<String, String> parameters,
      StructType schema) {
    return ((SchemaRelationProvider) provider()).createRelation(sqlContext, parameters, schema);
  }

  @Override
  public scala.Tuple2<String, StructType> sourceSchema(SQLContext sqlContext, scala.Option<StructType> schema,
      String providerName, scala.collection.immutable.Map<String, String> parameters) {
    return ((StreamSourceProvider) provider()).sourceSchema(sqlContext, schema, providerName, parameters);
  }

  @Override
  public Source createSource(SQLContext sqlContext, String metadataPath, scala.Option<StructType> schema,
      String providerName, scala.collection.immutable.Map<String, String> parameters) {
    return ((StreamSourceProvider) provider()).createSource(sqlContext, metadataPath, schema, providerName, parameters);
  }

  /**
   * Refuses the {@code OPTIONS} of a beton table being created that neither reads nor writes take, or whose values
   * they refuse ({@code BetonProvider.checkTableOptions}), for the session extension, which like this class loads
   * nothing of ours that needs Java 17.
   */
  public void checkTableOptions(Map<String, String> options) {
    Object checked = provider();
    try {
      checked.getClass().getMethod("checkTableOptions", Map.class).invoke(checked, options);
    } catch (java.lang.reflect.InvocationTargetException e) {
      Throwable why = e.getCause();
      if (why instanceof RuntimeException) {
        throw (RuntimeException) why;
      }
      throw new IllegalStateException(why);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Cannot check a beton table's options: " + e, e);
    }
  }

  private synchronized Object provider() {
    if (provider == null) {
      String scala = ScalaBinaryCheck.mismatch();
      if (scala != null) {
        throw new UnsupportedOperationException(scala);
      }
      try {
        provider = Class.forName(PROVIDER, true, BetonDataSource.class.getClassLoader()).getConstructor().newInstance();
      } catch (UnsupportedClassVersionError e) {
        throw new UnsupportedOperationException(javaTooOld(), e);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("Cannot make " + PROVIDER + ", the beton data source: " + e, e);
      }
    }
    return provider;
  }

  /** What a user on an older Java reads. */
  static String javaTooOld() {
    return "format(\"beton\") needs Java 17 or newer, and this JVM is Java " + System.getProperty("java.version")
        + " (" + System.getProperty("java.home") + "). Run Spark 3.5 on Java 17: point JAVA_HOME at a JDK 17 for"
        + " spark-submit and the cluster (on YARN also spark.executorEnv.JAVA_HOME and"
        + " spark.yarn.appMasterEnv.JAVA_HOME). Spark's other data sources are unaffected.";
  }
}
