package org.sparkbeton.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import javax.imageio.ImageIO;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.QueryExecution;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.metric.SQLMetric;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.QueryExecutionListener;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.dataset.DatasetManifest;
import scala.collection.JavaConverters;

/**
 * What a write reports: the custom metrics of the write node (Spark UI, SQL tab) and the tasks' output
 * metrics (records and bytes, Stages tab), against what the manifest and the input say.
 */
class BetonWriteMetricsTest {
  @TempDir static Path tmp;
  static SparkSession spark;
  static final Map<String, Long> sqlMetrics = new ConcurrentHashMap<>();
  static final AtomicLong recordsWritten = new AtomicLong();
  static final AtomicLong bytesWritten = new AtomicLong();

  @BeforeAll
  static void setUp() {
    spark = SparkTests.session("BetonWriteMetricsTest");
    spark.listenerManager().register(new QueryExecutionListener() {
      @Override
      public void onSuccess(String funcName, QueryExecution qe, long durationNs) {
        collect(qe.executedPlan());
      }

      @Override
      public void onFailure(String funcName, QueryExecution qe, Exception exception) {}
    });
    spark.sparkContext().addSparkListener(new SparkListener() {
      @Override
      public void onTaskEnd(SparkListenerTaskEnd end) {
        if (end.taskMetrics() != null) {
          recordsWritten.addAndGet(end.taskMetrics().outputMetrics().recordsWritten());
          bytesWritten.addAndGet(end.taskMetrics().outputMetrics().bytesWritten());
        }
      }
    });
  }

  private static void collect(SparkPlan plan) {
    for (Map.Entry<String, SQLMetric> m : JavaConverters.mapAsJavaMap(plan.metrics()).entrySet()) {
      if (m.getKey().startsWith("beton")) {
        sqlMetrics.merge(m.getKey(), m.getValue().value(), Long::sum);
      }
    }
    for (SparkPlan child : JavaConverters.seqAsJavaList(plan.children())) {
      collect(child);
    }
  }

  @AfterAll
  static void tearDown() {
    spark.stop();
  }

  private static byte[] jpeg(int w, int h) throws Exception {
    BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_3BYTE_BGR);
    for (int y = 0; y < h; y++) {
      for (int x = 0; x < w; x++) {
        img.setRGB(x, y, (x * 5 + y * 9) * 0x010203);
      }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ImageIO.write(img, "jpg", out);
    return out.toByteArray();
  }

  @Test
  void customAndOutputMetricsMatchTheManifest() throws Exception {
    List<Row> rows = new ArrayList<>();
    long bytesIn = 0;
    for (int i = 0; i < 24; i++) {
      byte[] image = i == 5 ? new byte[] {1, 2, 3} : jpeg(64 + i, 48);
      bytesIn += image.length;
      rows.add(RowFactory.create(image, i % 3));
    }
    StructType schema = new StructType().add("image", DataTypes.BinaryType).add("label", DataTypes.IntegerType);
    Dataset<Row> df = spark.createDataFrame(rows, schema).repartition(2);
    Path dir = tmp.resolve("metrics");
    spark.sparkContext().listenerBus().waitUntilEmpty();
    sqlMetrics.clear();
    recordsWritten.set(0);
    bytesWritten.set(0);
    df.write().format("beton").option("imageColumns", "image").option("writeMode", "jpg")
        .option("maxResolution", "32").option("badImagePolicy", "skip").save(dir.toString());
    spark.sparkContext().listenerBus().waitUntilEmpty();

    DatasetManifest m = BetonWriteTest.manifest(dir);
    long shardBytes = m.shards().stream().mapToLong(s -> s.bytes()).sum();
    assertThat(sqlMetrics).containsEntry("betonSamplesWritten", 23L).containsEntry("betonRowsSkipped", 1L)
        .containsEntry("betonImagesEncoded", 23L).containsEntry("betonImagesPassedThrough", 0L)
        .containsEntry("betonImageBytesIn", bytesIn).containsEntry("betonShardsWritten", (long) m.shards().size())
        .containsKeys("betonDecodeMs", "betonResizeMs", "betonEncodeMs");
    // Spark takes a task's last metrics before its commit, when the open shard holds its payloads but not
    // yet its metadata and allocation table: the custom metric is the payloads (here the whole data region of
    // each compact shard, which fits its first page), the output metric the exact bytes
    long dataRegions = 0;
    for (org.sparkbeton.format.dataset.ShardEntry s : m.shards()) {
      try (org.sparkbeton.format.BetonReader r = org.sparkbeton.format.BetonReader.open(dir.resolve(s.path()))) {
        dataRegions += r.header().allocTablePtr() - r.metadataEnd();
      }
    }
    assertThat(sqlMetrics.get("betonBytesWritten")).isEqualTo(dataRegions).isLessThan(shardBytes);
    assertThat(recordsWritten.get()).isEqualTo(23);
    assertThat(bytesWritten.get()).isEqualTo(shardBytes);
  }
}
