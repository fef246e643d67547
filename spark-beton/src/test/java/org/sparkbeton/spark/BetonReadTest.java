package org.sparkbeton.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.FieldCodec;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.spark.read.BetonMetrics;
import org.sparkbeton.spark.read.testing.TestDatasets;
import scala.collection.JavaConverters;
import scala.collection.Seq;

/** {@code spark.read.format("beton")} on datasets, files and globs written with the core writer. */
class BetonReadTest {
  @TempDir static Path tmp;
  static SparkSession spark;
  static Path dataset;

  @BeforeAll
  static void setUp() {
    spark = SparkTests.session("BetonReadTest");
    dataset = tmp.resolve("every");
    TestDatasets.writeDataset(dataset, TestDatasets.EVERY_FIELD, List.of(TestDatasets.everyFieldSamples(0, 9),
        TestDatasets.everyFieldSamples(9, 10), TestDatasets.everyFieldSamples(10, 10),
        TestDatasets.everyFieldSamples(10, 25)));
  }

  @AfterAll
  static void tearDown() {
    spark.stop();
  }

  /** Rows equal to the samples written, for every field type. */
  static void assertEveryFieldRows(List<Row> rows, int from) {
    for (int k = 0; k < rows.size(); k++) {
      Object[] want = TestDatasets.everyFieldSample(from + k);
      Row row = rows.get(k);
      RgbImage image = (RgbImage) want[0];
      assertThat((byte[]) row.getAs("image")).isEqualTo(image.payloadBytes());
      assertThat(row.<Integer>getAs("image_width")).isEqualTo(image.width());
      assertThat(row.<Integer>getAs("image_height")).isEqualTo(image.height());
      assertThat(row.<String>getAs("image_mode")).isEqualTo("raw");
      assertThat(row.<Long>getAs("label")).isEqualTo(want[1]);
      assertThat(row.<Double>getAs("weight")).isEqualTo(want[2]);
      assertThat((byte[]) row.getAs("bytes")).isEqualTo(want[3]);
      assertThat(row.<String>getAs("json")).isEqualTo(want[4]);
      List<Object> arr = JavaConverters.seqAsJavaList(row.<Seq<Object>>getAs("arr"));
      float[] wantArr = (float[]) want[5];
      assertThat(arr).hasSize(wantArr.length);
      for (int i = 0; i < wantArr.length; i++) {
        assertThat((Float) arr.get(i)).isEqualTo(wantArr[i]);
      }
      List<Object> tensor = JavaConverters.seqAsJavaList(row.<Seq<Object>>getAs("tensor"));
      short[] wantTensor = (short[]) want[6];
      for (int i = 0; i < wantTensor.length; i++) {
        assertThat((Short) tensor.get(i)).isEqualTo(wantTensor[i]);
      }
    }
  }

  @Test
  void datasetRoundTripsEveryFieldType() {
    Dataset<Row> df = spark.read().format("beton").load(dataset.toString());
    assertThat(df.schema().fieldNames()).containsExactly("image", "image_width", "image_height", "image_mode", "label",
        "weight", "bytes", "json", "arr", "tensor");
    assertThat(df.schema().apply("arr").dataType()).isEqualTo(DataTypes.createArrayType(DataTypes.FloatType, false));
    List<Row> rows = df.collectAsList();
    assertThat(rows).hasSize(25);
    assertEveryFieldRows(rows, 0);
  }

  @Test
  void shardsNotInTheManifestAreIgnored() throws Exception {
    Path copy = Files.createDirectories(tmp.resolve("with-orphans"));
    try (var files = Files.list(dataset)) {
      for (Path p : files.toList()) {
        Files.copy(p, copy.resolve(p.getFileName()));
      }
    }
    TestDatasets.writeFile(copy.resolve("part-00003-attempt-2.beton"), TestDatasets.EVERY_FIELD,
        TestDatasets.everyFieldSamples(100, 130));
    Files.write(copy.resolve("part-00004-attempt-1.beton"), new byte[] {1, 2, 3}); // a killed attempt's stub
    Dataset<Row> df = spark.read().format("beton").load(copy.toString());
    assertThat(df.count()).isEqualTo(25);
    assertThat(df.selectExpr("max(label)").first().getLong(0)).isEqualTo(9);
  }

  @Test
  void globsAndSingleFilesReadWithSampleRangeSplits() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("files"));
    TestDatasets.writeFile(dir.resolve("a.beton"), TestDatasets.EVERY_FIELD, TestDatasets.everyFieldSamples(0, 10));
    TestDatasets.writeFile(dir.resolve("b.beton"), TestDatasets.EVERY_FIELD, TestDatasets.everyFieldSamples(10, 33));
    Dataset<Row> glob = spark.read().format("beton").option("maxSamplesPerPartition", "4").load(dir + "/*.beton");
    assertThat(glob.javaRDD().getNumPartitions()).isEqualTo(3 + 6);
    List<Row> rows = glob.collectAsList();
    assertThat(rows).hasSize(33);
    assertEveryFieldRows(rows, 0);
    Dataset<Row> one = spark.read().format("beton").option("maxSamplesPerPartition", "5")
        .load(dir.resolve("b.beton").toString());
    assertThat(one.javaRDD().getNumPartitions()).isEqualTo(5);
    assertEveryFieldRows(one.collectAsList(), 10);
    long bytes = Files.size(dir.resolve("b.beton"));
    Dataset<Row> byBytes = spark.read().format("beton").option("maxPartitionBytes", Long.toString(bytes / 3))
        .load(dir.resolve("b.beton").toString());
    assertThat(byBytes.javaRDD().getNumPartitions()).as("a %d-byte file in splits of about a third", bytes).isGreaterThan(1);
    assertThat(byBytes.count()).isEqualTo(23);
  }

  @Test
  void corruptShardFailsWithTheFormatMessageOrIsSkippedAndCounted() throws Exception {
    Path bad = tmp.resolve("corrupt");
    TestDatasets.writeDataset(bad, TestDatasets.EVERY_FIELD, List.of(TestDatasets.everyFieldSamples(0, 5),
        TestDatasets.everyFieldSamples(5, 10), TestDatasets.everyFieldSamples(10, 15)));
    Path shard = bad.resolve("part-00001.beton");
    long allocPtr;
    try (BetonReader r = BetonReader.open(shard)) {
      allocPtr = r.header().allocTablePtr();
    }
    try (RandomAccessFile f = new RandomAccessFile(shard.toFile(), "rw")) {
      f.seek(allocPtr + 8); // first allocation entry's pointer
      f.write(ByteBuffer.allocate(8).putLong(Long.MAX_VALUE / 2).array());
    }
    // the manifest's page checksums catch it first, naming the page and the region
    assertThatThrownBy(() -> spark.read().format("beton").load(bad.toString()).collectAsList())
        .hasStackTraceContaining("part-00001.beton: page 0 (allocation table region, bytes [" + allocPtr + ", ")
        .hasStackTraceContaining("CRC32C is ");
    // unchecked, the format core's own checks still refuse the pointer
    assertThatThrownBy(() -> spark.read().format("beton").option("verifyChecksums", "false").load(bad.toString())
        .collectAsList())
        .hasStackTraceContaining("part-00001.beton: allocation table entry 0 at offset " + (allocPtr + 8))
        .hasStackTraceContaining("outside the data region");

    Dataset<Row> lenient = spark.read().format("beton").option("ignoreCorruptFiles", "true").load(bad.toString())
        .select("label", "image");
    assertThat(lenient.collectAsList()).hasSize(10);
    assertThat(SparkTests.metric(lenient, BetonMetrics.CORRUPT_SHARDS_SKIPPED)).isEqualTo(1);

    // a truncated shard is caught before any read, by the manifest's byte count
    Path cut = tmp.resolve("truncated");
    TestDatasets.writeDataset(cut, TestDatasets.EVERY_FIELD, List.of(TestDatasets.everyFieldSamples(0, 5)));
    try (RandomAccessFile f = new RandomAccessFile(cut.resolve("part-00000.beton").toFile(), "rw")) {
      f.setLength(f.length() - 24);
    }
    assertThatThrownBy(() -> spark.read().format("beton").load(cut.toString()).selectExpr("sum(label)").collectAsList())
        .hasStackTraceContaining("part-00000.beton: file at offset")
        .hasStackTraceContaining("but the manifest says");
  }

  @Test
  void aMissingShardFailsNamingItOrIsSkippedAsMissing() throws Exception {
    Path gone = tmp.resolve("missing-shard");
    TestDatasets.writeDataset(gone, TestDatasets.EVERY_FIELD, List.of(TestDatasets.everyFieldSamples(0, 4),
        TestDatasets.everyFieldSamples(4, 10)));
    Files.delete(gone.resolve("part-00000.beton"));
    assertThatThrownBy(() -> spark.read().format("beton").load(gone.toString()).select("label").collectAsList())
        .hasStackTraceContaining("part-00000.beton does not exist");
    // not damage: ignoreCorruptFiles does not hide it (as in Spark's file sources)
    assertThatThrownBy(() -> spark.read().format("beton").option("ignoreCorruptFiles", "true").load(gone.toString())
        .select("label").collectAsList()).hasStackTraceContaining("part-00000.beton does not exist");
    Dataset<Row> lenient = spark.read().format("beton").option("ignoreMissingFiles", "true").load(gone.toString())
        .select("label");
    assertThat(lenient.collectAsList()).extracting(r -> r.getLong(0)).containsExactly(4L, 5L, 6L, 7L, 8L, 9L);
    assertThat(SparkTests.metric(lenient, BetonMetrics.MISSING_SHARDS_SKIPPED)).isEqualTo(1);
    assertThat(SparkTests.metric(lenient, BetonMetrics.CORRUPT_SHARDS_SKIPPED)).isZero();
  }

  /**
   * A DataFrame keeps the table of its load(), and a notebook re-runs the cell that writes the dataset: its next
   * query reads the dataset as it is then (an overwrite deleted the shards the old manifest listed).
   */
  @Test
  void anOldDataFrameReadsTheDatasetAsItIsNow() {
    String path = tmp.resolve("rewritten").toString();
    spark.range(0, 1000, 1, 4).selectExpr("id", "cast(id % 7 as int) as label").write().format("beton").save(path);
    Dataset<Row> df = spark.read().format("beton").load(path);
    assertThat(df.count()).isEqualTo(1000);
    assertThat(df.selectExpr("sum(id)").first().getLong(0)).isEqualTo(499_500L);

    spark.range(0, 500, 1, 3).selectExpr("id", "cast(id % 7 as int) as label").write().format("beton")
        .mode("overwrite").save(path);
    assertThat(df.count()).isEqualTo(500);                      // from the manifest, on the driver
    assertThat(df.selectExpr("sum(id)").first().getLong(0)).isEqualTo(124_750L);   // a scan of the shards
    assertThat(df.groupBy("label").count().where("label = 0").first().getLong(1)).isEqualTo(72);

    spark.range(500, 600, 1, 1).selectExpr("id", "cast(id % 7 as int) as label").write().format("beton")
        .mode("append").save(path);
    assertThat(df.count()).isEqualTo(600);
    assertThat(df.selectExpr("max(id)").first().getLong(0)).isEqualTo(599);

    // other fields: the columns resolved at load() are gone, and the query says so
    spark.range(0, 10, 1, 1).selectExpr("id", "cast(id as double) as weight").write().format("beton")
        .mode("overwrite").save(path);
    assertThatThrownBy(() -> df.selectExpr("sum(id)").first())
        .hasMessageStartingWith("The dataset file:" + path + " changed after this DataFrame was loaded: its fields"
            + " are now [id: Int, weight: Float], they were [id: Int, label: Int] at load(). Load it again");
    assertThat(spark.read().format("beton").load(path).selectExpr("sum(weight)").first().getDouble(0)).isEqualTo(45.0);
  }

  @Test
  void customFieldsComeBackAsRawMetadataBytes() {
    FieldCodec custom = new FieldCodec() {
      @Override public int typeId() { return FieldTypes.CUSTOM; }
      @Override public int metadataSize() { return 3; }
      @Override public int metadataAlignment() { return 1; }
      @Override public byte[] arguments() { return new byte[0]; }
      @Override public int[] pointerOffsets() { return new int[0]; }
      @Override public void encode(Object value, ByteBuffer record, int offset, EncodeContext ctx) {
        record.put(offset, (byte[]) value);
      }
      @Override public Object decode(ByteBuffer record, int offset, PayloadReader payloads) {
        throw new UnsupportedOperationException();
      }
    };
    List<BetonField> fields = List.of(new BetonField("rgb", custom), new BetonField("label", IntField.INSTANCE));
    List<Object[]> samples = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      samples.add(new Object[] {new byte[] {(byte) i, 2, 3}, (long) i});
    }
    Path file = TestDatasets.writeFile(tmp.resolve("custom.beton"), fields, samples);
    assertThatThrownBy(() -> spark.read().format("beton").load(file.toString()))
        .hasMessageContaining("'rgb'").hasMessageContaining("customFieldLayout=rgb:<size>:<alignment>");
    List<Row> rows = spark.read().format("beton").option("customFieldLayout", "rgb:3:1").load(file.toString())
        .collectAsList();
    assertThat(rows).hasSize(6);
    assertThat((byte[]) rows.get(4).getAs("rgb")).containsExactly(4, 2, 3);
    assertThat(rows.get(4).<Long>getAs("label")).isEqualTo(4L);
  }

  @Test
  void aDatasetWithNoShardsIsEmptyButHasItsSchema() {
    Path empty = tmp.resolve("no-shards");
    TestDatasets.writeDataset(empty, TestDatasets.EVERY_FIELD, List.of());
    Dataset<Row> df = spark.read().format("beton").load(empty.toString());
    assertThat(df.schema().fieldNames()).contains("label", "arr");
    assertThat(df.collectAsList()).isEmpty();
    assertThat(df.count()).isZero();
    assertThat(df.groupBy("label").count().collectAsList()).isEmpty();
  }

  /** A schema given to the read must be the dataset's: a different one would be silently ignored. */
  @Test
  void aGivenSchemaOtherThanTheDatasetsIsRefused() {
    Dataset<Row> df = spark.read().format("beton").load(dataset.toString());
    assertThat(spark.read().format("beton").schema(df.schema()).load(dataset.toString()).count()).isEqualTo(25);
    // at load(), as a read without a schema fails: not an empty schema first and the reason at the first query
    assertThatThrownBy(() -> spark.read().format("beton").schema("label bigint, caption string")
        .load(dataset.toString()))
        .hasMessageContaining("The schema given to spark.read().schema(...) is not the one of " + dataset
            + ": struct<label:bigint,caption:string> against struct<image:binary,")
        .hasMessageEndingWith("format(\"beton\") reads the schema the dataset records: leave out .schema(...) and"
            + " select() the columns you want");
  }

  /** Spark's input_file_name() names the shard each row came from. */
  @Test
  void inputFileNameIsTheRowsShard() {
    List<String> perShard = spark.read().format("beton").load(dataset.toString())
        .groupBy(org.apache.spark.sql.functions.input_file_name().as("f")).count().orderBy("f").collectAsList()
        .stream().map(r -> r.getString(0).replace("file://", "file:").replace("file:" + dataset + "/", "") + "="
            + r.getLong(1)).toList();
    assertThat(perShard).containsExactly("part-00000.beton=9", "part-00001.beton=1", "part-00003.beton=15");
  }

  /** load(a, b) and a glob of dataset directories: each read through its manifest, as one table. */
  @Test
  void severalDatasetsReadAsOne() throws Exception {
    Path parts = Files.createDirectories(tmp.resolve("parts"));
    TestDatasets.writeDataset(parts.resolve("train-0"), TestDatasets.EVERY_FIELD,
        List.of(TestDatasets.everyFieldSamples(100, 104)));
    TestDatasets.writeDataset(parts.resolve("train-1"), TestDatasets.EVERY_FIELD,
        List.of(TestDatasets.everyFieldSamples(104, 106), TestDatasets.everyFieldSamples(106, 107)));
    Files.copy(dataset.resolve("part-00000.beton"), parts.resolve("train-1").resolve("orphan.beton")); // not listed

    Dataset<Row> both = spark.read().format("beton").load(parts.resolve("train-0").toString(),
        parts.resolve("train-1").toString());
    // sample i has weight i / 4 and label i % 10
    assertThat(both.selectExpr("min(weight) * 4", "max(weight) * 4", "count(*)").first().toString())
        .isEqualTo("[100.0,106.0,7]");
    assertThat(both.where("weight >= 26").count()).isEqualTo(3);
    Dataset<Row> globbed = spark.read().format("beton").load(parts + "/train-*");
    assertThat(globbed.groupBy().sum("label").first().getLong(0)).isEqualTo(0 + 1 + 2 + 3 + 4 + 5 + 6);
    Dataset<Row> withEvery = spark.read().format("beton").load(parts.resolve("train-0").toString(), dataset.toString());
    assertThat(withEvery.count()).isEqualTo(4 + 25);
  }

  @Test
  void badPathsAndOptionsAreExplained() throws Exception {
    assertThatThrownBy(() -> spark.read().format("beton").load(tmp.resolve("nope").toString()))
        .hasMessageContaining("Path does not exist");
    Path empty = Files.createDirectories(tmp.resolve("no-manifest"));
    Files.copy(dataset.resolve("part-00000.beton"), empty.resolve("part-00000.beton"), StandardCopyOption.REPLACE_EXISTING);
    assertThatThrownBy(() -> spark.read().format("beton").load(empty.toString()))
        .hasMessageContaining("has no _manifest.json");
    assertThat(spark.read().format("beton").load(empty + "/*.beton").count()).isEqualTo(9);
    // a glob's directories are datasets: one without a manifest is named
    assertThatThrownBy(() -> spark.read().format("beton").load(tmp + "/no-*"))
        .hasMessageContaining(empty + " has no _manifest.json");
    assertThatThrownBy(() -> spark.read().format("beton").load(dataset.resolve("_manifest.json").toString()))
        .hasMessage("file:" + dataset.resolve("_manifest.json") + " is the manifest of a dataset: load its directory,"
            + " file:" + dataset);
    assertThatThrownBy(() -> spark.read().format("beton").option("imageMode", "png").load(dataset.toString()))
        .hasMessageContaining("imageMode must be binary, image or raw");
  }
}
