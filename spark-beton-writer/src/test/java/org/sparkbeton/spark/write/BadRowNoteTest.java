package org.sparkbeton.spark.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.codec.testing.TestPhotos;

/** The note a task leaves of the bad row that failed it, for its retries to read before they read a row. */
class BadRowNoteTest {
  static final String JOB = "0123abcd";

  @TempDir Path tmp;
  private int attempt; // a fresh attempt id per writer: attempts never share a shard name

  private BetonDataWriter writer(Path out, int partition, StructType schema, String... options) throws Exception {
    Map<String, String> o = new java.util.HashMap<>(Map.of("spoolDir", tmp.toString()));
    for (int i = 0; i < options.length; i += 2) {
      o.put(options[i], options[i + 1]);
    }
    return new BetonDataWriter(FileSystem.getLocal(new Configuration()), hadoop(out), JOB, partition, attempt++, schema,
        BetonWriteConf.parse(o));
  }

  private static org.apache.hadoop.fs.Path hadoop(Path p) {
    return new org.apache.hadoop.fs.Path(p.toUri());
  }

  private static BadRowNote note(Path out, int partition) {
    return new BadRowNote(fsOf(), hadoop(out), JOB, partition);
  }

  private static FileSystem fsOf() {
    try {
      return FileSystem.getLocal(new Configuration());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void aBadImageIsNotedForItsPartitionAndReadBackAsThrown() throws Exception {
    Path out = Files.createDirectories(tmp.resolve("out"));
    StructType schema = new StructType().add("image", DataTypes.BinaryType);
    BetonDataWriter w = writer(out, 4, schema, "imageColumns", "image", "maxResolution", "64");
    w.write(new GenericInternalRow(new Object[] {TestPhotos.photo(43, 1)}));
    byte[] cut = java.util.Arrays.copyOf(TestPhotos.photo(43, 2), 900);
    Throwable thrown = catchThrowable(() -> w.write(new GenericInternalRow(new Object[] {cut})));
    w.abort();
    w.close();

    assertThat(thrown).isInstanceOf(BadImageException.class);
    assertThat(out.resolve("part-00004-" + JOB + "-bad-row.txt")).exists();
    BadRow noted = note(out, 4).read();
    assertThat(noted).isInstanceOf(BadImageException.class);
    assertThat(noted.getMessage()).isEqualTo(thrown.getMessage()).startsWith("Bad image in column 'image', row 1 of"
        + " partition 4: ");
    assertThat(note(out, 3).read()).as("another partition's").isNull();
  }

  @Test
  void aBadValueIsNotedAsWellAndAGoodWriteLeavesNone() throws Exception {
    Path out = Files.createDirectories(tmp.resolve("out"));
    StructType schema = new StructType().add("n", DataTypes.IntegerType);
    BetonDataWriter good = writer(out, 0, schema);
    good.write(new GenericInternalRow(new Object[] {1}));
    good.commit();
    good.close();
    assertThat(note(out, 0).read()).isNull();

    BetonDataWriter w = writer(out, 0, schema);
    w.write(new GenericInternalRow(new Object[] {2}));
    Throwable thrown = catchThrowable(() -> w.write(new GenericInternalRow(new Object[] {null})));
    w.abort();
    w.close();
    assertThat(thrown).isInstanceOf(BadValueException.class);
    BadRow noted = note(out, 0).read();
    assertThat(noted).isInstanceOf(BadValueException.class);
    assertThat(noted.getMessage()).isEqualTo("Bad value in column 'n', row 1 of partition 0: null; .beton has no"
        + " nulls (filter them, or set nullPolicy=skip)").isEqualTo(thrown.getMessage());
  }

  @Test
  void aNoteThatCannotBeWrittenLeavesTheFailureAsItWas() {
    Path missing = tmp.resolve("no-such-parent").resolve("file-not-dir");
    BadValueException bad = new BadValueException("n", 1, 0, null, "null", null);
    FileSystem fs = fsOf();
    try {
      Files.writeString(tmp.resolve("no-such-parent"), "a file where the directory would be");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    assertThat(new BadRowNote(fs, hadoop(missing), JOB, 0).record(bad)).isSameAs(bad);
  }

  @Test
  void aWatchedRetryWaitsForTheKillAndGivesUpAfterItsTimeout() {
    AtomicInteger polls = new AtomicInteger();
    assertThat(BadRowNote.awaitKill(() -> polls.incrementAndGet() >= 3, 5_000)).isTrue();
    assertThat(polls.get()).isEqualTo(3);

    long start = System.nanoTime();
    assertThat(BadRowNote.awaitKill(() -> false, 50)).isFalse();
    assertThat((System.nanoTime() - start) / 1_000_000).isGreaterThanOrEqualTo(50);

    Thread.currentThread().interrupt();
    assertThat(BadRowNote.awaitKill(() -> false, 5_000)).as("an interrupt is Spark's kill").isTrue();
    assertThat(Thread.interrupted()).isTrue();
  }
}
