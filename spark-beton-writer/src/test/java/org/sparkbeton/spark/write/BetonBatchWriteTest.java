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
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.SparkBetonVersion;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.ShardEntry;

/**
 * The commit protocol without a scheduler: attempts of one partition that run side by side
 * (speculation), one killed without running its abort, one aborted, and a job abort. (A local Spark session is
 * there for the job's broadcast of the Hadoop configuration; no task runs through it.)
 */
class BetonBatchWriteTest {
  @TempDir Path tmp;
  static SparkSession spark;

  @BeforeAll
  static void setUp() {
    spark = SparkSession.builder().master("local[1]").appName("BetonBatchWriteTest")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1").getOrCreate();
  }

  @AfterAll
  static void tearDown() {
    spark.stop();
  }

  private static final StructType SCHEMA = new StructType().add("id", DataTypes.LongType);

  private BetonBatchWrite job(Path dir, boolean overwrite) {
    return new BetonBatchWrite(dir.toString(), SCHEMA, BetonWriteConf.parse(Map.of("spoolDir", tmp.toString())),
        new Configuration(), overwrite ? CommitMode.OVERWRITE : CommitMode.APPEND);
  }

  private static DataWriter<InternalRow> writeRows(DataWriterFactory f, int partition, long attempt, long from, long to)
      throws Exception {
    DataWriter<InternalRow> w = f.createWriter(partition, attempt);
    for (long i = from; i < to; i++) {
      w.write(new GenericInternalRow(new Object[] {i}));
    }
    return w;
  }

  private static List<String> betonFiles(Path dir) throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".beton")).sorted().toList();
    }
  }

  @Test
  void speculativeDuplicatesAndKilledAttemptsNeverDuplicateOrLoseSamples() throws Exception {
    Path dir = Files.createDirectory(tmp.resolve("ds"));
    BetonBatchWrite job = job(dir, false);
    DataWriterFactory factory = job.createBatchWriterFactory(null);
    // partition 0: one attempt; partition 1: original (killed mid-way, no abort) and a speculative copy
    DataWriter<InternalRow> p0 = writeRows(factory, 0, 11, 0, 100);
    DataWriter<InternalRow> slow = writeRows(factory, 1, 12, 100, 150);
    DataWriter<InternalRow> copy = writeRows(factory, 1, 13, 100, 200);
    WriterCommitMessage m0 = p0.commit();
    WriterCommitMessage m1 = copy.commit();
    // a third attempt that fails and runs its abort
    DataWriter<InternalRow> failed = writeRows(factory, 1, 14, 100, 130);
    failed.abort();
    // the killed attempt finished its file but never committed or aborted
    slow.commit();
    assertThat(betonFiles(dir)).hasSize(3);

    job.commit(new WriterCommitMessage[] {m0, m1});
    DatasetManifest m = DatasetManifest.parse(Files.readString(dir.resolve(DatasetManifest.FILE_NAME)));
    assertThat(m.totalSamples()).isEqualTo(200);
    assertThat(m.createdBy()).isEqualTo(SparkBetonVersion.writer());
    assertThat(betonFiles(dir)).containsExactlyInAnyOrderElementsOf(m.shards().stream().map(ShardEntry::path).toList());
    long sum = 0;
    for (ShardEntry s : m.shards()) {
      try (BetonReader r = BetonReader.open(dir.resolve(s.path()))) {
        for (long k = 0; k < r.numSamples(); k++) {
          sum += r.intValue(k, 0);
        }
      }
    }
    assertThat(sum).isEqualTo(199L * 200 / 2); // every id once
  }

  @Test
  void jobAbortLeavesThePreviousDatasetAsItWas() throws Exception {
    Path dir = Files.createDirectory(tmp.resolve("ds2"));
    BetonBatchWrite first = job(dir, false);
    WriterCommitMessage ok = writeRows(first.createBatchWriterFactory(null), 0, 1, 0, 10).commit();
    first.commit(new WriterCommitMessage[] {ok});
    String before = Files.readString(dir.resolve(DatasetManifest.FILE_NAME));
    List<String> filesBefore = betonFiles(dir);

    BetonBatchWrite second = job(dir, true);
    WriterCommitMessage done = writeRows(second.createBatchWriterFactory(null), 0, 2, 50, 60).commit();
    second.abort(new WriterCommitMessage[] {done, null});
    assertThat(Files.readString(dir.resolve(DatasetManifest.FILE_NAME))).isEqualTo(before);
    assertThat(betonFiles(dir)).isEqualTo(filesBefore);
  }

  /**
   * What travels with every task is small: the Hadoop configuration (tens of KB serialised, deserialised again by each
   * task) goes to each executor once as a broadcast, and the factory only refers to it.
   */
  @Test
  void theHadoopConfigurationTravelsOncePerExecutorNotWithEveryTask() throws Exception {
    Configuration hadoop = spark.sparkContext().hadoopConfiguration();
    java.io.ByteArrayOutputStream conf = new java.io.ByteArrayOutputStream();
    try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(conf)) {
      out.writeObject(new org.apache.spark.util.SerializableConfiguration(hadoop));
    }
    BetonBatchWrite job = new BetonBatchWrite(Files.createDirectory(tmp.resolve("ds3")).toString(), SCHEMA,
        BetonWriteConf.parse(Map.of("spoolDir", tmp.toString())), hadoop, CommitMode.APPEND);
    java.io.ByteArrayOutputStream factory = new java.io.ByteArrayOutputStream();
    try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(factory)) {
      out.writeObject(job.createBatchWriterFactory(null));
    }
    assertThat(conf.size()).isGreaterThan(20_000);
    assertThat(factory.size()).isLessThan(conf.size() / 4);
  }

  private BetonBatchWrite job(Path dir, StructType schema, CommitMode mode) {
    return new BetonBatchWrite(dir.toString(), schema, BetonWriteConf.parse(Map.of("spoolDir", tmp.toString())),
        new Configuration(), mode);
  }

  private static final StructType WITH_LABEL = new StructType().add("id", DataTypes.LongType)
      .add("label", DataTypes.StringType);

  private static List<String> names(Path dir) throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  /**
   * Two writes of a new dataset to one path at once (two prepares of one folder): both found no dataset, so the
   * second to publish would have appended, and every sample been there twice. It publishes nothing now: an error for
   * SaveMode ErrorIfExists, a warning for Ignore; its files are deleted either way.
   */
  @Test
  void aNewDatasetPublishedMeanwhileByAnotherWriteIsNotAddedTo() throws Exception {
    for (CommitMode mode : new CommitMode[] {CommitMode.NEW, CommitMode.NEW_UNLESS_PUBLISHED_MEANWHILE}) {
      Path dir = Files.createDirectory(tmp.resolve("both-new-" + mode));
      BetonBatchWrite first = job(dir, SCHEMA, mode);
      BetonBatchWrite second = job(dir, SCHEMA, mode);
      WriterCommitMessage a = writeRows(first.createBatchWriterFactory(null), 0, 1, 0, 10).commit();
      WriterCommitMessage b = writeRows(second.createBatchWriterFactory(null), 0, 2, 0, 10).commit();
      first.commit(new WriterCommitMessage[] {a});
      List<String> published = DatasetManifest.parse(Files.readString(dir.resolve(DatasetManifest.FILE_NAME)))
          .shards().stream().map(ShardEntry::path).toList();
      if (mode == CommitMode.NEW) {
        assertThatThrownBy(() -> second.commit(new WriterCommitMessage[] {b}))
            .isInstanceOf(PublishedMeanwhileException.class).hasMessageStartingWith("Path ").hasMessageContaining(dir.getFileName().toString())
            .hasMessageEndingWith(" holds a beton dataset that another write published while this one ran (there was"
                + " none when it started), so this write published nothing and deleted its files. Set mode \"append\""
                + " to add to it, or \"overwrite\" to replace it");
      } else {
        second.commit(new WriterCommitMessage[] {b});
      }
      assertThat(DatasetManifest.parse(Files.readString(dir.resolve(DatasetManifest.FILE_NAME))).totalSamples())
          .as(mode.toString()).isEqualTo(10);
      assertThat(betonFiles(dir)).as("the second write's shard is deleted").isEqualTo(published);
    }
  }

  /** An append whose columns differ ran every task and wrote every row, then was refused when it published. */
  @Test
  void anAppendOfOtherColumnsIsRefusedBeforeAnyTaskRuns() throws Exception {
    Path dir = Files.createDirectory(tmp.resolve("mismatch"));
    BetonBatchWrite first = job(dir, false);
    first.commit(new WriterCommitMessage[] {writeRows(first.createBatchWriterFactory(null), 0, 1, 0, 10).commit()});
    List<String> before = names(dir);

    assertThatThrownBy(() -> job(dir, WITH_LABEL, CommitMode.APPEND).createBatchWriterFactory(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot append to " + dir + ": the DataFrame's columns do not match the dataset's fields, so nothing was written. column 'label' is"
            + " not in the dataset: drop it. If these columns are the ones you want, write them to another path, or"
            + " replace the dataset with mode(\"overwrite\") (its 10 samples are deleted); a streaming query has no overwrite: start it on another path, with a new"
            + " checkpointLocation");
    assertThat(names(dir)).as("no job marker, no file").isEqualTo(before);
    // an overwrite replaces it, as the message says
    BetonBatchWrite replace = job(dir, WITH_LABEL, CommitMode.OVERWRITE);
    DataWriter<InternalRow> w = replace.createBatchWriterFactory(null).createWriter(0, 2);
    w.write(new GenericInternalRow(new Object[] {7L, org.apache.spark.unsafe.types.UTF8String.fromString("x")}));
    replace.commit(new WriterCommitMessage[] {w.commit()});
    assertThat(DatasetManifest.parse(Files.readString(dir.resolve(DatasetManifest.FILE_NAME))).totalSamples())
        .isEqualTo(1);
  }

  /** The check when the manifest is published stays, for a dataset replaced while the append ran. */
  @Test
  void anAppendToADatasetReplacedMeanwhileIsRefusedWhenItPublishes() throws Exception {
    Path dir = Files.createDirectory(tmp.resolve("replaced"));
    BetonBatchWrite first = job(dir, false);
    first.commit(new WriterCommitMessage[] {writeRows(first.createBatchWriterFactory(null), 0, 1, 0, 10).commit()});
    BetonBatchWrite append = job(dir, false);
    WriterCommitMessage appended = writeRows(append.createBatchWriterFactory(null), 0, 2, 10, 20).commit();

    BetonBatchWrite replace = job(dir, WITH_LABEL, CommitMode.OVERWRITE);
    DataWriter<InternalRow> w = replace.createBatchWriterFactory(null).createWriter(0, 3);
    w.write(new GenericInternalRow(new Object[] {7L, org.apache.spark.unsafe.types.UTF8String.fromString("x")}));
    replace.commit(new WriterCommitMessage[] {w.commit()});

    assertThatThrownBy(() -> append.commit(new WriterCommitMessage[] {appended}))
        .hasMessageEndingWith(": its fields changed while this write ran (another write replaced the dataset), and"
            + " the DataFrame's columns no longer match them, so nothing was published. the dataset's column 'label'"
            + " (JSON) is missing from the DataFrame. If these columns are the ones you want, write them to another"
            + " path, or replace the dataset with mode(\"overwrite\") (its 1 sample is deleted); a streaming query has no overwrite: start it on another path, with a new"
            + " checkpointLocation");
    assertThat(DatasetManifest.parse(Files.readString(dir.resolve(DatasetManifest.FILE_NAME))).totalSamples())
        .isEqualTo(1);
  }

  /**
   * A damaged manifest could not be replaced: overwrite failed parsing it, and no message named the path. An
   * overwrite now publishes the new dataset and deletes nothing it cannot prove was the old one's; an append is
   * refused before any task, naming the file and both ways out.
   */
  @Test
  void aDatasetWhoseManifestCannotBeReadIsReplacedByAnOverwriteAndRefusesAppends() throws Exception {
    Path dir = Files.createDirectory(tmp.resolve("damaged"));
    BetonBatchWrite first = job(dir, false);
    first.commit(new WriterCommitMessage[] {writeRows(first.createBatchWriterFactory(null), 0, 1, 0, 10).commit()});
    List<String> oldShards = betonFiles(dir);
    Path manifest = dir.resolve(DatasetManifest.FILE_NAME);
    String good = Files.readString(manifest);
    Files.writeString(manifest, good.substring(0, good.length() / 2));

    assertThatThrownBy(() -> job(dir, false).createBatchWriterFactory(null))
        .isInstanceOf(UnreadableManifestException.class)
        .hasMessageContaining("The manifest of the beton dataset at " + dir + " cannot be read (" + manifest
            + "): Malformed manifest JSON at offset ")
        .hasMessageEndingWith(". Without it the dataset's shards and fields are unknown, so no append can go there:"
            + " restore _manifest.json from a copy, or replace the dataset with a write in mode(\"overwrite\"), which"
            + " publishes a new manifest and leaves the old shards in place for beton gc " + dir + " --delete");
    assertThat(betonFiles(dir)).isEqualTo(oldShards);

    BetonBatchWrite replace = job(dir, true);
    replace.commit(new WriterCommitMessage[] {writeRows(replace.createBatchWriterFactory(null), 0, 2, 100, 103)
        .commit()});
    DatasetManifest now = DatasetManifest.parse(Files.readString(manifest));
    assertThat(now.totalSamples()).isEqualTo(3);
    assertThat(betonFiles(dir)).as("the old shards stay, for beton gc").containsAll(oldShards)
        .hasSize(oldShards.size() + 1);
    // the dataset is whole again: appends go on
    BetonBatchWrite append = job(dir, false);
    append.commit(new WriterCommitMessage[] {writeRows(append.createBatchWriterFactory(null), 0, 3, 103, 105)
        .commit()});
    assertThat(DatasetManifest.parse(Files.readString(manifest)).totalSamples()).isEqualTo(5);
  }
}
