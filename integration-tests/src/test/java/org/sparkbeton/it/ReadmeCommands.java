package org.sparkbeton.it;

import java.util.List;

/**
 * The cluster commands of README.md's "Install and deploy" section, word for word: {@link SparkSubmitIT} runs
 * them, {@link ReadmeCommandsTest} checks the README still prints them. Variables: {@code $MASTER} (the
 * master URL), {@code $JAR} (the runtime jar), {@code $VERSION}, {@code $REPO} (a Maven repository URL),
 * {@code $PHOTOS} (an ImageFolder tree), {@code $DATASET} (where the dataset goes).
 */
final class ReadmeCommands {
  /** The prepare job, the runtime jar being the application jar. */
  static final String PREPARE = "spark-submit --master $MASTER --class org.sparkbeton.spark.prepare.PrepareJob "
      + "$JAR --input $PHOTOS --output $DATASET";

  /** The prepare job from Maven coordinates ({@code spark-internal}: Spark's name for "no application jar"). */
  static final String PREPARE_PACKAGES = "spark-submit --master $MASTER "
      + "--packages org.sparkbeton:spark-beton-runtime-3.5_2.12:$VERSION --repositories $REPO "
      + "--class org.sparkbeton.spark.prepare.PrepareJob spark-internal --input $PHOTOS --output $DATASET";

  /** The compaction job on the dataset the prepare job wrote, the runtime jar being the application. */
  static final String COMPACT = "spark-submit --master $MASTER --class org.sparkbeton.spark.prepare.CompactJob "
      + "$JAR $DATASET";

  /** A Spark shell with the runtime jar added. */
  static final String SHELL = "spark-shell --master $MASTER --jars $JAR";

  /** A Spark shell with the runtime jar, where the cluster's Kryo requires registration. */
  static final String SHELL_KRYO = "spark-shell --master $MASTER --jars $JAR "
      + "--conf spark.kryo.registrator=org.sparkbeton.spark.BetonKryoRegistrator";

  /** What the README types into that shell, after {@code val dataset = "..."}. */
  static final List<String> SHELL_READ_BACK = List.of(
      "val df = spark.read.format(\"beton\").load(dataset)",
      "df.groupBy(\"label\").count().orderBy(\"label\").show()",
      "df.count()");

  /** The setting that names the path catalog {@code beton}, for SQL on datasets by path. */
  static final String PATH_CATALOG_KEY = "spark.sql.catalog.beton";

  /** Its class. */
  static final String PATH_CATALOG = "org.sparkbeton.spark.BetonPathCatalog";

  /** A Spark shell with the path catalog registered ({@link SparkSubmitIT} sets it in a running shell instead). */
  static final String SHELL_SQL = "spark-shell --master $MASTER --jars $JAR --conf " + PATH_CATALOG_KEY + "="
      + PATH_CATALOG;

  private ReadmeCommands() {}
}
