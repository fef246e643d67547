package org.sparkbeton.spark.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.dataset.DatasetFiles;
import org.sparkbeton.format.dataset.PageChecksums;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.fields.BytesField;
import org.sparkbeton.format.fields.FloatField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.verify.BetonVerifier;

class ShardWriterTest {
  @TempDir Path tmp;

  private static final List<BetonField> FIELDS = List.of(new BetonField("blob", BytesField.INSTANCE),
      new BetonField("label", IntField.INSTANCE), new BetonField("w", FloatField.INSTANCE));

  /** The same shards whether their pages are spooled to a file (0), partly (2M: the first page) or all in memory. */
  @ParameterizedTest(name = "spoolMemory {0}")
  @ValueSource(strings = {"0", "2M", "32M"})
  void rollsShardsAtTheTargetSizeWithChecksumsAndStats(String spoolMemory) throws Exception {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    BetonWriteConf conf = BetonWriteConf.parse(Map.of("pageSize", "2M", "targetShardSize", "4M",
        "spoolDir", tmp.toString(), "spoolMemory", spoolMemory));
    Path out = Files.createDirectory(tmp.resolve("out"));
    List<ShardEntry> shards;
    try (ShardWriter w = new ShardWriter(fs, new org.apache.hadoop.fs.Path(out.toUri()), "part-00007-job-a9", FIELDS, conf)) {
      for (int i = 0; i < 100; i++) {
        w.write(new Object[] {new byte[100_000], (long) (i % 10) - 3, i * 0.5});
      }
      shards = w.finish();
    }
    // 100 kB samples: a shard closes after the sample that brings its payload to 4 MiB, its 42nd
    assertThat(shards).extracting(ShardEntry::path).containsExactly("part-00007-job-a9-000.beton",
        "part-00007-job-a9-001.beton", "part-00007-job-a9-002.beton");
    assertThat(shards).extracting(ShardEntry::samples).containsExactly(42L, 42L, 16L);
    // compact: 20 samples behind the 3,147 + 42 x 32 bytes of head and records in page 0, 20 in page 1,
    // the last 2 in page 2, which ends with them; then 42 table entries
    assertThat(shards.get(0).bytes()).isEqualTo(2 * (2L << 20) + 2 * 100_000 + 42 * 24);
    assertThat(shards.get(2).bytes()).isEqualTo(3_147 + 16 * 32 + 16 * 100_000 + 16 * 24);
    long total = 0;
    for (ShardEntry s : shards) {
      Path file = out.resolve(s.path());
      byte[] bytes = Files.readAllBytes(file);
      assertThat(s.bytes()).isEqualTo(bytes.length);
      assertThat(s.checksum().value()).isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)));
      try (BetonReader r = BetonReader.open(file)) {
        assertThat(r.numSamples()).isEqualTo(s.samples());
        assertThat(BetonVerifier.verify(r).problems()).isEmpty();
        // page checksums computed as the bytes streamed out: those of the file on disk
        assertThat(s.pageChecksums()).isEqualTo(PageChecksums.compute(r));
      }
      total += s.samples();
    }
    assertThat(total).isEqualTo(100);
    // shard 0: head, records, the data of pages 0, 1 and 2 (2 MiB pages), the table
    assertThat(shards.get(0).pageChecksums().units()).isEqualTo(6);
    assertThat(shards.get(0).stats("label").min().longValue()).isEqualTo(-3);
    assertThat(shards.get(0).stats("label").max().longValue()).isEqualTo(6);
    assertThat(shards.get(2).stats("w").min().doubleValue()).isEqualTo(42.0);
    assertThat(shards.get(2).stats("w").max().doubleValue()).isEqualTo(49.5);
    try (var spool = Files.list(tmp)) {
      assertThat(spool.filter(p -> p.toString().endsWith(".spool")).count()).as("spool files left").isZero();
    }
    try (var files = Files.list(out)) {
      // the manifest's SHA-256 is the shards' checksum: no hidden .crc files from Hadoop's local file system
      assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrderElementsOf(
          shards.stream().map(ShardEntry::path).toList());
    }
  }

  /** By default (32 MiB of pages in memory) a small shard never touches the spool directory; with 0 it must. */
  @Test
  void aShardThatFitsInMemoryNeedsNoSpoolFile() throws Exception {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    Path missing = tmp.resolve("no-such-spool-dir");
    Path out = Files.createDirectory(tmp.resolve("out"));
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path(out.toUri());
    try (ShardWriter w = new ShardWriter(fs, dir, "part-00001-job-a2", FIELDS,
        BetonWriteConf.parse(Map.of("pageSize", "2M", "spoolDir", missing.toString())))) {
      for (int i = 0; i < 50; i++) {
        w.write(new Object[] {new byte[100_000], 1L, 1.0});
      }
      assertThat(w.finish()).extracting(ShardEntry::samples).containsExactly(50L);
    }
    try (ShardWriter w = new ShardWriter(fs, dir, "part-00002-job-a3", FIELDS,
        BetonWriteConf.parse(Map.of("pageSize", "2M", "spoolDir", missing.toString(), "spoolMemory", "0")))) {
      assertThatThrownBy(() -> {
        for (int i = 0; i < 50; i++) {
          w.write(new Object[] {new byte[100_000], 1L, 1.0});
        }
      }).hasMessageContaining("Writing page 0 of 0 page(s) in memory, then a spool file in " + missing)
          .hasRootCauseInstanceOf(java.nio.file.NoSuchFileException.class);
    }
  }

  /**
   * A shard's file appears when the shard is complete: created when the shard started, it sat in the dataset
   * directory empty for the whole task, seen by globs of *.beton, and left so by a driver killed meanwhile.
   */
  @Test
  void aShardsFileAppearsOnlyWhenTheShardIsComplete() throws Exception {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    Path out = Files.createDirectory(tmp.resolve("out"));
    try (ShardWriter w = new ShardWriter(fs, new org.apache.hadoop.fs.Path(out.toUri()), "part-00003-job-a4", FIELDS,
        BetonWriteConf.parse(Map.of("pageSize", "2M", "spoolDir", tmp.toString())))) {
      for (int i = 0; i < 30; i++) {
        w.write(new Object[] {new byte[100_000], 1L, 1.0});
      }
      try (var files = Files.list(out)) {
        assertThat(files.toList()).as("no file while the shard is written").isEmpty();
      }
      ShardEntry done = w.finish().get(0);
      assertThat(out.resolve(done.path())).hasSize(done.bytes());
    }
  }

  @Test
  void abortDeletesEveryFileOfTheAttempt() throws Exception {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    BetonWriteConf conf = BetonWriteConf.parse(Map.of("pageSize", "2M", "targetShardSize", "2M",
        "spoolDir", tmp.toString()));
    Path out = Files.createDirectory(tmp.resolve("out"));
    ShardWriter w = new ShardWriter(fs, new org.apache.hadoop.fs.Path(out.toUri()), "part-00000-job-a1", FIELDS, conf);
    for (int i = 0; i < 50; i++) {
      w.write(new Object[] {new byte[100_000], 1L, 1.0});
    }
    w.abort();
    try (var files = Files.list(out)) {
      assertThat(files.filter(p -> !p.getFileName().toString().startsWith(".")).toList()).isEmpty();
    }
  }

  /**
   * Under a locale whose digits are not ASCII (Persian here; Arabic, Marathi, Bengali alike) the shard names still
   * carry ASCII digits, so the driver's cleanup and {@code beton gc} read them as this attempt's files.
   */
  @Test
  void shardNamesHaveAsciiDigitsUnderAnyLocale() throws Exception {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    Path out = Files.createDirectory(tmp.resolve("out"));
    Locale before = Locale.getDefault();
    List<ShardEntry> shards;
    try {
      Locale.setDefault(Locale.forLanguageTag("fa-IR"));
      assertThat(String.format("%d", 7)).as("this JVM formats Persian digits under fa-IR").isEqualTo("\u06f7");
      String prefix = BetonDataWriter.shardPrefix("0badc0de", 7, 2);
      try (ShardWriter w = new ShardWriter(fs, new org.apache.hadoop.fs.Path(out.toUri()), prefix, FIELDS,
          BetonWriteConf.parse(Map.of("pageSize", "2M", "spoolDir", tmp.toString())))) {
        w.write(new Object[] {new byte[10], 1L, 0.5});
        shards = w.finish();
      }
    } finally {
      Locale.setDefault(before);
    }
    assertThat(shards).extracting(ShardEntry::path).containsExactly("part-00007-0badc0de-a2-000.beton");
    DatasetFiles.Name name = DatasetFiles.classify(shards.get(0).path(), false);
    assertThat(name).isEqualTo(new DatasetFiles.Name(DatasetFiles.Kind.SHARD, 7, "0badc0de", 2, false));
  }
}
