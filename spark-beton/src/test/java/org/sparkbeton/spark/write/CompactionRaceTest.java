package org.sparkbeton.spark.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.ShardCompaction;

/**
 * A compaction whose planned shards are gone when its tasks read them: merged by another compaction that kept them
 * for no time (two compactions started together; the second died with a NoSuchFileException and Spark's stack
 * trace), the run is left as it is; deleted by hand while the manifest lists them, the dataset is refused as damaged.
 */
class CompactionRaceTest {
  @TempDir static Path tmp;
  static SparkSession spark;

  @BeforeAll
  static void setUp() {
    spark = SparkSession.builder().master("local[2]").appName("CompactionRaceTest").config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1").getOrCreate();
  }

  @AfterAll
  static void tearDown() {
    spark.stop();
  }

  /** Six appends of 20 rows, one shard each. */
  static Path smallShards(String name) {
    Path dir = tmp.resolve(name);
    for (int i = 0; i < 6; i++) {
      spark.range(i * 20L, (i + 1) * 20L, 1, 1).selectExpr("id", "cast(id % 5 as int) as label").write()
          .format("beton").mode("append").save(dir.toString());
    }
    return dir;
  }

  static DatasetManifest manifest(Path dir) throws Exception {
    return DatasetManifest.parse(Files.readString(dir.resolve(DatasetManifest.FILE_NAME)));
  }

  static List<String> files(Path dir) throws Exception {
    try (Stream<Path> f = Files.list(dir)) {
      return f.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".beton") || n.startsWith("_job-"))
          .sorted().toList();
    }
  }

  @Test
  void aRunMergedByAnotherCompactionMeanwhileIsLeftAsItIs() throws Exception {
    Path dir = smallShards("race");
    DatasetManifest planned = manifest(dir);
    List<ShardCompaction.Group> groups = ShardCompaction.plan(planned.shards(), 128L << 20);
    assertThat(groups).hasSize(1);
    // the other compaction, started at the same time, publishes first and keeps the replaced shards for no time
    BetonCompaction.Result first = BetonCompaction.compact(spark, dir.toString(), Map.of("keepReplacedFor", "0s"));
    assertThat(first.shardsAfter()).isEqualTo(1);
    String published = Files.readString(dir.resolve(DatasetManifest.FILE_NAME));
    List<String> after = files(dir);

    BetonCompaction.Result second = BetonCompaction.mergeAndPublish(spark, dir.toString(), planned, groups, 0,
        10_000, new Configuration());
    assertThat(second.groupsMerged()).isZero();
    assertThat(second.groupsLeftAsTheyWere()).isEqualTo(1);
    assertThat(Files.readString(dir.resolve(DatasetManifest.FILE_NAME))).isEqualTo(published);
    assertThat(files(dir)).isEqualTo(after);
    assertThat(spark.read().format("beton").load(dir.toString()).selectExpr("count(*)", "sum(id)").first().toString())
        .isEqualTo("[120,7140]");
  }

  @Test
  void aShardDeletedByHandThatTheManifestListsIsRefused() throws Exception {
    Path dir = smallShards("damaged");
    String gone = manifest(dir).shards().get(2).path();
    Files.delete(dir.resolve(gone));
    String published = Files.readString(dir.resolve(DatasetManifest.FILE_NAME));

    assertThatThrownBy(() -> BetonCompaction.compact(spark, dir.toString()))
        .hasMessage("Cannot compact " + dir + ": its shard " + gone + ", which its manifest lists, is missing"
            + " (deleted by hand, or lost); nothing was merged. beton verify " + dir + " lists every missing shard");
    assertThat(Files.readString(dir.resolve(DatasetManifest.FILE_NAME))).isEqualTo(published);
    assertThat(files(dir)).hasSize(5).noneMatch(n -> n.startsWith("_job-"));
  }
}
