package org.sparkbeton.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.DataStreamWriter;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.codec.testing.TestPhotos;
import org.sparkbeton.format.dataset.DatasetManifest;

/**
 * SQL on datasets named by their paths through {@link BetonPathCatalog} ({@code spark.sql.catalog.beton}): reads of a
 * dataset, a shard and a glob; {@code INSERT INTO} and {@code INSERT OVERWRITE}; {@code CREATE TABLE ... AS SELECT};
 * {@code DataFrameWriterV2}; {@code saveAsTable}; a streaming query's {@code toTable}; and what the catalog refuses,
 * each with the dataset left as it was.
 */
class BetonPathCatalogTest {
  @TempDir static Path tmp;
  static SparkSession spark;

  @BeforeAll
  static void setUp() {
    spark = SparkSession.builder().master("local[2]").appName("BetonPathCatalogTest")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.catalog.beton", BetonPathCatalog.class.getName())
        .config("spark.sql.catalog.beton.verifyChecksums", "true") // a read option every table of it takes
        .getOrCreate();
  }

  @AfterAll
  static void tearDown() {
    spark.stop();
  }

  private static List<String> rows(String sql) {
    return spark.sql(sql).collectAsList().stream().map(Row::toString).toList();
  }

  private static String table(Path path) {
    return "beton.`" + path + "`";
  }

  private static long samples(Path dataset) throws Exception {
    return DatasetManifest.parse(Files.readString(dataset.resolve(DatasetManifest.FILE_NAME))).totalSamples();
  }

  private static Path scalars(String name, int n) {
    Path dir = tmp.resolve(name);
    spark.range(n).selectExpr("cast(id % 3 as int) as label", "cast(id as double) * 0.5 as weight").write().format("beton")
        .save(dir.toString());
    return dir;
  }

  @Test
  void selectsFromADatasetAShardAndAGlobByPath() throws Exception {
    Path dir = scalars("read", 10);
    assertThat(rows("select label, count(*), sum(weight) from " + table(dir) + " group by label order by label"))
        .containsExactly("[0,4,9.0]", "[1,3,6.0]", "[2,3,7.5]");
    assertThat(rows("select count(*) from " + table(dir) + " where weight > 3")).containsExactly("[3]");
    // the types written (the manifest records label's int); a shard or glob, read without it, has the fields' own
    assertThat(spark.table(table(dir)).schema().simpleString()).isEqualTo("struct<label:int,weight:double>");
    assertThat(spark.table(table(dir.resolve("*.beton"))).schema().simpleString())
        .isEqualTo("struct<label:bigint,weight:double>");

    List<Path> shards;
    try (Stream<Path> files = Files.list(dir)) {
      shards = files.filter(p -> p.toString().endsWith(".beton")).sorted().toList();
    }
    assertThat(shards).hasSize(2);
    long inFirst = spark.read().format("beton").load(shards.get(0).toString()).count();
    assertThat(rows("select count(*) from " + table(shards.get(0)))).containsExactly("[" + inFirst + "]");
    assertThat(rows("select count(*) from " + table(dir.resolve("*.beton")))).containsExactly("[10]");
    // the same catalog, another query: the name resolves again, to the dataset as it is
    assertThat(rows("select max(weight) from " + table(dir))).containsExactly("[4.5]");
  }

  @Test
  void insertIntoAppendsAndInsertOverwriteReplaces() throws Exception {
    Path dir = scalars("insert", 6);
    spark.sql("insert into " + table(dir) + " values (7, 70.0), (8, 80.0)");
    assertThat(samples(dir)).isEqualTo(8);
    assertThat(rows("select label, weight from " + table(dir) + " where label > 2 order by label"))
        .containsExactly("[7,70.0]", "[8,80.0]");

    spark.sql("insert into " + table(dir) + " select label + 10, weight from " + table(dir) + " where label = 0");
    assertThat(rows("select count(*) from " + table(dir) + " where label = 10")).containsExactly("[2]");

    spark.sql("insert overwrite " + table(dir) + " select label, weight * 2 from " + table(dir) + " where label < 3");
    assertThat(samples(dir)).isEqualTo(6);
    assertThat(rows("select sum(weight) from " + table(dir))).containsExactly("[15.0]");
    try (Stream<Path> files = Files.list(dir)) {
      // the replaced dataset's shards are gone: only what the new manifest lists is left
      assertThat(files.filter(p -> p.toString().endsWith(".beton")).count())
          .isEqualTo(DatasetManifest.parse(Files.readString(dir.resolve(DatasetManifest.FILE_NAME))).shards().size());
    }
  }

  @Test
  void createTableAsSelectWritesANewDatasetAndRefusesAnExistingOne() throws Exception {
    Path dir = tmp.resolve("ctas");
    spark.sql("create table " + table(dir) + " as select cast(id as int) as label, id * id as sq from range(5)");
    assertThat(samples(dir)).isEqualTo(5);
    assertThat(rows("select sum(sq) from " + table(dir))).containsExactly("[30]");

    assertThatThrownBy(() -> spark.sql("create table " + table(dir) + " as select 1 as label"))
        .hasMessageContaining("TABLE_OR_VIEW_ALREADY_EXISTS");
    spark.sql("create table if not exists " + table(dir) + " as select 1 as label");
    assertThat(samples(dir)).isEqualTo(5);

    Path options = tmp.resolve("ctas-options");
    spark.sql("create table " + table(options) + " using beton options (pageSize '4M') as select id from range(3)");
    assertThat(DatasetManifest.parse(Files.readString(options.resolve(DatasetManifest.FILE_NAME))).recipe())
        .containsEntry("page_size", Integer.toString(4 << 20));
    assertThatThrownBy(() -> spark.sql("create table " + table(tmp.resolve("pq")) + " using parquet as select 1 as a"))
        .hasMessageContaining("beton datasets only, not USING parquet");
    assertThatThrownBy(() -> spark.sql("create table " + table(tmp.resolve("typo")) + " options (pagesize2 '4M')"
        + " as select 1 as a")).hasMessageContaining("Unknown option 'pagesize2'").hasMessageContaining("pageSize");
    assertThatThrownBy(() -> spark.sql("create table " + table(tmp.resolve("parts")) + " partitioned by (a)"
        + " as select 1 as a")).hasMessageContaining("takes no PARTITIONED BY (a)");
    assertThat(tmp.resolve("pq")).doesNotExist();
    assertThat(tmp.resolve("typo")).doesNotExist();
    assertThat(tmp.resolve("parts")).doesNotExist();
  }

  /**
   * A create with columns and no query writes an empty dataset of them, which inserts then fill; a create whose query
   * fails leaves nothing (its write published nothing); an empty dataset drops, one with samples does not.
   */
  @Test
  void createTableWithColumnsWritesAnEmptyDatasetAndAFailedCreateLeavesNothing() throws Exception {
    Path dir = tmp.resolve("created");
    spark.sql("create table " + table(dir) + " (label bigint, name string)");
    assertThat(samples(dir)).isZero();
    assertThat(rows("select count(*) from " + table(dir))).containsExactly("[0]");
    spark.sql("insert into " + table(dir) + " values (1, 'one'), (2, 'two')");
    assertThat(rows("select * from " + table(dir) + " order by label")).containsExactly("[1,one]", "[2,two]");
    assertThatThrownBy(() -> spark.sql("drop table " + table(dir))).hasMessageContaining("does not delete datasets");

    Path empty = tmp.resolve("created-empty");
    spark.sql("create table " + table(empty) + " (label bigint)");
    assertThat(empty.resolve(DatasetManifest.FILE_NAME)).exists();
    spark.sql("drop table " + table(empty));
    assertThat(empty).doesNotExist();

    Path failed = tmp.resolve("created-failed");
    assertThatThrownBy(() -> spark.sql("create table " + table(failed) + " as select cast(null as int) as label"))
        .hasMessageContaining("null; .beton has no nulls");
    assertThat(failed).doesNotExist();

    // a null inserted into a dataset reaches the write, which names it and applies nullPolicy
    assertThatThrownBy(() -> spark.sql("insert into " + table(dir) + " values (3, null)"))
        .hasMessageContaining("Bad value in column 'name'").hasMessageContaining("nullPolicy=skip");
    spark.sql("select 3L as label, cast(null as string) as name union all select 4L, 'four'").writeTo(table(dir))
        .option("nullPolicy", "skip").append();
    assertThat(rows("select label from " + table(dir) + " order by label")).containsExactly("[1]", "[2]", "[4]");
  }

  @Test
  void dataFrameWriterV2AppendsCreatesAndOverwrites() throws Exception {
    Path dir = tmp.resolve("v2");
    spark.range(4).selectExpr("id as label").writeTo(table(dir)).create();
    spark.range(4, 6).selectExpr("id as label").writeTo(table(dir)).append();
    assertThat(samples(dir)).isEqualTo(6);
    spark.range(2).selectExpr("id + 100 as label").writeTo(table(dir)).overwrite(org.apache.spark.sql.functions.lit(true));
    assertThat(rows("select label from " + table(dir) + " order by label")).containsExactly("[100]", "[101]");
    spark.range(1).selectExpr("id + 7 as label", "'x' as note").writeTo(table(dir)).createOrReplace();
    assertThat(rows("select * from " + table(dir))).containsExactly("[7,x]");
    Path fresh = tmp.resolve("v2-fresh");
    spark.range(2).selectExpr("id as label").writeTo(table(fresh)).createOrReplace();
    assertThat(samples(fresh)).isEqualTo(2);
  }

  /**
   * A replace writes the new rows, with their columns, in place of the dataset when its write publishes: a query that
   * fails leaves the dataset as it was; a replace without a query leaves an empty dataset of the columns given.
   */
  @Test
  void createOrReplaceAndReplaceSwapTheDatasetWhenTheirWritePublishes() throws Exception {
    Path dir = scalars("replaced", 6);
    spark.sql("create or replace table " + table(dir) + " as select concat('n', id) as name from range(4)");
    assertThat(rows("select * from " + table(dir) + " order by name")).containsExactly("[n0]", "[n1]", "[n2]", "[n3]");
    try (Stream<Path> files = Files.list(dir)) {
      // the replaced dataset's shards are gone: only what the new manifest lists is left
      assertThat(files.filter(p -> p.toString().endsWith(".beton")).count())
          .isEqualTo(DatasetManifest.parse(Files.readString(dir.resolve(DatasetManifest.FILE_NAME))).shards().size());
    }

    assertThatThrownBy(() -> spark.sql("replace table " + table(dir) + " as select cast(null as int) as label"))
        .hasMessageContaining("null; .beton has no nulls");
    assertThat(rows("select count(*) from " + table(dir))).containsExactly("[4]");

    spark.sql("replace table " + table(dir) + " (label int, weight double) using beton");
    assertThat(samples(dir)).isZero();
    assertThat(spark.table(table(dir)).schema().simpleString()).isEqualTo("struct<label:int,weight:double>");

    Path missing = tmp.resolve("replaced-missing");
    assertThatThrownBy(() -> spark.sql("replace table " + table(missing) + " as select 1 as a"))
        .hasMessageContaining("TABLE_OR_VIEW_NOT_FOUND");
    assertThat(missing).doesNotExist();
    assertThatThrownBy(() -> spark.sql("create or replace table " + table(dir) + " partitioned by (a) as select 1 as a"))
        .hasMessageContaining("takes no PARTITIONED BY (a)");
    assertThat(samples(dir)).isZero();
  }

  @Test
  void saveAsTableCreatesAppendsAndOverwritesInEveryMode() throws Exception {
    Path dir = tmp.resolve("saved");
    Dataset<Row> three = spark.range(3).selectExpr("id as label");
    three.write().format("beton").saveAsTable(table(dir));
    assertThat(samples(dir)).isEqualTo(3);
    assertThatThrownBy(() -> three.write().format("beton").saveAsTable(table(dir)))
        .hasMessageContaining("TABLE_OR_VIEW_ALREADY_EXISTS");
    three.write().format("beton").mode("ignore").saveAsTable(table(dir));
    assertThat(samples(dir)).isEqualTo(3);
    three.write().format("beton").mode("append").saveAsTable(table(dir));
    three.write().insertInto(table(dir));
    assertThat(samples(dir)).isEqualTo(9);
    assertThat(rows("select label, count(*) from " + table(dir) + " group by label order by label"))
        .containsExactly("[0,3]", "[1,3]", "[2,3]");
    spark.range(5).selectExpr("cast(id as int) as label").write().format("beton").mode("overwrite")
        .saveAsTable(table(dir));
    assertThat(samples(dir)).isEqualTo(5);
    assertThat(spark.table(table(dir)).schema().simpleString()).isEqualTo("struct<label:int>");

    Path unformatted = tmp.resolve("saved-as-parquet");
    assertThatThrownBy(() -> three.write().saveAsTable(table(unformatted)))
        .hasMessageContaining("not USING parquet").hasMessageContaining(".format(\"beton\")");
    assertThat(unformatted).doesNotExist();
  }

  /** A JSON file of rows {@code first..first+n-1} (label = value % 3, weight = value / 2) of a stream's input. */
  private static void input(Path dir, String name, int first, int n) throws Exception {
    Files.createDirectories(dir);
    StringBuilder lines = new StringBuilder();
    for (int i = first; i < first + n; i++) {
      lines.append("{\"label\": ").append(i % 3).append(", \"weight\": ").append(i / 2.0).append("}\n");
    }
    Files.move(Files.writeString(dir.resolve("." + name + ".tmp"), lines), dir.resolve(name));
  }

  /** Runs a stream to the end of its input into the table {@code name}. */
  private static void drainInto(DataStreamWriter<Row> writer, String name) throws Exception {
    StreamingQuery query = writer.trigger(Trigger.AvailableNow()).toTable(name);
    assertThat(query.awaitTermination(120_000)).as("the stream ran to the end of its input").isTrue();
  }

  /**
   * A stream of image paths into a new path table: Spark creates the table before the stream's first batch and
   * hands the create none of the stream's options, so the empty dataset stored the image column as JSON, and every
   * batch (with imageColumns) was refused as an append of other fields, on every restart.
   */
  @Test
  void aStreamOfImagesCreatesItsPathTable() throws Exception {
    Path in = tmp.resolve("image-stream-in");
    Files.createDirectories(in);
    StringBuilder lines = new StringBuilder();
    int label = 0;
    for (Path photo : org.sparkbeton.codec.testing.TestPhotos.writeFlat(tmp.resolve("image-stream-photos"), 4, 5)) {
      lines.append("{\"image\": \"").append(photo).append("\", \"label\": ").append(label++).append("}\n");
    }
    Files.move(Files.writeString(in.resolve(".a.tmp"), lines), in.resolve("a.json"));
    Path dir = tmp.resolve("image-stream");
    drainInto(spark.readStream().schema("image STRING, label INT").json(in.toString()).writeStream().format("beton")
        .option("imageColumns", "image").option("maxResolution", "64")
        .option("checkpointLocation", tmp.resolve("image-stream-checkpoint").toString()), table(dir));
    DatasetManifest written = DatasetManifest.parse(Files.readString(dir.resolve(DatasetManifest.FILE_NAME)));
    assertThat(written.totalSamples()).isEqualTo(4);
    assertThat(written.fields().get(0).typeId()).isEqualTo(org.sparkbeton.format.FieldTypes.RGB_IMAGE);
  }

  @Test
  void streamsIntoAndOutOfAPathTableOnceAcrossARestart() throws Exception {
    Path in = tmp.resolve("stream-in");
    input(in, "a.json", 0, 4);
    input(in, "b.json", 4, 2);
    Dataset<Row> stream = spark.readStream().schema("label BIGINT, weight DOUBLE").option("maxFilesPerTrigger", "1")
        .json(in.toString());
    Path dir = scalars("streamed", 3);
    Path checkpoint = tmp.resolve("stream-checkpoint");
    drainInto(stream.writeStream().format("beton").option("checkpointLocation", checkpoint.toString()),
        table(dir));
    assertThat(rows("select count(*), sum(weight) from " + table(dir))).containsExactly("[9,9.0]");

    // the checkpoint loses batch 1's commit: Spark runs it again, and the dataset, which has it, takes nothing
    Files.delete(checkpoint.resolve("commits").resolve("1"));
    Files.deleteIfExists(checkpoint.resolve("commits").resolve(".1.crc"));
    drainInto(stream.writeStream().format("beton").option("checkpointLocation", checkpoint.toString()),
        table(dir));
    assertThat(samples(dir)).isEqualTo(9);

    // a new path: the stream creates the dataset; Complete mode replaces it with each batch
    Path counts = tmp.resolve("stream-counts");
    drainInto(stream.groupBy("label").count().writeStream().format("beton").outputMode("complete")
        .option("checkpointLocation", tmp.resolve("counts-checkpoint").toString()), table(counts));
    assertThat(rows("select label, `count` from " + table(counts) + " order by label"))
        .containsExactly("[0,2]", "[1,2]", "[2,2]");
    assertThat(samples(counts)).isEqualTo(3);

    // a path table read as a stream: what it holds, then its appends
    Path copy = tmp.resolve("stream-copy");
    drainInto(spark.readStream().table(table(dir)).writeStream().format("beton")
        .option("checkpointLocation", tmp.resolve("copy-checkpoint").toString()), table(copy));
    assertThat(rows("select count(*), sum(weight) from " + table(copy))).containsExactly("[9,9.0]");

    assertThatThrownBy(() -> drainInto(stream.writeStream().format("beton").option("pageSise", "4M")
        .option("checkpointLocation", tmp.resolve("refused-checkpoint").toString()), table(dir)))
        .hasStackTraceContaining("Unknown option 'pageSise'").hasStackTraceContaining("pageSize");
    Path unformatted = tmp.resolve("stream-unformatted");
    assertThatThrownBy(() -> drainInto(stream.writeStream()
        .option("checkpointLocation", tmp.resolve("refused-checkpoint-2").toString()), table(unformatted)))
        .hasMessageContaining("not USING parquet");
    assertThat(unformatted).doesNotExist();
    assertThat(samples(dir)).isEqualTo(9);
  }

  @Test
  void imagesStayImagesThroughInsertAndCreate() throws Exception {
    List<Row> photos = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      photos.add(RowFactory.create(TestPhotos.photo(7, i), i % 2));
    }
    StructType schema = new StructType().add("image", DataTypes.BinaryType).add("label", DataTypes.IntegerType);
    spark.createDataFrame(photos, schema).createOrReplaceTempView("path_catalog_photos");
    Path dir = tmp.resolve("images");
    spark.table("path_catalog_photos").where("label = 0").write().format("beton").option("imageColumns", "image")
        .option("writeMode", "jpg").option("maxResolution", "48").save(dir.toString());
    List<String> stored = rows("select sha2(image, 256) from " + table(dir));

    // new photos take the dataset's recipe (48 px); the values given for the columns reads add are not stored
    spark.sql("insert into " + table(dir) + " select image, 0, 0, '', label from path_catalog_photos where label = 1");
    assertThat(rows("select label, count(*), max(greatest(image_width, image_height)), min(image_mode) from "
        + table(dir) + " group by label order by label")).containsExactly("[0,2,48,jpg]", "[1,2,48,jpg]");

    // a copy by CREATE ... AS SELECT stores the read's images as images, the JPEGs as they were
    Path copy = tmp.resolve("images-copy");
    spark.sql("create table " + table(copy) + " as select * from " + table(dir));
    assertThat(rows("select sha2(image, 256) from " + table(copy) + " where label = 0")).containsExactlyInAnyOrderElementsOf(stored);
    assertThat(rows("select count(*), min(image_mode) from " + table(copy))).containsExactly("[4,jpg]");
  }

  @Test
  void refusesWhatAPathCannotBeAndLeavesTheDatasetAsItWas() throws Exception {
    Path dir = scalars("refused", 3);
    Path missing = tmp.resolve("missing");
    assertThatThrownBy(() -> spark.sql("select * from " + table(missing)).collect())
        .hasMessageContaining("Path does not exist: " + missing)
        .hasMessageContaining("CREATE TABLE " + table(missing) + " AS SELECT");
    assertThatThrownBy(() -> spark.sql("insert into " + table(missing) + " values (1, 1.0)"))
        .hasMessageContaining("TABLE_OR_VIEW_NOT_FOUND").hasMessageContaining(missing.toString());
    assertThat(missing).doesNotExist();

    assertThatThrownBy(() -> spark.sql("drop table " + table(dir))).hasMessageContaining("does not delete datasets");
    assertThatThrownBy(() -> spark.sql("alter table " + table(dir) + " add columns (x int)"))
        .hasMessageContaining("cannot alter");
    assertThatThrownBy(() -> spark.sql("select * from beton.data.photos").collect())
        .hasMessageContaining("a dataset's path in back-ticks").hasMessageContaining("got beton.data.photos");
    assertThatThrownBy(() -> spark.sql("insert into " + table(dir) + " values (1, 2.0, 3)"))
        .hasMessageContaining("too many data columns");
    assertThat(samples(dir)).isEqualTo(3);
    assertThat(rows("select count(*) from " + table(dir))).containsExactly("[3]");
  }

  @Test
  void catalogOptionsAreCheckedByName() {
    BetonPathCatalog catalog = new BetonPathCatalog();
    assertThatThrownBy(() -> catalog.initialize("b", new org.apache.spark.sql.util.CaseInsensitiveStringMap(
        java.util.Map.of("verifyChecksum", "false")))).hasMessageContaining("Unknown option 'verifyChecksum'")
        .hasMessageContaining("did you mean 'verifyChecksums'");
    assertThatThrownBy(() -> catalog.initialize("b", new org.apache.spark.sql.util.CaseInsensitiveStringMap(
        java.util.Map.of("path", "/data")))).hasMessageContaining("takes no path of its own");
    catalog.initialize("b", new org.apache.spark.sql.util.CaseInsensitiveStringMap(
        java.util.Map.of("jpegQuality", "80", "fs.s3a.endpoint", "http://127.0.0.1:1")));
    assertThat(catalog.name()).isEqualTo("b");
  }
}
