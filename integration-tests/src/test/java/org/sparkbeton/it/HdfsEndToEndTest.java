package org.sparkbeton.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.ReadOptions;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.io.ByteArraySource;
import org.sparkbeton.format.verify.BetonVerifier;
import org.sparkbeton.spark.prepare.DemoImageFolder;
import org.sparkbeton.spark.prepare.ImageFolderPrepare;
import org.sparkbeton.spark.write.BetonCompaction;

/**
 * The whole path on a real HDFS (MiniDFSCluster, one datanode): images prepared by Spark into
 * {@code hdfs://}, every SaveMode, shards fetched back from HDFS and verified by the format core,
 * and {@code spark.read.format("beton")} over the dataset.
 */
class HdfsEndToEndTest {
  @TempDir static Path tmp;
  static MiniDFSCluster hdfs;
  static SparkSession spark;
  static String root;

  @BeforeAll
  static void setUp() throws Exception {
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, tmp.resolve("hdfs").toString());
    hdfs = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    hdfs.waitActive();
    root = hdfs.getFileSystem().getUri().toString();
    spark = SparkSession.builder().master("local[2]").appName("HdfsEndToEndTest")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1").getOrCreate();
  }

  @AfterAll
  static void tearDown() {
    if (spark != null) {
      spark.stop();
    }
    if (hdfs != null) {
      hdfs.shutdown();
    }
  }

  static DatasetManifest manifest(FileSystem fs, String dir) throws Exception {
    try (InputStream in = fs.open(new org.apache.hadoop.fs.Path(dir, DatasetManifest.FILE_NAME))) {
      return DatasetManifest.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  /** Every listed shard, fetched from HDFS, verifies and holds what the manifest says; no stray part files. */
  static long assertShardsVerify(FileSystem fs, String dir) throws Exception {
    DatasetManifest m = manifest(fs, dir);
    long samples = 0;
    for (ShardEntry s : m.shards()) {
      byte[] bytes;
      try (InputStream in = fs.open(new org.apache.hadoop.fs.Path(dir, s.path()))) {
        bytes = in.readAllBytes();
      }
      assertThat((long) bytes.length).isEqualTo(s.bytes());
      try (BetonReader r = BetonReader.open(new ByteArraySource(s.path(), bytes), ReadOptions.defaults())) {
        assertThat(r.numSamples()).isEqualTo(s.samples());
        assertThat(BetonVerifier.verify(r).problems()).isEmpty();
      }
      samples += s.samples();
    }
    long partFiles = 0;
    for (FileStatus f : fs.listStatus(new org.apache.hadoop.fs.Path(dir))) {
      partFiles += f.getPath().getName().endsWith(".beton") ? 1 : 0;
    }
    assertThat(partFiles).isEqualTo(m.shards().size());
    assertThat(samples).isEqualTo(m.totalSamples());
    return samples;
  }

  @Test
  void imageFolderPreparedIntoHdfsAndReadBack() throws Exception {
    Path shapes = DemoImageFolder.ensure(tmp.resolve("shapes"), 64, 11);
    String out = root + "/datasets/shapes";
    ImageFolderPrepare.Result r = ImageFolderPrepare.run(spark, shapes.toString(), out,
        java.util.Map.of("writeMode", "jpg", "maxResolution", "96", "pageSize", "2M"), 3, false);
    assertThat(r.samples()).isEqualTo(64);
    FileSystem fs = hdfs.getFileSystem();
    assertThat(assertShardsVerify(fs, out)).isEqualTo(64);
    List<Row> perLabel = spark.read().format("beton").load(out).groupBy("label").count().orderBy("label").collectAsList();
    assertThat(perLabel).hasSize(8).allSatisfy(row -> assertThat(row.getLong(1)).isEqualTo(8));
  }

  @Test
  void everySaveModeOnHdfs() throws Exception {
    FileSystem fs = hdfs.getFileSystem();
    String out = root + "/datasets/modes";
    spark.range(0, 300, 1, 3).selectExpr("id", "cast(id % 5 as int) as label").write().format("beton").save(out);
    assertThat(assertShardsVerify(fs, out)).isEqualTo(300);
    assertThatThrownBy(() -> spark.range(3).write().format("beton").save(out)).hasMessageContaining("already exists");
    spark.range(0, 3).selectExpr("id", "cast(id as int) as label").write().format("beton").mode(SaveMode.Ignore).save(out);
    assertThat(assertShardsVerify(fs, out)).isEqualTo(300);
    spark.range(300, 400, 1, 2).selectExpr("id", "cast(id % 5 as int) as label").write().format("beton")
        .mode(SaveMode.Append).save(out);
    assertThat(assertShardsVerify(fs, out)).isEqualTo(400);
    spark.range(7).selectExpr("id", "cast(id as int) as label").write().format("beton").mode(SaveMode.Overwrite).save(out);
    assertThat(assertShardsVerify(fs, out)).isEqualTo(7);
    assertThat(spark.read().format("beton").load(out).selectExpr("sum(id)").first().getLong(0)).isEqualTo(21);
  }

  /**
   * A compaction on HDFS: five shards of three writes merged into one by Spark tasks, the rows in their order; the
   * replaced shards stay (by default), or go at once with {@code keepReplacedFor=0s}.
   */
  @Test
  void compactionOnHdfs() throws Exception {
    FileSystem fs = hdfs.getFileSystem();
    String out = root + "/datasets/compacted";
    spark.range(0, 300, 1, 3).selectExpr("id", "cast(id % 5 as int) as label").write().format("beton").save(out);
    spark.range(300, 400, 1, 2).selectExpr("id", "cast(id % 5 as int) as label").write().format("beton")
        .mode(SaveMode.Append).save(out);
    List<Row> rows = spark.read().format("beton").load(out).collectAsList();

    BetonCompaction.Result r = BetonCompaction.compact(spark, out);
    assertThat(r.shardsBefore()).isEqualTo(5);
    assertThat(r.shardsAfter()).isEqualTo(1);
    assertThat(manifest(fs, out).shards()).singleElement().satisfies(s -> assertThat(s.samples()).isEqualTo(400));
    assertThat(spark.read().format("beton").load(out).collectAsList()).isEqualTo(rows);
    assertThat(fs.listStatus(new org.apache.hadoop.fs.Path(out), p -> p.getName().endsWith(".beton")))
        .as("the replaced shards stay for readers").hasSize(6);

    spark.range(400, 410, 1, 1).selectExpr("id", "cast(id % 5 as int) as label").write().format("beton")
        .mode(SaveMode.Append).save(out);
    BetonCompaction.compact(spark, out, java.util.Map.of("keepReplacedFor", "0s"));
    assertThat(manifest(fs, out).shards()).singleElement().satisfies(s -> assertThat(s.samples()).isEqualTo(410));
    // the first compaction's shards are kept an hour still; this one's went at once
    assertThat(fs.listStatus(new org.apache.hadoop.fs.Path(out), p -> p.getName().endsWith(".beton")))
        .hasSize(6);
    assertThat(spark.read().format("beton").load(out).selectExpr("count(*)", "sum(id)").first().toString())
        .isEqualTo("[410,83845]");
  }
}
