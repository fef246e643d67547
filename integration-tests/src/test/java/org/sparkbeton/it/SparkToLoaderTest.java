package org.sparkbeton.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.loader.Batch;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.decoders.RandomResizedCropRgbDecoder;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.transforms.RandomHorizontalFlip;
import org.sparkbeton.spark.prepare.DemoImageFolder;
import org.sparkbeton.spark.prepare.ImageFolderPrepare;

/**
 * The whole product, end to end: images prepared into a sharded dataset by the Spark writer, then loaded
 * for training by the node-local loader straight from the dataset directory (manifest, all shards as one
 * index space, orphans of failed attempts ignored).
 */
class SparkToLoaderTest {
  @TempDir static Path tmp;
  static SparkSession spark;

  @BeforeAll
  static void setUp() {
    spark = SparkSession.builder().master("local[2]").appName("SparkToLoaderTest")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1").getOrCreate();
  }

  @AfterAll
  static void tearDown() {
    spark.stop();
  }

  @Test
  void theLoaderReadsEverySampleOfASparkWrittenDatasetOnce() throws Exception {
    Path input = DemoImageFolder.ensure(tmp.resolve("shapes"), 72, 5);
    Path out = tmp.resolve("dataset");
    ImageFolderPrepare.run(spark, input.toString(), out.toString(),
        Map.of("writeMode", "jpg", "maxResolution", "64", "pageSize", "2M"), 3, false);
    // a shard a failed attempt left behind: not in the manifest, so never read
    Files.write(out.resolve("part-00007-deadbeef-a0-000.beton"), new byte[] {1, 2, 3});

    Map<Long, Long> expected = new TreeMap<>();
    for (Row r : spark.read().format("beton").load(out.toString()).groupBy("label").count().collectAsList()) {
      expected.put((long) r.getInt(0), r.getLong(1));
    }
    assertThat(expected.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(72);

    Map<Long, Long> loaded = new TreeMap<>();
    int batches = 0;
    try (Loader loader = Loader.builder(out).batchSize(16).dropLast(false).numThreads(2).seed(9).order(OrderOption.RANDOM)
        .pipeline("image", new RandomResizedCropRgbDecoder(32, 32), new RandomHorizontalFlip(0.5))
        .pipeline("label", new IntDecoder()).build()) {
      for (Batch b : loader) {
        batches++;
        ByteBuffer labels = b.data("label");
        ByteBuffer images = b.data("image");
        long nonZero = 0;
        for (int i = 0; i < b.size() * 32 * 32 * 3; i++) {
          nonZero += images.get(i) != 0 ? 1 : 0;
        }
        assertThat(nonZero).as("decoded pixels in batch %d", batches).isGreaterThan(b.size() * 32L * 32);
        for (int i = 0; i < b.size(); i++) {
          loaded.merge(labels.getLong(i * 8), 1L, Long::sum);
        }
      }
    }
    assertThat(batches).isEqualTo(5); // 72 samples in batches of 16, the last one partial
    assertThat(loaded).isEqualTo(expected);
  }
}
