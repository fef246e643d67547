package org.sparkbeton.spark.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.io.BetonSource;
import org.sparkbeton.spark.read.testing.TestDatasets;

/**
 * A partition of many small shards packed together ({@link SplitPlanner}): read in turn, one shard open at a time,
 * every row once and in dataset order, and each shard's failure its own (named, or skipped with
 * {@code ignoreCorruptFiles} while the other shards are read).
 */
class BetonPartitionReaderTest {
  private static final Configuration HADOOP = new Configuration();
  /** Shard sizes: 8 shards, 33 samples. */
  private static final int[] SAMPLES = {3, 5, 4, 6, 1, 5, 4, 5};
  private static final int TOTAL = IntStream.of(SAMPLES).sum();

  @TempDir Path tmp;
  private Path dir;

  @BeforeEach
  void writeDataset() {
    List<List<Object[]>> shards = new ArrayList<>();
    int from = 0;
    for (int n : SAMPLES) {
      shards.add(TestDatasets.everyFieldSamples(from, from + n));
      from += n;
    }
    dir = tmp.resolve("tiny");
    TestDatasets.writeDataset(dir, TestDatasets.EVERY_FIELD, shards);
  }

  /** Opens shards as the reader does, counting the files open now and at most, and every open. */
  static final class CountingOpener implements BetonPartitionReader.SourceOpener {
    int open;
    int maxOpen;
    final List<String> opened = new ArrayList<>();
    /** A shard (file name) whose reads fail with an I/O error that does not name it, or null. */
    String failingReads;

    @Override
    public BetonSource open(org.apache.hadoop.fs.Path path, Configuration conf, boolean pagesChecked)
        throws IOException {
      BetonSource inner = HadoopBetonSource.open(path, conf, pagesChecked);
      open++;
      maxOpen = Math.max(maxOpen, open);
      opened.add(path.getName());
      boolean fails = path.getName().equals(failingReads);
      return new BetonSource() {
        private boolean closed;
        @Override public String name() { return inner.name(); }
        @Override public long length() { return inner.length(); }
        @Override public long bytesRead() { return inner.bytesRead(); }

        @Override
        public ByteBuffer read(long position, int length) throws IOException {
          if (fails && position > 0) {
            throw new IOException("Connection reset by peer");
          }
          return inner.read(position, length);
        }

        @Override
        public void close() throws IOException {
          if (!closed) {
            closed = true;
            open--;
          }
          inner.close();
        }
      };
    }
  }

  private record Read(List<Double> weights, long samplesRead, long bytesRead, long corruptSkipped,
      long missingSkipped) {}

  /** Reads the partitions in turn; weight = sample / 4.0 identifies each row. */
  private static Read read(List<BetonInputPartition> parts, ReadConf conf, CountingOpener opener) throws IOException {
    BetonSchema schema = BetonSchema.of(TestDatasets.EVERY_FIELD.stream()
        .map(org.sparkbeton.format.dataset.ManifestField::of).toList(), conf.imageMode());
    StructType required = new StructType().add(schema.sparkSchema().apply("weight"))
        .add(schema.sparkSchema().apply("bytes"));
    List<Double> weights = new ArrayList<>();
    long samples = 0;
    long bytes = 0;
    long corrupt = 0;
    long missing = 0;
    for (BetonInputPartition p : parts) {
      try (BetonPartitionReader reader = new BetonPartitionReader(p, HADOOP, conf, schema, required, null, opener)) {
        while (reader.next()) {
          weights.add(reader.get().getDouble(0));
        }
        assertThat(opener.open).as("every shard closed once the partition is read, before close()").isZero();
        for (CustomTaskMetric m : reader.currentMetricsValues()) {
          switch (m.name()) {
            case BetonMetrics.SAMPLES_READ -> samples += m.value();
            case BetonMetrics.BYTES_READ -> bytes += m.value();
            case BetonMetrics.CORRUPT_SHARDS_SKIPPED -> corrupt += m.value();
            case BetonMetrics.MISSING_SHARDS_SKIPPED -> missing += m.value();
            default -> throw new AssertionError(m.name());
          }
        }
      }
    }
    return new Read(weights, samples, bytes, corrupt, missing);
  }

  private List<BetonInputPartition> plan(ReadConf conf) {
    DatasetInputs inputs = DatasetInputs.resolve(dir.toString(), HADOOP);
    return SplitPlanner.plan(inputs.shards(), IntStream.range(0, SAMPLES.length).boxed().toList(), conf, false,
        (p, s, l) -> Map.of());
  }

  private static List<Double> weights(int from, int to) {
    return IntStream.range(from, to).mapToObj(i -> i / 4.0).toList();
  }

  @Test
  void readsPackedShardsInTurnOneOpenAtATimeEveryRowOnceInOrder() throws IOException {
    ReadConf conf = ReadConf.defaults();
    List<BetonInputPartition> packed = plan(conf);
    assertThat(packed).hasSize(1);
    assertThat(packed.get(0).ranges()).hasSize(SAMPLES.length);
    CountingOpener opener = new CountingOpener();
    Read got = read(packed, conf, opener);
    assertThat(got.weights()).containsExactlyElementsOf(weights(0, TOTAL));
    assertThat(opener.opened).hasSize(SAMPLES.length).doesNotHaveDuplicates();
    assertThat(opener.maxOpen).as("shards open at once").isEqualTo(1);
    assertThat(got.samplesRead()).isEqualTo(TOTAL);
    assertThat(got.corruptSkipped()).isZero();

    // the same shards, each its own partition (an open cost above the split size packs nothing): same rows, bytes
    ReadConf apart = ReadConf.parse(Map.of(), Map.of("spark.sql.files.openCostInBytes", Long.toString(1L << 30)));
    List<BetonInputPartition> single = plan(apart);
    assertThat(single).hasSize(SAMPLES.length);
    Read alone = read(single, apart, new CountingOpener());
    assertThat(alone.weights()).isEqualTo(got.weights());
    assertThat(got.bytesRead()).as("bytes read, packed and apart").isEqualTo(alone.bytesRead()).isPositive();
  }

  @Test
  void aCorruptShardAmongPackedOnesFailsNamingItOrIsSkippedWhileTheOthersAreRead() throws IOException {
    Path bad = dir.resolve("part-00003.beton");
    long metadataStart;
    try (BetonReader r = BetonReader.open(bad)) {
      metadataStart = r.metadataStart();
    }
    try (RandomAccessFile f = new RandomAccessFile(bad.toFile(), "rw")) {
      f.seek(metadataStart + 2);
      f.write(0x5a ^ f.read());
    }
    List<BetonInputPartition> packed = plan(ReadConf.defaults());
    assertThat(packed).hasSize(1);

    CountingOpener strict = new CountingOpener();
    assertThatThrownBy(() -> read(packed, ReadConf.defaults(), strict))
        .hasMessageContaining("part-00003.beton: page ").hasMessageContaining("CRC32C is ");
    assertThat(strict.opened).containsExactly("part-00000.beton", "part-00001.beton", "part-00002.beton",
        "part-00003.beton");
    assertThat(strict.open).as("closed by the reader's close()").isZero();

    ReadConf lenient = ReadConf.parse(Map.of("ignoreCorruptFiles", "true"), Map.of());
    CountingOpener opener = new CountingOpener();
    Read got = read(packed, lenient, opener);
    List<Double> expected = new ArrayList<>(weights(0, 3 + 5 + 4));
    expected.addAll(weights(3 + 5 + 4 + 6, TOTAL));
    assertThat(got.weights()).containsExactlyElementsOf(expected);
    assertThat(got.corruptSkipped()).isEqualTo(1);
    assertThat(got.samplesRead()).isEqualTo(TOTAL - 6);
    assertThat(opener.opened).hasSize(SAMPLES.length);
    assertThat(opener.maxOpen).isEqualTo(1);
  }

  @Test
  void aMissingShardIsNamedOrSkippedOnlyAsMissing() throws IOException {
    List<BetonInputPartition> packed = plan(ReadConf.defaults());
    Files.delete(dir.resolve("part-00005.beton"));
    assertThatThrownBy(() -> read(packed, ReadConf.defaults(), new CountingOpener()))
        .isInstanceOf(java.io.FileNotFoundException.class)
        .hasMessageContaining("part-00005.beton does not exist: the dataset was overwritten after this query was planned")
        .hasMessageContaining("load() it again (an action repeated on the same DataFrame, such as a second collect(),"
            + " runs the plan of its first)")
        .hasMessageContaining("ignoreMissingFiles=true");
    // a shard that went away is not damage: ignoreCorruptFiles (the option or the session's) does not skip it
    for (ReadConf corruptOnly : List.of(ReadConf.parse(Map.of("ignoreCorruptFiles", "true"), Map.of()),
        ReadConf.parse(Map.of(), Map.of("spark.sql.files.ignoreCorruptFiles", "true")))) {
      assertThatThrownBy(() -> read(packed, corruptOnly, new CountingOpener()))
          .hasMessageContaining("part-00005.beton does not exist");
    }
    List<Double> expected = new ArrayList<>(weights(0, 3 + 5 + 4 + 6 + 1));
    expected.addAll(weights(3 + 5 + 4 + 6 + 1 + 5, TOTAL));
    for (ReadConf missingOk : List.of(ReadConf.parse(Map.of("IgnoreMissingFiles", "true"), Map.of()),
        ReadConf.parse(Map.of(), Map.of("spark.sql.files.ignoreMissingFiles", "true")))) {
      Read got = read(packed, missingOk, new CountingOpener());
      assertThat(got.weights()).containsExactlyElementsOf(expected);
      assertThat(got.missingSkipped()).isEqualTo(1);
      assertThat(got.corruptSkipped()).isZero();
    }
  }

  @Test
  void anIoErrorThatDoesNotNameItsShardIsGivenTheShardsName() {
    List<BetonInputPartition> packed = plan(ReadConf.defaults());
    CountingOpener opener = new CountingOpener();
    opener.failingReads = "part-00002.beton";
    assertThatThrownBy(() -> read(packed, ReadConf.defaults(), opener))
        .isInstanceOf(IOException.class)
        .hasMessageEndingWith("part-00002.beton: Connection reset by peer")
        .hasRootCauseMessage("Connection reset by peer");
    assertThat(opener.open).isZero();
  }
}
