package org.sparkbeton.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.min;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.dataset.DatasetManifest;

/**
 * Columns read back with the types they were written with: integers narrower than bigint, booleans, dates,
 * timestamps, floats and decimals (stored in int64 and float64 fields), strings stored as bytes, and structs, maps and lists stored as JSON; with
 * filters, pushed-down aggregates and copies; appends of other types; and a DataFrame loaded before one.
 */
class BetonColumnTypesTest {
  @TempDir static Path tmp;
  static SparkSession spark;

  /** Every kind of column whose field is wider than it, with values at the ends of their ranges. */
  private static final String[] COLUMNS = {
      "cast(id as int) * 1000003 as label",
      "cast(id - 2 as smallint) * cast(16000 as smallint) as small",
      "cast(id * 60 - 120 as tinyint) as tiny",
      "id % 2 = 0 as flag",
      "cast(id / 3.0 as float) as score",
      "named_struct('a', cast(id as int), 'b', array('x', concat('\"q', id)), 'c', map('k\"1', id / 4.0),"
          + " 'd', cast(id * 1.25 as decimal(10, 2)), 'e', cast(concat('b', id) as binary)) as meta",
      "map(cast(id as int), id * 10) as counts",
      "date_add(date'1969-12-30', cast(id * 400 as int)) as day",
      "timestamp_micros(id * 86400123456 - 1) as at",
      "cast(timestamp_micros(id * 3600000001) as timestamp_ntz) as local",
      "named_struct('day', date_add(date'2024-02-28', cast(id as int)), 'at', timestamp_micros(id - 1)) as when",
      "array(concat('t', id), 'u') as tags",
      "cast(id * 1.25 - 2 as decimal(10, 2)) as price",
      "id * 0.5 as half", // a decimal(22,1), as Spark types the literal 0.5
      "id"};

  @BeforeAll
  static void setUp() {
    spark = SparkSession.builder().master("local[2]").appName("BetonColumnTypesTest")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2").config("spark.sql.session.timeZone", "UTC").getOrCreate();
  }

  @AfterAll
  static void tearDown() {
    spark.stop();
  }

  private static Dataset<Row> rows(long first, long end) {
    return spark.range(first, end, 1, 2).selectExpr(COLUMNS);
  }

  private static Dataset<Row> read(Path dir) {
    return spark.read().format("beton").load(dir.toString());
  }

  @Test
  void columnsReadBackWithTheTypesAndValuesTheyWereWrittenWith() {
    Path dir = tmp.resolve("types");
    Dataset<Row> written = rows(0, 5);
    written.write().format("beton").save(dir.toString());

    Dataset<Row> back = read(dir);
    // the same types (catalogString leaves out nullability, which reads set their own way, and metadata)
    assertThat(back.schema().catalogString()).isEqualTo(written.schema().catalogString());
    assertThat(back.orderBy("id").collectAsList()).isEqualTo(written.orderBy("id").collectAsList());
    Row two = back.where("id = 2").first();
    assertThat(two.<Integer>getAs("label")).isEqualTo(2_000_006);
    assertThat(two.<Boolean>getAs("flag")).isTrue();
    assertThat(two.<Float>getAs("score")).isEqualTo(0.666667f); // 2 / 3.0 is the decimal 0.666667
    Row meta = two.getAs("meta");
    assertThat(meta.getList(1)).containsExactly("x", "\"q2");
    assertThat(meta.getJavaMap(2)).isEqualTo(Map.of("k\"1", new BigDecimal("0.500000")));
    assertThat(meta.getDecimal(3)).isEqualTo(new BigDecimal("2.50"));
    assertThat((byte[]) meta.get(4)).isEqualTo("b2".getBytes());
    assertThat(two.<java.sql.Date>getAs("day")).isEqualTo(java.sql.Date.valueOf("1972-03-09"));
    assertThat(two.<java.sql.Timestamp>getAs("at").toInstant()).isEqualTo(java.time.Instant.parse(
        "1970-01-03T00:00:00.246911Z"));
    assertThat(two.<java.time.LocalDateTime>getAs("local")).isEqualTo(java.time.LocalDateTime.parse(
        "1970-01-01T02:00:00.000002"));
    assertThat(two.<Row>getAs("when").getDate(0)).isEqualTo(java.sql.Date.valueOf("2024-03-01"));
    assertThat(two.<BigDecimal>getAs("price")).isEqualTo(new BigDecimal("0.50"));
    assertThat(two.<BigDecimal>getAs("half")).isEqualTo(new BigDecimal("1.0"));
  }

  @Test
  void decimalsAreFloat64sForFfcvAndADecimalWithTooManyDigitsIsRefused() {
    Path dir = tmp.resolve("decimals");
    spark.range(0, 3, 1, 1).selectExpr("cast(id * 1.25 - 2 as decimal(10, 2)) as price").write().format("beton")
        .save(dir.toString());
    // the shard read without the manifest: the float64s FFCV's loader gives
    assertThat(spark.read().format("beton").load(dir + "/*.beton").orderBy("price").collectAsList())
        .extracting(r -> r.get(0)).containsExactly(-2.0, -0.75, 0.5);

    Path refused = tmp.resolve("decimals-refused");
    assertThatThrownBy(() -> spark.sql("select cast('0.12345678901234567' as decimal(18, 17)) as p").write()
        .format("beton").save(refused.toString()))
        .hasMessageContaining("Bad value in column 'p', row 0")
        .hasMessageContaining("decimal 0.12345678901234567 has more significant digits (17) than a float64 gives back"
            + " exactly");
  }

  @Test
  void nestedDatesAndTimestampsAreIsoTextInTheJsonFfcvReads() {
    Path dir = tmp.resolve("iso");
    spark.range(0, 1, 1, 1).selectExpr("named_struct('d', date'2024-02-29', 'ts', timestamp_micros(-1),"
        + " 'ntz', timestamp_ntz'2024-05-01 12:30:00.5') as s").write().format("beton").save(dir.toString());
    // the shard read without the manifest: the field's JSON text, as FFCV's JSONField.unpack parses it
    assertThat(spark.read().format("beton").load(dir + "/*.beton").first().getString(0)).isEqualTo(
        "{\"d\": \"2024-02-29\", \"ts\": \"1969-12-31T23:59:59.999999Z\", \"ntz\": \"2024-05-01T12:30:00.500\"}");
  }

  @Test
  void theManifestRecordsTheTypesItsFieldsAreWiderThan() throws Exception {
    Path dir = tmp.resolve("recorded");
    rows(0, 3).write().format("beton").save(dir.toString());
    Map<String, String> recipe = BetonWriteTest.manifest(dir).recipe();
    assertThat(recipe).containsEntry("spark_type.label", "INT").containsEntry("spark_type.small", "SMALLINT")
        .containsEntry("spark_type.tiny", "TINYINT").containsEntry("spark_type.flag", "BOOLEAN")
        .containsEntry("spark_type.score", "FLOAT").containsEntry("spark_type.counts", "MAP<INT, BIGINT>")
        .containsEntry("spark_type.tags", "ARRAY<STRING>").containsEntry("spark_type.day", "DATE")
        .containsEntry("spark_type.at", "TIMESTAMP").containsEntry("spark_type.local", "TIMESTAMP_NTZ")
        .containsEntry("spark_type.when", "STRUCT<day: DATE, at: TIMESTAMP>").doesNotContainKey("spark_type.id")
        .containsEntry("spark_type.price", "DECIMAL(10,2)").containsEntry("spark_type.half", "DECIMAL(22,1)");
    assertThat(recipe.get("spark_type.meta")).startsWith("STRUCT<a: INT, b: ARRAY<STRING>");
  }

  @Test
  void filtersAndPushedDownAggregatesGiveTheColumnsTypes() {
    Path dir = tmp.resolve("filters");
    rows(0, 6).write().format("beton").save(dir.toString());
    Dataset<Row> df = read(dir);

    assertThat(df.where(col("flag").equalTo(true)).count()).isEqualTo(3);
    assertThat(df.where("label > 3000009 and score < 1.5").count()).isEqualTo(1);
    Dataset<Row> agg = df.agg(min("label"), max("tiny"), max("flag"), min("score"));
    assertThat(agg.schema().fields()).extracting(StructField::dataType).containsExactly(DataTypes.IntegerType,
        DataTypes.ByteType, DataTypes.BooleanType, DataTypes.FloatType);
    Row r = agg.first();
    assertThat(List.of(r.get(0), r.get(1), r.get(2), r.get(3))).containsExactly(0, (byte) 120, true, 0f);
    assertThat(df.groupBy("flag").count().orderBy("flag").collectAsList())
        .extracting(row -> row.get(0)).containsExactly(false, true);
    assertThat(df.where("day >= date'1973-01-01'").count()).isEqualTo(3);
    assertThat(df.where("at < timestamp'1970-01-02 00:00:00.123456Z'").count()).isEqualTo(2);
    Row times = df.agg(max("day"), min("at")).first();
    assertThat(times.getDate(0)).isEqualTo(java.sql.Date.valueOf("1975-06-22"));
    assertThat(times.getTimestamp(1).toInstant()).isEqualTo(java.time.Instant.parse("1969-12-31T23:59:59.999999Z"));
    // decimals: compared as decimals, each shard skipped by its float64 statistics rounded to the column's scale
    // (two shards: prices -2.00, -0.75, 0.50 and 1.75, 3.00, 4.25); MIN and MAX answered from metadata
    assertThat(df.where("price > 1.0").count()).isEqualTo(3);
    assertThat(df.where("price > 1.0").queryExecution().executedPlan().toString()).contains("shards=1/2");
    assertThat(df.where("price <= 0.5").count()).isEqualTo(3);
    assertThat(df.where("price <= 0.5").queryExecution().executedPlan().toString()).contains("shards=1/2");
    assertThat(df.where("price < -2 or price > 4.25").count()).isZero();
    assertThat(df.where("price < -2 or price > 4.25").queryExecution().executedPlan().toString())
        .contains("shards=0/2");
    assertThat(df.where("price = 1.75").select("id").first().getLong(0)).isEqualTo(3);
    Row prices = df.agg(min("price"), max("half")).first();
    assertThat(df.agg(min("price")).schema().fields()[0].dataType()).isEqualTo(DataTypes.createDecimalType(10, 2));
    assertThat(List.of(prices.get(0), prices.get(1))).containsExactly(new BigDecimal("-2.00"), new BigDecimal("2.5"));
  }

  @Test
  void aCopyKeepsTheTypesAndStringsStoredAsBytesReadBackAsStrings() throws Exception {
    Path dir = tmp.resolve("bytes");
    Dataset<Row> written = spark.range(0, 4, 1, 1).selectExpr("concat('name-', id) as name", "cast(id as int) as n");
    written.write().format("beton").option("stringEncoding", "bytes").save(dir.toString());
    Path copy = tmp.resolve("bytes-copy");
    read(dir).write().format("beton").save(copy.toString());

    for (Path p : List.of(dir, copy)) {
      Dataset<Row> back = read(p);
      assertThat(back.schema().apply("name").dataType()).isEqualTo(DataTypes.StringType);
      assertThat(back.schema().apply("n").dataType()).isEqualTo(DataTypes.IntegerType);
      assertThat(back.orderBy("n").collectAsList()).isEqualTo(written.orderBy("n").collectAsList());
    }
    // stored as it was: Bytes, not JSON, so an append of the copy's rows to the first needs no option either
    assertThat(BetonWriteTest.manifest(copy).fields().get(0).typeId()).isEqualTo(FieldTypes.BYTES);
    read(copy).write().format("beton").mode("append").save(dir.toString());
    assertThat(read(dir).count()).isEqualTo(8);
    Path asJson = tmp.resolve("bytes-as-json");
    read(dir).write().format("beton").option("stringEncoding", "json").save(asJson.toString());
    assertThat(BetonWriteTest.manifest(asJson).fields().get(0).typeId()).isEqualTo(FieldTypes.JSON);
  }

  @Test
  void mapsKeyedByDatesBooleansDecimalsBinaryOrStructsReadBackAsThoseMaps() {
    Path dir = tmp.resolve("map-keys");
    Dataset<Row> written = spark.range(0, 3, 1, 1).selectExpr("id",
        "map(date_add(date'2024-01-01', cast(id as int)), id) as by_day",
        "map(id % 2 = 0, id) as by_flag",
        "map(cast(id * 1.5 as decimal(6, 2)), id) as by_price",
        "map(cast(concat('k', id) as binary), id) as by_bytes",
        "map(named_struct('k', cast(id as int), 'at', timestamp_micros(id)), concat('v', id)) as by_struct",
        "map(timestamp_micros(id * 1000001), id) as by_time",
        "map(id / 2.0D, id) as by_double");
    written.write().format("beton").save(dir.toString());

    Dataset<Row> back = read(dir);
    assertThat(back.drop("by_double").schema().catalogString())
        .isEqualTo(written.drop("by_double").schema().catalogString());
    // a double key's not-a-number would be the JSON text null: such a map reads back as its JSON text
    assertThat(back.schema().apply("by_double").dataType()).isEqualTo(DataTypes.StringType);
    String[] comparable = {"id", "by_day", "by_flag", "by_price", "transform_keys(by_bytes, (k, v) -> hex(k)) as b",
        "by_struct", "by_time"};
    assertThat(back.orderBy("id").selectExpr(comparable).collectAsList())
        .isEqualTo(written.orderBy("id").selectExpr(comparable).collectAsList());
    assertThat(back.where("id = 1").selectExpr("by_day[date'2024-01-02']", "by_price[1.50]").first())
        .isEqualTo(RowFactory.create(1L, 1L));
  }

  @Test
  void stringsThatAreNotUtf8KeepTheirBytesAsBytesAndAreRefusedAsJson() {
    // Spark strings are bytes: C3 28 and FF are not UTF-8, and decoding them would store EF BF BD instead
    Dataset<Row> odd = spark.range(0, 2, 1, 1).selectExpr("id",
        "if(id = 0, cast(unhex('C328FF41') as string), '\uFFFD real replacement char') as s");
    Path bytes = tmp.resolve("not-utf8-bytes");
    odd.write().format("beton").option("stringEncoding", "bytes").save(bytes.toString());
    assertThat(read(bytes).orderBy("id").selectExpr("hex(cast(s as binary))").collectAsList())
        .extracting(row -> row.getString(0))
        .containsExactly("C328FF41", "EFBFBD207265616C207265706C6163656D656E742063686172");

    assertThatThrownBy(() -> odd.write().format("beton").save(tmp.resolve("not-utf8-json").toString()))
        .hasStackTraceContaining("a string that is not valid UTF-8 (bytes C328FF41): a JSON field holds text only");
    assertThatThrownBy(() -> odd.selectExpr("id", "named_struct('s', s) as st").write().format("beton")
        .save(tmp.resolve("not-utf8-struct").toString()))
        .hasStackTraceContaining("a string that is not valid UTF-8 (bytes C328FF41)");
    Path json = tmp.resolve("replacement-char-json");
    odd.where("id = 1").write().format("beton").save(json.toString());
    assertThat(read(json).collectAsList().get(0).getString(1)).isEqualTo("\uFFFD real replacement char");
  }

  @Test
  void anAppendKeepsATypeThatHoldsBothWritesAndWidensOrDropsOneThatDoesNot() throws Exception {
    Path dir = tmp.resolve("append");
    spark.range(0, 3, 1, 1).selectExpr("cast(id as smallint) as n", "id % 2 = 0 as flag", "cast(id as float) as f")
        .write().format("beton").save(dir.toString());
    Dataset<Row> before = read(dir);
    spark.range(3, 5, 1, 1).selectExpr("cast(id * 100000 as int) as n", "cast(id % 2 as long) as flag",
        "cast(id as float) as f").write().format("beton").mode("append").save(dir.toString());

    Dataset<Row> after = read(dir);
    assertThat(after.schema().fields()).extracting(StructField::dataType).containsExactly(DataTypes.IntegerType,
        DataTypes.LongType, DataTypes.FloatType);
    assertThat(after.orderBy("n").collectAsList()).extracting(row -> row.get(0) + " " + row.get(1))
        .containsExactly("0 1", "1 0", "2 1", "300000 1", "400000 0");
    assertThat(BetonWriteTest.manifest(dir).recipe()).containsEntry("spark_type.n", "INT")
        .doesNotContainKey("spark_type.flag").containsEntry("spark_type.f", "FLOAT");
    // a DataFrame loaded with smallint and boolean columns cannot read the rows appended since
    assertThatThrownBy(before::count).hasStackTraceContaining("changed after this DataFrame read it")
        .hasStackTraceContaining("Load it again");
  }

  /** An append of arrays takes the shapes the dataset's NDArray fields have: it asked for them again. */
  @Test
  void anAppendOfArraysTakesTheDatasetsShapes() {
    Path dir = tmp.resolve("append-arrays");
    spark.sql("select 0 as id, array(1.0f, 2.0f) as emb").write().format("beton").option("arrayShapes", "emb:2")
        .save(dir.toString());
    spark.sql("select 1 as id, array(3.0f, 4.0f) as emb").write().format("beton").mode("append").save(dir.toString());
    // the arrays as Java lists: a Row's text differs between Scala 2.12 (WrappedArray) and 2.13 (ArraySeq)
    assertThat(read(dir).orderBy("id").collectAsList()).extracting(r -> r.getInt(0) + " " + r.getList(1))
        .containsExactly("0 [1.0, 2.0]", "1 [3.0, 4.0]");
  }

  /** The tester's case: timestamps appended to dates read back as bigint, days and microseconds side by side. */
  @Test
  void anAppendThatWouldMixDaysAndMicrosecondsIsRefused() {
    Path dir = tmp.resolve("append-units");
    spark.sql("select 0 as id, date'2020-01-01' as d").write().format("beton").save(dir.toString());
    assertThatThrownBy(() -> spark.sql("select 1 as id, timestamp'2020-01-01 00:00:00' as d").write()
        .format("beton").mode("append").save(dir.toString()))
        .hasMessageContaining("column 'd' holds DATE values in the dataset (days since 1970-01-01), and the"
            + " DataFrame's TIMESTAMP values (microseconds since 1970-01-01 UTC)")
        .hasMessageContaining("Cast the column to date");
    assertThat(read(dir).collectAsList()).extracting(Row::toString).containsExactly("[0,2020-01-01]");
  }

  /**
   * Datasets read together keep the types they all record (identical ones stayed bigint, dates read as day numbers);
   * integers widen; days beside microseconds are refused, not mixed.
   */
  @Test
  void datasetsReadTogetherKeepTheTypesThatHoldThemAll() {
    Path a = tmp.resolve("together-a");
    Path b = tmp.resolve("together-b");
    Path c = tmp.resolve("together-c");
    spark.sql("select cast(1 as int) as id, date'2020-01-01' as d, cast(0.5 as float) as f").write().format("beton")
        .save(a.toString());
    spark.sql("select cast(2 as smallint) as id, date'2021-01-01' as d, cast(1.5 as float) as f").write()
        .format("beton").save(b.toString());
    spark.sql("select cast(3 as int) as id, timestamp'2020-01-01 00:00:00' as d, cast(2.5 as float) as f").write()
        .format("beton").save(c.toString());

    Dataset<Row> ab = spark.read().format("beton").load(a.toString(), b.toString());
    assertThat(ab.schema().simpleString()).isEqualTo("struct<id:int,d:date,f:float>");
    assertThat(ab.orderBy("id").collectAsList()).extracting(Row::toString)
        .containsExactly("[1,2020-01-01,0.5]", "[2,2021-01-01,1.5]");
    assertThat(spark.read().format("beton").load(tmp.resolve("together-[ab]").toString()).schema().simpleString())
        .isEqualTo("struct<id:int,d:date,f:float>");
    assertThatThrownBy(() -> spark.read().format("beton").load(a.toString(), c.toString()).collectAsList())
        .hasMessageContaining("Column 'd' is DATE in " + a.toUri().toString().replaceAll("/$", "").replace("file:///",
            "file:/"))
        .hasMessageContaining("Read them apart and cast the column to one type before a union");
  }

  @Test
  void aValueTheRecordedTypeCannotHoldFailsNamingTheField() throws Exception {
    Path dir = tmp.resolve("mismatch");
    spark.range(0, 2, 1, 1).selectExpr("cast(id as int) as n").write().format("beton").save(dir.toString());
    Path other = tmp.resolve("mismatch-other");
    spark.range(0, 2, 1, 1).selectExpr("id * 10000000000 as n").write().format("beton").save(other.toString());
    // the other dataset's shard, with values beyond int, put in place of the first one's (same fields, same size)
    String shard = BetonWriteTest.manifest(dir).shards().get(0).path();
    String wide = BetonWriteTest.manifest(other).shards().get(0).path();
    java.nio.file.Files.copy(other.resolve(wide), dir.resolve(shard), java.nio.file.StandardCopyOption.REPLACE_EXISTING);

    assertThatThrownBy(() -> spark.read().format("beton").option("verifyChecksums", "false").load(dir.toString())
        .collectAsList()).hasStackTraceContaining("field 'n'").hasStackTraceContaining("holds 10000000000, which is"
            + " not a int, the column type the dataset's manifest records for the field");
  }
}
