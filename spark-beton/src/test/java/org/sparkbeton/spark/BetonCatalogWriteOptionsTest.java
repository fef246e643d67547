package org.sparkbeton.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.dataset.DatasetManifest;

/**
 * The writer's options given to a write into a beton table of Spark's session catalog ({@code saveAsTable},
 * {@code writeTo(...).create()}): those of a create become the table's, those an append gives that differ from the
 * table's are refused (the session extension's rules; Spark dropped both without a word).
 */
class BetonCatalogWriteOptionsTest {
  @TempDir static Path tmp;
  static SparkSession spark;

  @BeforeAll
  static void setUp() {
    spark = SparkTests.catalogSession("BetonCatalogWriteOptionsTest", tmp.resolve("warehouse"));
  }

  @AfterAll
  static void tearDown() {
    spark.stop();
  }

  @AfterEach
  void dropTables() {
    SparkTests.dropTables(spark);
  }

  private static List<String> rows(String sql) {
    return SparkTests.rows(spark, sql);
  }

  /**
   * The writer's options given to saveAsTable or writeTo into the session catalog apply to the write, and one
   * misspelled fails it, as through save(): Spark passes them as the write's options, not the table's, and they
   * were dropped (an image column went in as plain bytes, stringEncoding and nullPolicy ignored, a typo accepted).
   */
  @Test
  void saveAsTableAndWriteToApplyTheWritersOptions() throws Exception {
    Path location = tmp.resolve("with-options");
    spark.sql("select 1 as id, 'abc' as s union all select null, 'x'").write().format("beton")
        .option("stringEncoding", "bytes").option("nullPolicy", "skip").option("path", location.toString())
        .saveAsTable("with_options");
    DatasetManifest m = DatasetManifest.parse(Files.readString(location.resolve(DatasetManifest.FILE_NAME)));
    assertThat(m.totalSamples()).isEqualTo(1);
    assertThat(typeOf(location, "s")).isEqualTo(FieldTypes.BYTES); // a string column is JSON without the option
    assertThat(rows("select * from with_options")).containsExactly("[1,abc]");
    spark.sql("select null as id, 'n' as s").write().format("beton").mode(SaveMode.Append).saveAsTable("with_options");
    assertThat(rows("select count(*) from with_options")).containsExactly("[1]"); // the table's nullPolicy skipped it

    assertThatThrownBy(() -> spark.sql("select 1 as id").write().format("beton").option("nullPolicy", "skip")
        .option("nulPolicy", "skip").option("path", tmp.resolve("typo").toString()).saveAsTable("typo"))
        .hasStackTraceContaining("nulPolicy");

    spark.sql("select 2 as id, 'def' as s").writeTo("written_to").using("beton").option("stringEncoding", "bytes")
        .option("path", tmp.resolve("written-to").toString()).create();
    assertThat(typeOf(tmp.resolve("written-to"), "s")).isEqualTo(FieldTypes.BYTES);

    // an existing table is written with its own options: others given to the write are refused, not dropped
    spark.sql("select 3 as id, 'g' as s").write().format("beton").option("path", tmp.resolve("plain").toString())
        .saveAsTable("plain");
    assertThatThrownBy(() -> spark.sql("select null as id, 'h' as s").write().format("beton")
        .option("nullPolicy", "skip").mode(SaveMode.Append).saveAsTable("plain"))
        .hasMessageContaining("Table spark_catalog.default.plain is written with its own OPTIONS: the options given"
            + " to this write (nullPolicy) would not apply, so it is refused. Write to its location by path")
        .hasMessageContaining(".mode(\"append\").save(\"file:");
    spark.sql("select 4 as id, 'i' as s").write().format("beton").option("path", tmp.resolve("plain").toString())
        .mode(SaveMode.Append).saveAsTable("plain"); // its own location: nothing ignored
    spark.sql("select 5 as id, 'j' as s").write().format("beton").mode(SaveMode.Append).saveAsTable("plain");
    assertThat(rows("select id from plain order by id")).containsExactly("[3]", "[4]", "[5]");
  }

  private static int typeOf(Path dataset, String field) throws Exception {
    DatasetManifest m = DatasetManifest.parse(Files.readString(dataset.resolve(DatasetManifest.FILE_NAME)));
    return m.fields().stream().filter(f -> f.name().equals(field)).findFirst().orElseThrow().typeId();
  }
}
