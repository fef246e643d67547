package org.sparkbeton.spark.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.codec.testing.TestPhotos;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.fields.FloatField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.format.testing.ShardMutations;
import org.sparkbeton.format.testing.ShardMutations.Mutation;
import org.sparkbeton.format.verify.JpegSof;
import org.sparkbeton.spark.read.MetadataAggregation.Aggregate;
import org.sparkbeton.spark.read.MetadataAggregation.Function;
import org.sparkbeton.spark.read.testing.TestDatasets;

/**
 * Issue 25's shard-mutation corpus on the Spark reader's own code, without a Spark job (the partition readers
 * Spark runs, and the driver's metadata aggregation): 1,200 mutations of one shard of real photos, each read
 * back in splits of 10 samples. Goal, asserted: with page checks on, no mutation gives a silently different
 * result: every read returns exactly the clean rows and histogram, or fails. With them off the same corpus does
 * give wrong rows (the corpus bites).
 */
class ShardMutationCorpusTest {
  static final int MUTATIONS = 1_200;
  static final int SAMPLES = 24;
  private static final List<BetonField> FIELDS = List.of(new BetonField("image", RgbImageField.INSTANCE),
      new BetonField("label", IntField.INSTANCE), new BetonField("score", FloatField.INSTANCE));

  @TempDir static Path tmp;
  static Path dir;
  static Path shard;
  static byte[] clean;
  static DatasetManifest manifest;
  static final Configuration HADOOP = new Configuration();

  @BeforeAll
  static void writeDataset() throws Exception {
    List<Object[]> samples = new ArrayList<>();
    for (int i = 0; i < SAMPLES; i++) {
      byte[] jpeg = TestPhotos.photo(25, i);
      int[] size = JpegSof.dimensions(java.nio.ByteBuffer.wrap(jpeg));
      samples.add(new Object[] {RgbImage.jpeg(size[0], size[1], jpeg), (long) (i * 37 % 100), i * 0.5});
    }
    dir = tmp.resolve("photos");
    manifest = TestDatasets.writeDataset(dir, FIELDS, List.of(samples, samples.subList(0, 5)));
    shard = dir.resolve(manifest.shards().get(0).path());
    clean = Files.readAllBytes(shard);
  }

  /** Every row of the dataset, split by 10 samples, each value as text (payloads by their SHA-256). */
  static List<String> rows(ReadConf conf) throws Exception {
    DatasetInputs inputs = DatasetInputs.resolve(dir.toString(), HADOOP);
    BetonSchema schema = BetonSchema.of(inputs.fields(), conf.imageMode());
    StructType required = schema.sparkSchema();
    List<String> out = new ArrayList<>();
    List<Integer> all = List.of(0, 1);
    for (BetonInputPartition p : SplitPlanner.plan(inputs.shards(), all, conf, false, (f, s, l) -> Map.of())) {
      try (BetonPartitionReader reader = new BetonPartitionReader(p, HADOOP, conf, schema, required, null)) {
        while (reader.next()) {
          out.add(text(reader.get(), required));
        }
      }
    }
    return out;
  }

  private static String text(InternalRow row, StructType schema) throws Exception {
    StringBuilder b = new StringBuilder();
    StructField[] fields = schema.fields();
    for (int i = 0; i < fields.length; i++) {
      DataType t = fields[i].dataType();
      Object v = row.get(i, t);
      if (t.equals(DataTypes.BinaryType)) {
        v = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest((byte[]) v));
      }
      b.append(fields[i].name()).append('=').append(v).append(' ');
    }
    return b.toString();
  }

  /** The label histogram with min/max of the score, as the driver answers it from metadata. */
  static List<String> histogram(ReadConf conf) throws Exception {
    DatasetInputs inputs = DatasetInputs.resolve(dir.toString(), HADOOP);
    BetonSchema schema = BetonSchema.of(inputs.fields(), conf.imageMode());
    MetadataAggregation agg = new MetadataAggregation(schema, List.of(schema.column("label")), List.of(
        new Aggregate(Function.COUNT, null), new Aggregate(Function.MIN, schema.column("score")),
        new Aggregate(Function.MAX, schema.column("image_width"))));
    List<String> out = new ArrayList<>();
    for (Object[] r : agg.run(inputs.shards(), conf, HADOOP)) {
      out.add(java.util.Arrays.toString(r));
    }
    out.sort(null);
    return out;
  }

  /** What the corpus did to one kind of read. */
  record Outcome(int same, int failed, List<String> silentlyWrong) {}

  private static Outcome run(List<Mutation> corpus, ReadConf conf, boolean histogram) throws Exception {
    Files.write(shard, clean);
    List<String> expected = histogram ? histogram(conf) : rows(conf);
    int same = 0;
    int failed = 0;
    List<String> wrong = new ArrayList<>();
    try {
      for (Mutation m : corpus) {
        Files.write(shard, m.apply(clean));
        List<String> got;
        try {
          got = histogram ? histogram(conf) : rows(conf);
        } catch (Exception e) {
          failed++;
          continue;
        }
        if (got.equals(expected)) {
          same++;
        } else {
          wrong.add(m.toString());
        }
      }
    } finally {
      Files.write(shard, clean);
    }
    return new Outcome(same, failed, wrong);
  }

  @Test
  void noMutationGivesSilentlyWrongRowsOrAggregates() throws Exception {
    List<Mutation> corpus = ShardMutations.corpus(manifest.shards().get(0).pageChecksums(), MUTATIONS, 25);
    ReadConf checked = ReadConf.parse(Map.of(BetonReadOptions.MAX_SAMPLES_PER_PARTITION, "10"), Map.of());
    Outcome rows = run(corpus, checked, false);
    assertThat(rows.silentlyWrong()).as("silently wrong rows over %d mutations", MUTATIONS).isEmpty();
    assertThat(rows.same() + rows.failed()).isEqualTo(MUTATIONS);
    assertThat(rows.failed()).as("mutations that changed a byte fail the read").isGreaterThan(MUTATIONS * 9 / 10);
    Outcome aggregates = run(corpus, checked, true);
    assertThat(aggregates.silentlyWrong()).as("silently wrong histograms over %d mutations", MUTATIONS).isEmpty();
    System.out.printf("shard-mutation corpus, Spark reader, %d mutations: rows same %d, failed %d, silently wrong"
        + " %d; histogram same %d, failed %d, silently wrong %d%n", MUTATIONS, rows.same(), rows.failed(),
        rows.silentlyWrong().size(), aggregates.same(), aggregates.failed(), aggregates.silentlyWrong().size());
  }

  @Test
  void withoutPageChecksTheCorpusGivesWrongRows() throws Exception {
    List<Mutation> corpus = ShardMutations.corpus(manifest.shards().get(0).pageChecksums(), 300, 25);
    ReadConf unchecked = ReadConf.parse(Map.of(BetonReadOptions.MAX_SAMPLES_PER_PARTITION, "10",
        BetonReadOptions.VERIFY_CHECKSUMS, "false"), Map.of());
    Outcome rows = run(corpus, unchecked, false);
    System.out.printf("shard-mutation corpus, Spark reader, page checks off, %d mutations: rows same %d, failed %d,"
        + " silently wrong %d%n", corpus.size(), rows.same(), rows.failed(), rows.silentlyWrong().size());
    assertThat(rows.silentlyWrong()).as("the same kind of damage, read unchecked").hasSizeGreaterThan(30);
  }
}
