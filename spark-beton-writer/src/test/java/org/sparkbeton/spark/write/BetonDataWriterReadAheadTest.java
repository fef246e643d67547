package org.sparkbeton.spark.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.codec.testing.TestPhotos;

/**
 * A task whose rows name image files on a remote file system ({@link LaggyFileSystem}: local files behind a 15 ms
 * open) reads them ahead, several at once, and stores exactly what reading each in place stores: the same shard, byte
 * for byte, the same rows refused for the same reasons.
 */
class BetonDataWriterReadAheadTest {
  static final StructType SCHEMA = new StructType().add("image", DataTypes.StringType)
      .add("label", DataTypes.IntegerType);

  @TempDir Path tmp;
  List<String> photos;

  @BeforeEach
  void photos() throws Exception {
    photos = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      photos.add(Files.write(tmp.resolve("p" + i + ".jpg"), TestPhotos.photo(44, i)).toString());
    }
    LaggyFileSystem.resetCounts();
  }

  BetonDataWriter writer(String out, String... options) throws Exception {
    Map<String, String> o = new HashMap<>(Map.of("spoolDir", tmp.toString(), "imageColumns", "image",
        "writeMode", "jpg", "maxResolution", "64"));
    for (int i = 0; i < options.length; i += 2) {
      o.put(options[i], options[i + 1]);
    }
    Path dir = Files.createDirectories(tmp.resolve(out));
    FileSystem local = FileSystem.newInstance(java.net.URI.create("file:///"), LaggyFileSystem.register(new Configuration()));
    return new BetonDataWriter(local, new org.apache.hadoop.fs.Path(dir.toUri()), "0123abcd", 0, 0, SCHEMA,
        BetonWriteConf.parse(o));
  }

  /** 40 rows: the photos in turn as laggy:// paths, row 17 a missing file, row 23 a null path. */
  List<GenericInternalRow> rows() {
    List<GenericInternalRow> rows = new ArrayList<>();
    for (int r = 0; r < 40; r++) {
      String path = r == 17 ? "laggy://" + tmp.resolve("missing.jpg") : "laggy://" + photos.get(r % photos.size());
      rows.add(new GenericInternalRow(new Object[] {r == 23 ? null : UTF8String.fromString(path), r}));
    }
    return rows;
  }

  BetonCommitMessage writeAll(BetonDataWriter w) throws Exception {
    for (GenericInternalRow row : rows()) {
      w.write(row);
    }
    BetonCommitMessage m = (BetonCommitMessage) w.commit();
    w.close();
    return m;
  }

  @Test
  void readAheadStoresWhatReadingInPlaceStores() throws Exception {
    String[] policy = {"badImagePolicy", "quarantine", "nullPolicy", "skip"};
    BetonCommitMessage inPlace = writeAll(writer("in-place", concat(policy, "imageReadAhead", "0")));
    assertThat(LaggyFileSystem.MOST_AT_ONCE.get()).isEqualTo(1);
    LaggyFileSystem.resetCounts();
    BetonCommitMessage ahead = writeAll(writer("ahead", concat(policy, "imageReadAhead", "8")));
    assertThat(LaggyFileSystem.MOST_AT_ONCE.get()).isBetween(2, 8);

    for (BetonCommitMessage m : List.of(inPlace, ahead)) {
      assertThat(m.samples()).isEqualTo(38);
      assertThat(m.skippedNulls()).isEqualTo(1);
      assertThat(m.quarantined()).isEqualTo(1);
    }
    assertThat(Files.readAllBytes(tmp.resolve("ahead").resolve(ahead.shards().get(0).path())))
        .isEqualTo(Files.readAllBytes(tmp.resolve("in-place").resolve(inPlace.shards().get(0).path())));
    String record = Files.readString(tmp.resolve("ahead/_quarantine").resolve(ahead.quarantineFile()),
        StandardCharsets.UTF_8);
    assertThat(record).startsWith("{\"source\":\"laggy://" + tmp.resolve("missing.jpg") + "\",\"partition\":0,"
        + "\"row\":17,\"column\":\"image\",\"reason\":\"image file laggy://" + tmp.resolve("missing.jpg")
        + " does not exist");
    assertThat(record).isEqualTo(Files.readString(tmp.resolve("in-place/_quarantine").resolve(inPlace.quarantineFile()),
        StandardCharsets.UTF_8));
  }

  /** Under the fail policy the missing file fails the task naming its row, and an aborted task leaves no thread. */
  @Test
  void aMissingFileFailsItsRowAndAbortStopsTheReads() throws Exception {
    BetonDataWriter w = writer("failing", "nullPolicy", "skip", "imageReadAhead", "4");
    Throwable failure = catchThrowable(() -> writeAll(w));
    assertThat(failure).isInstanceOf(BadImageException.class)
        .hasMessageStartingWith("Bad image in column 'image', row 17 of partition 0 (source laggy://"
            + tmp.resolve("missing.jpg") + "): image file laggy://" + tmp.resolve("missing.jpg") + " does not exist");
    w.abort();
    w.close();
    Thread.sleep(50);
    assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().startsWith("beton-image-read-")
        && t.isAlive());
  }

  /**
   * Spark reads a task's metrics after its last row and before commit: by then every row given is stored and counted,
   * none still waiting for its file.
   */
  @Test
  void theMetricsSparkReadsCountEveryRowGiven() throws Exception {
    BetonDataWriter w = writer("metrics", "imageReadAhead", "8");
    for (int r = 0; r < 5; r++) {
      w.write(new GenericInternalRow(new Object[] {UTF8String.fromString("laggy://" + photos.get(r)), r}));
    }
    assertThat(w.readsAhead()).isTrue();
    java.util.Map<String, Long> metrics = new java.util.HashMap<>();
    for (var m : w.currentMetricsValues()) {
      metrics.put(m.name(), m.value());
    }
    assertThat(metrics).containsEntry(BetonWriteMetrics.SAMPLES, 5L).containsEntry(BetonWriteMetrics.REENCODED, 5L);
    assertThat(((BetonCommitMessage) w.commit()).samples()).isEqualTo(5);
    w.close();
  }

  /** Local files are read as their rows come: no thread, no waiting row. */
  @Test
  void localFilesAreNotReadAhead() throws Exception {
    BetonDataWriter w = writer("local");
    for (String p : photos) {
      w.write(new GenericInternalRow(new Object[] {UTF8String.fromString(p), 1}));
    }
    assertThat(w.readsAhead()).isFalse();
    assertThat(((BetonCommitMessage) w.commit()).samples()).isEqualTo(6);
    w.close();
    BetonDataWriter remote = writer("remote");
    remote.write(new GenericInternalRow(new Object[] {UTF8String.fromString("laggy://" + photos.get(0)), 1}));
    assertThat(remote.readsAhead()).isTrue();
    assertThat(((BetonCommitMessage) remote.commit()).samples()).isEqualTo(1);
    remote.close();
  }

  static String[] concat(String[] a, String... b) {
    String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
