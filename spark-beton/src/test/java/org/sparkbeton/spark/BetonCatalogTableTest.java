package org.sparkbeton.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.dataset.DatasetManifest;

/**
 * Beton datasets as tables of Spark's session catalog: {@code saveAsTable} (external and managed), {@code CREATE
 * TABLE ... USING beton [LOCATION]}, CTAS, {@code INSERT INTO} and {@code INSERT OVERWRITE}, read back with the
 * types the catalog holds.
 */
class BetonCatalogTableTest {
  @TempDir static Path tmp;
  static SparkSession spark;

  @BeforeAll
  static void setUp() {
    spark = SparkTests.catalogSession("BetonCatalogTableTest", tmp.resolve("warehouse"));
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
  void saveAsTableWritesADatasetThatReadsBackWithTheDataFramesTypes() throws Exception {
    Path location = tmp.resolve("photos-table");
    spark.range(4).selectExpr("cast(id as int) as label", "cast(id / 2 as float) as weight").write().format("beton")
        .option("path", location.toString()).saveAsTable("photos");

    assertThat(Files.exists(location.resolve(DatasetManifest.FILE_NAME))).isTrue();
    assertThat(spark.table("photos").schema().simpleString()).isEqualTo("struct<label:int,weight:float>");
    assertThat(rows("select * from photos order by label")).containsExactly("[0,0.0]", "[1,0.5]", "[2,1.0]", "[3,1.5]");
    assertThat(spark.read().format("beton").load(location.toString()).count()).isEqualTo(4);

    spark.range(4, 6).selectExpr("cast(id as int) as label", "cast(id / 2 as float) as weight").write()
        .format("beton").mode(SaveMode.Append).saveAsTable("photos");
    spark.sql("insert into photos values (6, 3.0), (7, 3.5)");
    assertThat(rows("select count(*), sum(label), max(weight) from photos")).containsExactly("[8,28,3.5]");
    assertThat(rows("select label from photos where weight > 2.9 order by label")).containsExactly("[6]", "[7]");

    spark.sql("insert overwrite table photos select label + 100, weight from photos where label < 2");
    assertThat(rows("select * from photos order by label")).containsExactly("[100,0.0]", "[101,0.5]");
    DatasetManifest manifest = DatasetManifest.parse(Files.readString(location.resolve(DatasetManifest.FILE_NAME)));
    assertThat(manifest.totalSamples()).isEqualTo(2);
  }

  @Test
  void aTableOverAnExistingDatasetTakesItsFieldsAndAnswersQueries() {
    Path location = tmp.resolve("existing");
    spark.range(10).selectExpr("cast(id % 3 as int) as label", "concat('s', id) as name").write().format("beton")
        .save(location.toString());
    spark.sql("create table existing using beton location '" + location.toUri() + "'");

    assertThat(spark.table("existing").schema().simpleString()).isEqualTo("struct<label:int,name:string>");
    assertThat(rows("select label, count(*) from existing where name != 's0' group by label order by label"))
        .containsExactly("[0,3]", "[1,3]", "[2,3]");
    assertThat(rows("select count(*) from existing")).containsExactly("[10]");
    // the catalog holds the dataset's columns, as for a Parquet table: an append by saveAsTable is checked against
    // them (with none stored it failed: "The column number of the existing table ... (struct<>) doesn't match")
    assertThat(rows("show create table existing").get(0)).contains("label INT,", "name STRING)");
    spark.range(10, 12).selectExpr("id % 3 as label", "concat('s', id) as name").write().format("beton")
        .mode(SaveMode.Append).saveAsTable("existing");
    assertThat(rows("select count(*), max(name) from existing")).containsExactly("[12,s9]");
    // nullable as a Parquet table's: a null meets the write's null policy, here the table's own option
    assertThatThrownBy(() -> spark.sql("insert into existing select null, 'n'"))
        .hasStackTraceContaining("Bad value in column 'label'").hasStackTraceContaining("nullPolicy=skip");
    spark.sql("create table existing_skip using beton options (nullPolicy 'skip') location '" + location.toUri() + "'");
    spark.sql("insert into existing_skip select null, 'n' union all select 7, 'n7'");
    assertThat(rows("select count(*), max(label) from existing")).containsExactly("[13,7]");

    spark.sql("create temporary view existing_view using beton options (path '" + location.toUri() + "')");
    assertThat(rows("select min(name), max(name) from existing_view where label = 1")).containsExactly("[s1,s7]");
    spark.sql("drop view existing_view");
  }

  @Test
  void ctasAndManagedTablesLiveInTheWarehouseAndDropWithTheirTable() {
    spark.sql("create table squares using beton as select cast(id as int) as n, cast(id * id as int) as sq"
        + " from range(5)");
    Path managed = tmp.resolve("warehouse").resolve("squares");
    assertThat(Files.exists(managed.resolve(DatasetManifest.FILE_NAME))).isTrue();
    assertThat(rows("select sum(sq) from squares")).containsExactly("[30]");

    spark.sql("create table empty_one (label int, score double) using beton");
    assertThat(rows("select * from empty_one")).isEmpty(); // no dataset yet: an empty table
    spark.sql("insert into empty_one values (1, 0.25), (2, 0.5)");
    assertThat(rows("select * from empty_one order by label")).containsExactly("[1,0.25]", "[2,0.5]");

    spark.sql("drop table squares");
    assertThat(Files.exists(managed)).isFalse();
  }

  @Test
  void aDeclaredColumnTheDatasetLacksIsNamedAndBadOptionsAreRefusedAtCreate() {
    Path location = tmp.resolve("labels-only");
    spark.range(3).selectExpr("cast(id as int) as label").write().format("beton").save(location.toString());

    spark.sql("create table declared (label int, caption string) using beton location '" + location.toUri() + "'");
    assertThatThrownBy(() -> spark.table("declared").collect())
        .rootCause().hasMessage("Column 'caption' is not a field of the beton dataset at file:" + location
            + " (its fields: label)");

    for (String columns : List.of("", "(label int) ")) {
      assertThatThrownBy(() -> spark.sql("create table misspelled " + columns + "using beton options (pageSise '4M')"
          + " location '" + location.toUri() + "'"))
          .isInstanceOf(AnalysisException.class)
          .hasMessageStartingWith("Table default.misspelled USING beton: Unknown option 'pageSise' for a beton table;"
              + " did you mean 'pageSize'? Read options (any case): imageMode,");
      assertThat(spark.catalog().tableExists("misspelled")).isFalse();
    }
    assertThatThrownBy(() -> spark.sql("create table badvalue using beton options (jpegQuality '900', imageMode"
        + " 'raw') location '" + location.toUri() + "'"))
        .isInstanceOf(AnalysisException.class).hasMessageStartingWith("Table default.badvalue USING beton: ")
        .hasMessageContaining("jpegQuality");
    assertThatThrownBy(() -> spark.sql("create table badctas using beton options (verifyChecksum 'true') as select 1"
        + " as label"))
        .isInstanceOf(AnalysisException.class)
        .hasMessageStartingWith("Table default.badctas USING beton: Unknown option 'verifyChecksum' for a beton"
            + " table; did you mean 'verifyChecksums'?");
    assertThat(spark.catalog().tableExists("badvalue")).isFalse();
    assertThat(spark.catalog().tableExists("badctas")).isFalse();
  }

  /** The filters Spark hands the table's scan, as conditions of the read beneath it: the rows each selects. */
  @Test
  void filtersReachTheReadAsTheSameConditions() {
    Path location = tmp.resolve("filtered");
    spark.range(30).selectExpr("cast(id as int) as label", "cast(id / 4 as float) as weight").repartition(3)
        .write().format("beton").save(location.toString());
    spark.sql("create table filtered using beton location '" + location.toUri() + "'");
    org.apache.spark.sql.Dataset<Row> direct = spark.read().format("beton").load(location.toString());
    org.apache.spark.sql.sources.Filter[] filters = {
        new org.apache.spark.sql.sources.GreaterThanOrEqual("label", 20),
        new org.apache.spark.sql.sources.And(new org.apache.spark.sql.sources.LessThan("label", 5),
            new org.apache.spark.sql.sources.Not(new org.apache.spark.sql.sources.EqualTo("label", 2))),
        new org.apache.spark.sql.sources.Or(new org.apache.spark.sql.sources.In("label", new Object[] {1, 7}),
            new org.apache.spark.sql.sources.LessThanOrEqual("weight", 0.25)),
        new org.apache.spark.sql.sources.IsNotNull("label")};
    long[] expected = {10, 4, 3, 30};
    for (int i = 0; i < filters.length; i++) {
      assertThat(direct.where(FilterColumns.of(filters[i]).orElseThrow()).count()).as("%s", filters[i])
          .isEqualTo(expected[i]);
    }
    assertThat(FilterColumns.of(new org.apache.spark.sql.sources.StringStartsWith("label", "1"))).isEmpty();
    assertThat(rows("select count(*), min(label) from filtered where label >= 20 and weight < 6"))
        .containsExactly("[4,20]");
  }

  /**
   * An INSERT into a table of images writes them as the dataset holds them: the columns reads add are left out, the
   * image column stays one, and the manifest's recipe (jpg at 64 px here) applies, so stored JPEGs read back from the
   * table pass through byte for byte and new photos are resized as the first ones were.
   */
  @Test
  void anInsertIntoATableOfImagesKeepsItsRecipe() throws Exception {
    List<Row> photos = new java.util.ArrayList<>();
    for (int i = 0; i < 6; i++) {
      photos.add(org.apache.spark.sql.RowFactory.create(org.sparkbeton.codec.testing.TestPhotos.photo(5, i), i % 2));
    }
    org.apache.spark.sql.types.StructType schema = new org.apache.spark.sql.types.StructType()
        .add("image", org.apache.spark.sql.types.DataTypes.BinaryType)
        .add("label", org.apache.spark.sql.types.DataTypes.IntegerType);
    spark.createDataFrame(photos, schema).createOrReplaceTempView("new_photos");
    Path location = tmp.resolve("images");
    spark.table("new_photos").where("label = 0").write().format("beton").option("imageColumns", "image")
        .option("writeMode", "jpg").option("maxResolution", "64").save(location.toString());
    spark.sql("create table images using beton location '" + location.toUri() + "'");
    List<String> before = rows("select sha2(image, 256) from images");

    spark.sql("insert into images select * from images"); // every image again, as stored
    // new photos: the values given for the columns reads add are not stored (the image's own size and mode are)
    spark.sql("insert into images select image, 0, 0, '', label from new_photos where label = 1");

    assertThat(rows("select label, count(*), max(greatest(image_width, image_height)) from images group by label"
        + " order by label")).containsExactly("[0,6,64]", "[1,3,64]");
    assertThat(rows("select sha2(image, 256) from images where label = 0")).hasSize(6)
        .containsAll(before);
    assertThat(rows("select distinct image_mode from images")).containsExactly("[jpg]");

    // a table's stream (here of a table declaring two of the columns) gives its images as a read does: written on,
    // they are images again, stored as they were, by the dataset's recipe
    spark.sql("create table declared_images (image binary, label int) using beton location '" + location.toUri()
        + "'");
    Path copy = tmp.resolve("images-stream-copy");
    assertThat(drain(spark.readStream().table("declared_images"), copy, tmp.resolve("images-stream-checkpoint")))
        .containsExactly(9L);
    DatasetManifest copied = BetonWriteTest.manifest(copy);
    assertThat(copied.fields().get(0).typeId()).isEqualTo(org.sparkbeton.format.FieldTypes.RGB_IMAGE);
    assertThat(copied.recipe()).containsEntry("max_resolution", "64");
    assertThat(spark.read().format("beton").load(copy.toString()).selectExpr("sha2(image, 256)").collectAsList()
        .stream().map(Row::toString).toList()).containsExactlyInAnyOrderElementsOf(rows("select sha2(image, 256)"
        + " from images"));
  }

  /**
   * A table of raw pixels, or of images stored by {@code smart}'s threshold, takes inserts of its own rows and of new
   * photos: the rows a beton read gives keep their size and mode columns for the write, and the recipe's threshold
   * comes with its write mode.
   */
  @Test
  void insertsIntoTablesOfRawAndSmartImagesKeepTheirImages() {
    List<Row> photos = new java.util.ArrayList<>();
    for (int i = 0; i < 4; i++) {
      photos.add(org.apache.spark.sql.RowFactory.create(org.sparkbeton.codec.testing.TestPhotos.photo(6, i), i % 2));
    }
    spark.createDataFrame(photos, new org.apache.spark.sql.types.StructType()
        .add("image", org.apache.spark.sql.types.DataTypes.BinaryType)
        .add("label", org.apache.spark.sql.types.DataTypes.IntegerType)).createOrReplaceTempView("more_photos");
    for (String mode : List.of("raw", "smart")) {
      Path location = tmp.resolve(mode + "-images");
      // at 48 px a photo's pixels are 3,500 to 6,900 bytes: smart stores some raw, some as JPEG
      spark.table("more_photos").where("label = 0").write().format("beton").option("imageColumns", "image")
          .option("writeMode", mode).options(mode.equals("smart") ? Map.of("smartThreshold", "6000") : Map.of())
          .option("maxResolution", "48")
          .save(location.toString());
      spark.sql("create table " + mode + "_images using beton location '" + location.toUri() + "'");
      List<String> before = rows("select sha2(image, 256), image_width, image_height from " + mode + "_images");

      spark.sql("insert into " + mode + "_images select * from " + mode + "_images");
      spark.sql("insert into " + mode + "_images select image, 0, 0, '', label from more_photos where label = 1");

      assertThat(rows("select label, count(*) from " + mode + "_images group by label order by label")).as(mode)
          .containsExactly("[0,4]", "[1,2]");
      String stored = mode.equals("raw") ? "'raw'" : "if(image_width * image_height * 3 > 6000, 'jpg', 'raw')";
      assertThat(rows("select distinct image_mode = " + stored + " from " + mode + "_images")).as(mode)
          .containsExactly("[true]");
      assertThat(rows("select sha2(image, 256), image_width, image_height from " + mode + "_images where label = 0"))
          .as(mode).hasSize(4).containsAll(before);
    }
  }

  /**
   * A replace-as-select of a beton table is refused before it runs: Spark 3.5 would drop the table (a managed table's
   * data too), then fail to write the new one (BetonSessionExtensions). The table and its rows stay.
   */
  @Test
  void aReplaceAsSelectIsRefusedBeforeItDropsTheTable() {
    spark.sql("create table managed using beton as select id, id * id as sq from range(10)");
    Path location = tmp.resolve("replaced-external");
    spark.range(0, 5).selectExpr("id", "id * 2 as sq").write().format("beton").option("path", location.toString())
        .saveAsTable("external");
    for (String table : List.of("managed", "external")) {
      String message = "Table default." + table + " cannot be replaced by a query";
      assertThatThrownBy(() -> spark.sql("create or replace table " + table + " using beton as select 1L as id, 1L as sq"))
          .isInstanceOf(AnalysisException.class).hasMessageStartingWith(message)
          .hasMessageContaining("INSERT OVERWRITE TABLE default." + table + " SELECT ...");
      assertThatThrownBy(() -> spark.sql("replace table " + table + " using beton as select 1L as id, 1L as sq"))
          .isInstanceOf(AnalysisException.class).hasMessageStartingWith(message);
      assertThatThrownBy(() -> spark.range(3).selectExpr("id", "id as sq").writeTo(table).using("beton")
          .createOrReplace()).isInstanceOf(AnalysisException.class).hasMessageStartingWith(message);
      assertThatThrownBy(() -> spark.range(3).selectExpr("id", "id as sq").writeTo(table)
          .using("org.sparkbeton.spark.BetonDataSource").replace())
          .isInstanceOf(AnalysisException.class).hasMessageStartingWith(message);
    }
    assertThat(rows("select count(*), sum(sq) from managed")).containsExactly("[10,285]");
    assertThat(rows("select count(*), sum(sq) from external")).containsExactly("[5,20]");
    // what the message offers instead replaces the rows
    spark.sql("insert overwrite table managed select 1L, 1L");
    assertThat(rows("select count(*), sum(sq) from managed")).containsExactly("[1,1]");
    // other formats are Spark's to judge: a Parquet table is refused by Spark itself, with its own message
    spark.sql("create table other using parquet as select 1 as id");
    assertThatThrownBy(() -> spark.sql("create or replace table other using parquet as select 2 as id"))
        .isInstanceOf(AnalysisException.class).hasMessageNotContaining("cannot be replaced by a query");
  }

  /** Spark refuses ADD COLUMNS on a data source table, naming the source: by its short name, not an object hash. */
  @Test
  void alterTableAddColumnsIsRefusedNamingTheSourceBeton() {
    spark.sql("create table altered (id bigint) using beton");
    assertThatThrownBy(() -> spark.sql("alter table altered add columns (c string)"))
        .isInstanceOf(AnalysisException.class).hasMessageContaining("datasource table with type beton")
        .hasMessageNotContaining("@");
  }

  /** The catalog would hold partition columns the dataset does not have; refused as partitionBy(...) is. */
  @Test
  void aPartitionedTableIsRefusedBeforeItIsCreated() {
    String reason = "a beton dataset is one directory of shards under one manifest";
    assertThatThrownBy(() -> spark.sql("create table parts (id bigint, label int) using beton partitioned by (label)"))
        .isInstanceOf(AnalysisException.class)
        .hasMessageStartingWith("Table default.parts cannot be partitioned by label (PARTITIONED BY, partitionBy): "
            + reason);
    assertThatThrownBy(() -> spark.sql("create table parts using beton partitioned by (label, id) as select id,"
        + " 1 as label from range(3)")).isInstanceOf(AnalysisException.class)
        .hasMessageStartingWith("Table default.parts cannot be partitioned by label, id (PARTITIONED BY, partitionBy): "
            + reason);
    assertThatThrownBy(() -> spark.range(3).selectExpr("id", "1 as label").write().format("beton")
        .partitionBy("label").saveAsTable("parts")).isInstanceOf(AnalysisException.class)
        .hasMessageStartingWith("Table default.parts cannot be partitioned by label");
    // buckets are named as buckets, not as the partitioning Spark describes them with
    assertThatThrownBy(() -> spark.range(3).selectExpr("id", "1 as label").write().format("beton")
        .bucketBy(4, "id").saveAsTable("parts")).isInstanceOf(AnalysisException.class)
        .hasMessageStartingWith("Table default.parts cannot be bucketed (bucket(4, id): CLUSTERED BY, bucketBy): "
            + reason);
    assertThatThrownBy(() -> spark.sql("create table parts using beton clustered by (id) sorted by (id) into 2 buckets"
        + " as select id from range(3)")).hasMessageStartingWith("Table default.parts cannot be bucketed (");
    assertThat(spark.catalog().tableExists("parts")).isFalse();
    // unpartitioned, the same statement creates the table
    spark.sql("create table parts (id bigint, label int) using beton");
    assertThat(spark.catalog().tableExists("parts")).isTrue();
  }

  /** Columns come from the location's dataset; where there is none the create fails with the read's reason. */
  @Test
  void aTableWithoutColumnsNeedsADatasetAtItsLocation() {
    assertThatThrownBy(() -> spark.sql("create table nocols using beton")).isInstanceOf(AnalysisException.class)
        .hasMessageStartingWith("Table default.nocols USING beton has no columns and no LOCATION");
    Path empty = tmp.resolve("no-dataset-yet");
    assertThatThrownBy(() -> spark.sql("create table nocols using beton location '" + empty.toUri() + "'"))
        .isInstanceOf(AnalysisException.class)
        .hasMessageStartingWith("Table default.nocols USING beton has no columns, and they cannot be read from its"
            + " LOCATION '" + empty.toUri())
        .hasMessageContaining("Path does not exist");
    Path dataset = tmp.resolve("cols-from-here");
    spark.range(0, 4).selectExpr("id").write().format("beton").save(dataset.toString());
    assertThat(spark.catalog().tableExists("nocols")).isFalse();
    // OPTIONS (path ...) is a LOCATION; a write option among them is the table's
    spark.sql("create table nocols using beton options (path '" + dataset.toUri() + "', jpegQuality '80')");
    assertThat(rows("select sum(id) from nocols")).containsExactly("[6]");
    // with its columns given, a table may wait for its dataset
    spark.sql("create table later (id bigint) using beton location '" + empty.toUri() + "'");
    assertThat(rows("select count(*) from later")).containsExactly("[0]");
  }

  @Test
  void aStreamingQueryWritesIntoATableByName() throws Exception {
    Path in = Files.createDirectories(tmp.resolve("stream-in"));
    Files.writeString(in.resolve("a.json"), "{\"n\": 1}\n{\"n\": 2}\n{\"n\": 3}\n");
    spark.sql("create table streamed (n bigint) using beton location '" + tmp.resolve("streamed").toUri() + "'");
    org.apache.spark.sql.streaming.StreamingQuery query = spark.readStream().schema("n BIGINT").json(in.toString())
        .writeStream().format("beton").option("checkpointLocation", tmp.resolve("stream-checkpoint").toString())
        .trigger(org.apache.spark.sql.streaming.Trigger.AvailableNow()).toTable("streamed");
    assertThat(query.awaitTermination(120_000)).isTrue();
    assertThat(rows("select count(*), sum(n) from streamed")).containsExactly("[3,6]");
    // Spark's own check: a stream that names no format asks for its default one, which the table is not
    assertThatThrownBy(() -> spark.readStream().schema("n BIGINT").json(in.toString()).writeStream()
        .option("checkpointLocation", tmp.resolve("stream-checkpoint-2").toString()).toTable("streamed"))
        .hasMessageContaining("data source provider(beton)");
  }

  /**
   * Runs {@code rows} over what is there now into the dataset {@code out}, from {@code checkpoint}; the input row
   * counts of its batches that read rows.
   */
  private static List<Long> drain(org.apache.spark.sql.Dataset<Row> rows, Path out, Path checkpoint)
      throws Exception {
    org.apache.spark.sql.streaming.StreamingQuery query = rows.writeStream().format("beton")
        .option("checkpointLocation", checkpoint.toString())
        .trigger(org.apache.spark.sql.streaming.Trigger.AvailableNow()).start(out.toString());
    assertThat(query.awaitTermination(120_000)).as("the stream ran to the end of its input").isTrue();
    return java.util.Arrays.stream(query.recentProgress()).map(p -> p.numInputRows()).filter(n -> n > 0).toList();
  }

  private static String countAndSum(Path dataset) {
    return spark.read().format("beton").load(dataset.toString()).selectExpr("count(*)", "sum(id)").first()
        .toString();
  }

  @Test
  void aStreamReadsATableByNameWithTheCatalogsColumnsAndOffsets() throws Exception {
    Path location = tmp.resolve("stream-source");
    spark.range(0, 6, 1, 2).selectExpr("id", "id / 2 as w").write().format("beton").save(location.toString());
    // the catalog's columns: one of the dataset's two, narrower than it; a write option among the table's options
    spark.sql("create table stream_source (id int) using beton options (jpegQuality '80') location '"
        + location.toUri() + "'");
    assertThat(spark.readStream().table("stream_source").schema().simpleString()).isEqualTo("struct<id:int>");

    // a stream of the location first, then the table's from the same checkpoint: only what was appended since
    Path out = tmp.resolve("stream-source-copy");
    Path checkpoint = tmp.resolve("stream-source-checkpoint");
    assertThat(drain(spark.readStream().format("beton").load(location.toString()).select("id"), out, checkpoint))
        .containsExactly(6L);
    spark.range(6, 10, 1, 2).selectExpr("id", "id / 2 as w").write().format("beton").mode("append")
        .save(location.toString());
    assertThat(drain(spark.readStream().table("stream_source").selectExpr("cast(id as bigint) as id"), out,
        checkpoint)).containsExactly(4L);
    assertThat(countAndSum(out)).isEqualTo("[10,45]");

    // a new query of the table, with a read option of its own: one shard a batch
    Path fresh = tmp.resolve("stream-source-fresh");
    Path freshCheckpoint = tmp.resolve("stream-source-fresh-checkpoint");
    assertThat(drain(spark.readStream().option("maxShardsPerTrigger", "1").table("stream_source"), fresh,
        freshCheckpoint)).containsExactly(3L, 3L, 2L, 2L);
    assertThat(countAndSum(fresh)).isEqualTo("[10,45]");
    assertThat(spark.read().format("beton").load(fresh.toString()).schema().simpleString())
        .isEqualTo("struct<id:int>");

    // the dataset replaced under the table's stream: its next run fails, as a stream of the location does
    spark.range(3).selectExpr("id", "id / 2 as w").write().format("beton").mode("overwrite")
        .save(location.toString());
    assertThatThrownBy(() -> drain(spark.readStream().table("stream_source"), fresh, freshCheckpoint))
        .hasStackTraceContaining("was replaced after this stream read it");
    assertThat(countAndSum(fresh)).isEqualTo("[10,45]");
  }

  @Test
  void aStreamOfATableNotYetWrittenStartsWithItsFirstWrite() throws Exception {
    Path empty = Files.createDirectories(tmp.resolve("stream-later"));
    spark.sql("create table stream_later (id int) using beton location '" + empty.toUri() + "'");
    assertThat(spark.readStream().table("stream_later").schema().simpleString()).isEqualTo("struct<id:int>");
    // a run of Trigger.AvailableNow() reads what is there at its start: nothing
    assertThat(drain(spark.readStream().table("stream_later"), tmp.resolve("stream-later-none"),
        tmp.resolve("stream-later-none-checkpoint"))).isEmpty();

    Path out = tmp.resolve("stream-later-copy");
    org.apache.spark.sql.streaming.StreamingQuery query = spark.readStream().option("startingPosition", "latest")
        .table("stream_later").writeStream().format("beton")
        .option("checkpointLocation", tmp.resolve("stream-later-checkpoint").toString())
        .trigger(org.apache.spark.sql.streaming.Trigger.ProcessingTime(100)).start(out.toString());
    try {
      query.processAllAvailable();
      assertThat(Files.exists(out.resolve(DatasetManifest.FILE_NAME))).as("no batch with rows yet").isFalse();
      // the first write is new to the query, latest or not: all of it; then each append
      spark.range(0, 5, 1, 2).selectExpr("id").write().format("beton").save(empty.toString());
      query.processAllAvailable();
      assertThat(countAndSum(out)).isEqualTo("[5,10]");
      spark.sql("insert into stream_later values (100)");
      query.processAllAvailable();
      assertThat(countAndSum(out)).isEqualTo("[6,110]");
    } finally {
      query.stop();
    }
    assertThat(spark.read().format("beton").load(out.toString()).schema().simpleString()).isEqualTo("struct<id:int>");

    // a stream of the location itself needs the dataset there: no columns to read yet
    Path nothing = Files.createDirectories(tmp.resolve("stream-nothing"));
    assertThatThrownBy(() -> spark.readStream().format("beton").load(nothing.toString()))
        .hasMessageContaining("No beton dataset at").hasMessageContaining("stream a table created with its columns");
  }
}
