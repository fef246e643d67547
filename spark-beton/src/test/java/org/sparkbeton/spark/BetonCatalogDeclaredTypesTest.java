package org.sparkbeton.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.codec.testing.TestPhotos;

/**
 * A catalog table's declared columns over what the dataset stores: a value its declared type cannot hold is an
 * error, not a value wrapped around (the read cast without a check: 5,000,000,000 read as 705,032,704 in an INT
 * column, and a filter on what it showed found nothing); a table of images read as Spark images queries.
 */
class BetonCatalogDeclaredTypesTest {
  @TempDir static Path tmp;
  static SparkSession spark;

  @BeforeAll
  static void setUp() {
    spark = SparkTests.catalogSession("BetonCatalogDeclaredTypesTest", tmp.resolve("warehouse"));
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

  @Test
  void aValueItsDeclaredTypeCannotHoldIsAnErrorNotAWrappedValue() {
    String big = tmp.resolve("big").toUri().toString();
    spark.sql("select id + 5000000000 as id, id as label, 1e300 * (id + 1) as x, cast(id as double) / 4 as q"
        + " from range(3)").coalesce(1).write().format("beton").save(big); // one shard: one task meets row 0 first
    spark.sql("create table narrow (id int, label bigint) using beton location '" + big + "'");
    assertThatThrownBy(() -> spark.sql("select * from narrow").collectAsList())
        .hasStackTraceContaining("Column id of the beton table at file:" + tmp.resolve("big") + " holds 5000000000,"
            + " which its declared type INT cannot hold: declare it BIGINT");
    assertThat(rows("select label from narrow order by label")).containsExactly("[0]", "[1]", "[2]");

    spark.sql("create table floats (x float) using beton location '" + big + "'");
    assertThatThrownBy(() -> spark.sql("select * from floats").collectAsList())
        .hasStackTraceContaining("Column x of the beton table at file:" + tmp.resolve("big") + " holds 1.0E300, which"
            + " its declared type FLOAT cannot hold: declare it DOUBLE");
    // quarters are floats exactly: a FLOAT column over them reads them
    spark.sql("create table quarters (label int, q float) using beton location '" + big + "'");
    assertThat(rows("select label, q from quarters order by label")).containsExactly("[0,0.0]", "[1,0.25]",
        "[2,0.5]");
  }

  @Test
  void aTableOfImagesReadAsSparkImagesQueries() {
    List<Row> photos = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      photos.add(RowFactory.create(TestPhotos.photo(5, i), i % 2));
    }
    StructType schema = new StructType().add("image", DataTypes.BinaryType).add("label", DataTypes.IntegerType);
    String location = tmp.resolve("photos").toUri().toString();
    spark.createDataFrame(photos, schema).write().format("beton").option("imageColumns", "image")
        .option("maxResolution", "32").save(location);
    spark.sql("create table ph using beton options (imageMode 'image') location '" + location + "'");
    assertThat(spark.table("ph").schema().fieldNames()).containsExactly("image", "label");
    assertThat(rows("select label, count(*), max(greatest(image.width, image.height)) from ph group by label"
        + " order by label")).containsExactly("[0,2,32]", "[1,2,32]");
  }
}
