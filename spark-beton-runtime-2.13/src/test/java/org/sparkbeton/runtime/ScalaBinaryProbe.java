package org.sparkbeton.runtime;

import java.util.function.Supplier;
import org.apache.spark.sql.SparkSession;

/**
 * A user's job, run by {@link ScalaBinaryIT} in a JVM of its own on Spark's Scala 2.13 class path with one runtime
 * jar: a Parquet table, then a beton write, read, image write and table. Prints one line per step,
 * {@code step ok RESULT} or {@code step failed CLASS: MESSAGE}, and carries on.
 */
public final class ScalaBinaryProbe {
  private ScalaBinaryProbe() {}

  public static void main(String[] args) {
    String dir = args[0];
    String photos = args[1];
    SparkSession spark = SparkSession.builder().master("local[2]").config("spark.ui.enabled", "false")
        .config("spark.sql.warehouse.dir", dir + "/warehouse").getOrCreate();
    try {
      step("parquet-table", () -> {
        spark.sql("CREATE TABLE pq (id BIGINT) USING parquet LOCATION '" + dir + "/pq'");
        spark.sql("INSERT INTO pq SELECT id FROM range(4)");
        return spark.sql("SELECT count(*) FROM pq").first().get(0);
      });
      step("beton-write", () -> {
        spark.sql("SELECT id, id % 3 AS label FROM range(10)").write().format("beton").save(dir + "/ds");
        return "";
      });
      step("beton-read", () -> spark.read().format("beton").load(dir + "/ds").where("label = 0").count());
      step("beton-images", () -> {
        spark.read().format("binaryFile").load(photos).selectExpr("content AS image", "0 AS label").write()
            .format("beton").option("imageColumns", "image").option("maxResolution", "64").option("writeMode", "jpg")
            .save(dir + "/images");
        return spark.read().format("beton").load(dir + "/images").where("image_width <= 64 AND image_height <= 64")
            .count();
      });
      step("beton-table", () -> {
        spark.sql("CREATE TABLE bt USING beton LOCATION '" + dir + "/ds'");
        return spark.sql("SELECT count(*) FROM bt WHERE label = 1").first().get(0);
      });
    } finally {
      spark.stop();
    }
  }

  private static void step(String name, Supplier<Object> action) {
    try {
      System.out.println(name + " ok " + action.get());
    } catch (RuntimeException e) {
      Throwable root = e;
      while (root.getCause() != null) {
        root = root.getCause();
      }
      System.out.println(name + " failed " + root.getClass().getName() + ": " + root.getMessage());
    }
    System.out.flush();
  }
}
