package org.sparkbeton.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.codec.testing.TestPhotos;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.DatasetVerifier;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.testing.FfcvPageReads;

/**
 * Small partitions do not blow up storage (issue 17): real photos written by the Spark writer from many
 * partitions take little more than their payload bytes and metadata, and FFCV's two cache modes (emulated by
 * {@link FfcvPageReads}) read every photo back from every shard. With FFCV's own layout each shard would
 * carry up to two 8 MiB pages of zeros: 300 photos from 10 partitions took 161 MB for 7.5 MB of JPEGs.
 */
class BetonStorageTest {
  /** Distinct photos, generated once (about 3 ms each); the 5,000-row dataset repeats them: sizes matter here. */
  static final int PHOTOS = 300;

  @TempDir static Path tmp;
  static SparkSession spark;
  static List<byte[]> photos = new ArrayList<>();
  static List<String> photoUris = new ArrayList<>();

  @BeforeAll
  static void setUp() throws Exception {
    spark = SparkTests.session("BetonStorageTest");
    for (Path p : TestPhotos.writeFlat(tmp.resolve("photos"), PHOTOS, 17)) {
      photos.add(Files.readAllBytes(p));
      photoUris.add(p.toUri().toString());
    }
  }

  @AfterAll
  static void tearDown() {
    spark.stop();
  }

  /** Rows {@code idx = 0..n-1} with photo {@code idx % PHOTOS} (by path) and label {@code idx % 10}, in {@code partitions} even partitions. */
  static Dataset<Row> photoRows(int n, int partitions) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      rows.add(RowFactory.create(photoUris.get(i % PHOTOS), (long) i, i % 10));
    }
    StructType schema = new StructType().add("image", DataTypes.StringType).add("idx", DataTypes.LongType)
        .add("label", DataTypes.IntegerType);
    return spark.createDataFrame(rows, schema).repartition(partitions);
  }

  /** JPEGs stored as they are (no resize): each stored payload is the photo file's bytes. */
  static Path write(String name, int n, int partitions) {
    Path dir = tmp.resolve(name);
    photoRows(n, partitions).write().format("beton").option("imageColumns", "image").option("writeMode", "jpg")
        .save(dir.toString());
    return dir;
  }

  /** What a dataset directory holds: every file's bytes, the stored payloads, and the metadata around them. */
  record Storage(long datasetBytes, long payloadBytes, long metadataBytes) {
    /** Dataset bytes over payload plus metadata: 1.0 when nothing is padding. */
    double ratio() {
      return (double) datasetBytes / (payloadBytes + metadataBytes);
    }
  }

  /**
   * Dataset bytes: all shards and the manifest. Payload: the allocations' bytes. Metadata: per shard the
   * header, descriptors and records (up to the metadata end) and the allocation table (to the end of the file),
   * plus the manifest.
   */
  static Storage storage(Path dir) throws Exception {
    long dataset = 0;
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        dataset += Files.size(f);
      }
    }
    long payload = 0;
    long metadata = Files.size(dir.resolve(DatasetManifest.FILE_NAME));
    for (ShardEntry s : DatasetVerifier.manifest(dir).shards()) {
      Path file = dir.resolve(s.path());
      try (BetonReader r = BetonReader.open(file)) {
        for (int i = 0; i < r.allocations().size(); i++) {
          payload += r.allocations().size(i);
        }
        metadata += r.metadataEnd() + (Files.size(file) - r.header().allocTablePtr());
      }
    }
    return new Storage(dataset, payload, metadata);
  }

  /** Every shard verifies against the manifest, and FFCV's page reads and mapping give each row's photo. */
  static void assertEveryShardReadsLikeFfcv(Path dir, int n, int shards) throws Exception {
    DatasetManifest manifest = DatasetVerifier.manifest(dir);
    assertThat(manifest.shards()).hasSize(shards);
    assertThat(manifest.totalSamples()).isEqualTo(n);
    assertThat(DatasetVerifier.verify(dir, manifest)).allSatisfy(r -> assertThat(r.ok()).as(r.toString()).isTrue());
    boolean[] seen = new boolean[n];
    for (ShardEntry s : manifest.shards()) {
      Path file = dir.resolve(s.path());
      List<List<ByteBuffer>> pages = FfcvPageReads.processCache(file);
      List<List<ByteBuffer>> mapped = FfcvPageReads.osCache(file);
      try (BetonReader r = BetonReader.open(file)) {
        int idx = r.fieldIndex("idx");
        for (int sample = 0; sample < r.numSamples(); sample++) {
          int row = (int) r.intValue(sample, idx);
          ByteBuffer photo = ByteBuffer.wrap(photos.get(row % PHOTOS));
          assertThat(pages.get(sample)).as("%s sample %d, os_cache=False", s.path(), sample).containsExactly(photo);
          assertThat(mapped.get(sample)).as("%s sample %d, os_cache=True", s.path(), sample).containsExactly(photo);
          seen[row] = true;
        }
      }
    }
    for (int i = 0; i < n; i++) {
      assertThat(seen[i]).as("row %d", i).isTrue();
    }
  }

  @Test
  void threeHundredPhotosFromTenPartitions() throws Exception {
    Path dir = write("photos-300", 300, 10);
    Storage st = storage(dir);
    System.out.printf("300 photos, 10 partitions: %,d dataset bytes, %,d payload + %,d metadata: %.4fx%n",
        st.datasetBytes(), st.payloadBytes(), st.metadataBytes(), st.ratio());
    assertThat(st.payloadBytes()).isEqualTo(photos.stream().mapToLong(b -> b.length).sum());
    assertThat(st.ratio()).isLessThanOrEqualTo(1.10);
    assertEveryShardReadsLikeFfcv(dir, 300, 10);
    // and the Spark reader gives every photo back
    List<Row> back = spark.read().format("beton").load(dir.toString()).orderBy("idx").collectAsList();
    assertThat(back).hasSize(300);
    for (int i = 0; i < 300; i++) {
      assertThat(back.get(i).<Long>getAs("idx")).isEqualTo(i);
      assertThat((byte[]) back.get(i).getAs("image")).isEqualTo(photos.get(i));
    }
  }

  @Test
  void fiveThousandPhotosFromEightPartitions() throws Exception {
    Path dir = write("photos-5000", 5_000, 8);
    Storage st = storage(dir);
    System.out.printf("5,000 photos, 8 partitions: %,d dataset bytes, %,d payload + %,d metadata: %.4fx%n",
        st.datasetBytes(), st.payloadBytes(), st.metadataBytes(), st.ratio());
    assertThat(st.ratio()).isLessThanOrEqualTo(1.03);
    assertEveryShardReadsLikeFfcv(dir, 5_000, 8);
  }
}
