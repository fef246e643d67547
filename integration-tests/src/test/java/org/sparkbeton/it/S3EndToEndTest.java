package org.sparkbeton.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.loader.Batch;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.decoders.BytesDecoder;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.hadoop.HadoopDatasetStoreProvider;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.spark.prepare.DemoImageFolder;
import org.sparkbeton.spark.prepare.ImageFolderPrepare;
import org.sparkbeton.testsupport.S3ProxyServer;

/**
 * The whole path on S3 ({@code s3a://}, hadoop-aws 3.3.4, as users add it) served by S3Proxy in its own process:
 * every SaveMode by path, an ImageFolder prepared from S3 into S3 with a bad image quarantined there, stored
 * bytes identical to the same prepare on local files, and the training loader over the dataset Spark wrote.
 */
class S3EndToEndTest {
  @TempDir static Path tmp;
  static S3ProxyServer s3;
  static SparkSession spark;
  static FileSystem fs;

  @BeforeAll
  static void setUp() throws Exception {
    s3 = S3ProxyServer.start(tmp.resolve("s3"));
    SparkSession.Builder b = SparkSession.builder().master("local[2]").appName("S3EndToEndTest")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1");
    s3.s3aSettings().forEach((k, v) -> b.config("spark.hadoop." + k, v));
    spark = b.getOrCreate();
    fs = FileSystem.get(s3.uri(""), spark.sparkContext().hadoopConfiguration());
  }

  @AfterAll
  static void tearDown() {
    if (spark != null) {
      spark.stop();
    }
    if (s3 != null) {
      s3.close();
    }
  }

  /** Names of every object under {@code dir}, relative to it. */
  static TreeSet<String> objects(String dir) throws Exception {
    TreeSet<String> names = new TreeSet<>();
    String prefix = fs.makeQualified(new org.apache.hadoop.fs.Path(dir)).toString() + "/";
    RemoteIterator<LocatedFileStatus> it = fs.listFiles(new org.apache.hadoop.fs.Path(dir), true);
    while (it.hasNext()) {
      names.add(it.next().getPath().toString().substring(prefix.length()));
    }
    return names;
  }

  /** The dataset's objects are its manifest and the shards it lists, each verified: no lock, no stray part file. */
  static long assertOnlyListedShards(String dir) throws Exception {
    long samples = HdfsEndToEndTest.assertShardsVerify(fs, dir);
    TreeSet<String> expected = new TreeSet<>(List.of(DatasetManifest.FILE_NAME));
    HdfsEndToEndTest.manifest(fs, dir).shards().forEach(s -> expected.add(s.path()));
    assertThat(objects(dir)).isEqualTo(expected);
    return samples;
  }

  @Test
  void everySaveModeOnS3() throws Exception {
    String out = s3.uri("datasets/modes").toString();
    spark.range(0, 300, 1, 3).selectExpr("id", "cast(id % 5 as int) as label", "repeat('x', cast(id % 7 as int)) as s")
        .write().format("beton").save(out);
    assertThat(assertOnlyListedShards(out)).isEqualTo(300);
    Row sums = spark.read().format("beton").load(out).selectExpr("sum(id)", "sum(label)", "sum(length(s))").first();
    assertThat(List.of(sums.getLong(0), sums.getLong(1), sums.getLong(2))).containsExactly(44850L, 600L, 897L);
    assertThatThrownBy(() -> spark.range(3).write().format("beton").save(out)).hasMessageContaining("already exists");
    spark.range(0, 3).selectExpr("id", "cast(id as int) as label", "'' as s").write().format("beton")
        .mode(SaveMode.Ignore).save(out);
    assertThat(assertOnlyListedShards(out)).isEqualTo(300);
    spark.range(300, 400, 1, 2).selectExpr("id", "cast(id % 5 as int) as label", "'y' as s").write().format("beton")
        .mode(SaveMode.Append).save(out);
    assertThat(assertOnlyListedShards(out)).isEqualTo(400);
    spark.range(7).selectExpr("id", "cast(id as int) as label", "'z' as s").write().format("beton")
        .mode(SaveMode.Overwrite).save(out);
    assertThat(assertOnlyListedShards(out)).isEqualTo(7); // the old shards deleted from the bucket
    assertThat(spark.read().format("beton").load(out).selectExpr("sum(id)").first().getLong(0)).isEqualTo(21);
  }

  /**
   * A compaction on S3: four small appends merged into one shard, the rows in their order, and with {@code
   * keepReplacedFor=0s} nothing left in the bucket but the manifest and that shard (no lock, no job marker).
   */
  @Test
  void compactionOnS3() throws Exception {
    String out = s3.uri("datasets/compacted").toString();
    for (int i = 0; i < 4; i++) {
      spark.range(i * 50L, (i + 1) * 50L, 1, 1).selectExpr("id", "cast(id % 5 as int) as label").write()
          .format("beton").mode(SaveMode.Append).save(out);
    }
    List<Row> rows = spark.read().format("beton").load(out).collectAsList();
    org.sparkbeton.spark.write.BetonCompaction.Result r = org.sparkbeton.spark.write.BetonCompaction.compact(spark,
        out, java.util.Map.of("keepReplacedFor", "0s"));
    assertThat(r.shardsBefore()).isEqualTo(4);
    assertThat(r.shardsAfter()).isEqualTo(1);
    assertThat(assertOnlyListedShards(out)).isEqualTo(200);
    assertThat(spark.read().format("beton").load(out).collectAsList()).isEqualTo(rows);
  }

  /**
   * A training run over a dataset on S3 that a compaction merges under it, deleting the shards the loader opened at
   * once ({@code keepReplacedFor=0s}, or a run longer than the default hour): the loader rebuilds each shard from the
   * merged one and reads every sample once, with its own bytes.
   */
  @Test
  void theLoaderGoesOnAcrossACompactionThatDeletesTheShardsItOpened() throws Exception {
    String out = s3.uri("datasets/compacted-under-loader").toString();
    for (int i = 0; i < 4; i++) {
      spark.range(i * 50L, (i + 1) * 50L, 1, 1).selectExpr("id", "cast(repeat(cast(id as string), 40) as binary)"
          + " as blob").write().format("beton").mode(SaveMode.Append).save(out);
    }
    Configuration conf = new Configuration();
    s3.s3aSettings().forEach(conf::set);
    List<Long> ids = new ArrayList<>();
    try (Loader loader = Loader.builder(URI.create(out), new HadoopDatasetStoreProvider(conf))
        .cacheDir(tmp.resolve("loader-cache-compacted")).batchSize(32).dropLast(false).numThreads(2).seed(5)
        .order(OrderOption.RANDOM).pipeline("id", new IntDecoder()).pipeline("blob", new BytesDecoder()).build()) {
      org.sparkbeton.spark.write.BetonCompaction.compact(spark, out, java.util.Map.of("keepReplacedFor", "0s"));
      assertThat(assertOnlyListedShards(out)).as("the shards the loader opened are gone").isEqualTo(200);

      for (Batch b : loader) {
        int row = b.spec("blob").bytes();
        for (int i = 0; i < b.size(); i++) {
          long id = b.data("id").getLong(i * 8);
          byte[] blob = new byte[b.length("blob", i)];
          b.data("blob").get(i * row, blob);
          assertThat(new String(blob, StandardCharsets.UTF_8)).isEqualTo(String.valueOf(id).repeat(40));
          ids.add(id);
        }
      }
    }
    assertThat(ids).hasSize(200).doesNotHaveDuplicates().allMatch(id -> id >= 0 && id < 200);
  }

  @Test
  void anImageFolderOnS3PreparedIntoS3StoresWhatALocalPrepareStores() throws Exception {
    Path shapes = DemoImageFolder.ensure(tmp.resolve("shapes"), 64, 17);
    Path firstClass;
    try (Stream<Path> classes = Files.list(shapes)) {
      firstClass = classes.filter(Files::isDirectory).sorted().findFirst().orElseThrow();
    }
    Path good;
    try (Stream<Path> images = Files.list(firstClass)) {
      good = images.sorted().findFirst().orElseThrow();
    }
    byte[] whole = Files.readAllBytes(good);
    Files.write(firstClass.resolve("zz-cut-short.jpg"), java.util.Arrays.copyOf(whole, whole.length / 2));
    fs.copyFromLocalFile(false, true, new org.apache.hadoop.fs.Path(shapes.toUri()),
        new org.apache.hadoop.fs.Path(s3.uri("input/shapes")));

    Map<String, String> options = Map.of("writeMode", "jpg", "maxResolution", "48", "pageSize", "2M",
        "badImagePolicy", "quarantine");
    String out = s3.uri("datasets/shapes").toString();
    ImageFolderPrepare.Result r = ImageFolderPrepare.run(spark, s3.uri("input/shapes").toString(), out, options, 3,
        false);
    String local = tmp.resolve("local-shapes").toString();
    ImageFolderPrepare.Result l = ImageFolderPrepare.run(spark, shapes.toString(), local, options, 3, false);

    assertThat(r.listed()).isEqualTo(65);
    assertThat(r.samples()).isEqualTo(64);
    assertThat(r.written().quarantined()).isEqualTo(1);
    assertThat(r.samplesPerClass()).isEqualTo(l.samplesPerClass());
    TreeSet<String> files = objects(out);
    String quarantine = files.stream().filter(n -> n.startsWith("_quarantine/")).findFirst().orElseThrow();
    try (var in = fs.open(new org.apache.hadoop.fs.Path(out, quarantine))) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
          .contains(s3.uri("input/shapes/" + firstClass.getFileName() + "/zz-cut-short.jpg").toString());
    }
    files.removeIf(n -> n.startsWith("_quarantine/"));
    assertThat(HdfsEndToEndTest.assertShardsVerify(fs, out)).isEqualTo(64);
    assertThat(files).hasSize(HdfsEndToEndTest.manifest(fs, out).shards().size() + 1);
    // the same images, encoded the same way, whichever file system they came from and went to
    assertThat(storedImages(out)).hasSize(64).isEqualTo(storedImages(local));
  }

  /** Each sample's label and the SHA-256 of its stored JPEG, sorted. */
  static List<String> storedImages(String dataset) {
    List<String> rows = new ArrayList<>();
    for (Row row : spark.read().format("beton").load(dataset).selectExpr("label", "sha2(image, 256)").collectAsList()) {
      rows.add(row.getInt(0) + " " + row.getString(1));
    }
    rows.sort(null);
    return rows;
  }

  @Test
  void theLoaderReadsADatasetSparkWroteToS3() throws Exception {
    String out = s3.uri("datasets/labels").toString();
    spark.range(0, 500, 1, 4).selectExpr("cast(id % 9 as int) as label").write().format("beton").save(out);
    Map<Long, Long> expected = new TreeMap<>();
    for (Row r : spark.read().format("beton").load(out).groupBy("label").count().collectAsList()) {
      expected.put((long) r.getInt(0), r.getLong(1));
    }
    Configuration conf = new Configuration();
    s3.s3aSettings().forEach(conf::set);
    Map<Long, Long> loaded = new TreeMap<>();
    try (Loader loader = Loader.builder(URI.create(out), new HadoopDatasetStoreProvider(conf))
        .cacheDir(tmp.resolve("loader-cache")).batchSize(64).dropLast(false).numThreads(2).seed(5)
        .order(OrderOption.RANDOM).pipeline("label", new IntDecoder()).build()) {
      for (Batch b : loader) {
        ByteBuffer labels = b.data("label");
        for (int i = 0; i < b.size(); i++) {
          loaded.merge(labels.getLong(i * 8), 1L, Long::sum);
        }
      }
    }
    assertThat(expected.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(500);
    assertThat(loaded).isEqualTo(expected);
  }
}
