package org.sparkbeton.spark.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.BetonFormatException;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.fields.FloatField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.spark.read.testing.TestDatasets;

class DatasetInputsTest {
  @TempDir Path tmp;
  private final Configuration conf = new Configuration();

  @Test
  void aDirectoryIsItsManifestAndOrphansAreIgnored() throws Exception {
    Path dir = tmp.resolve("ds");
    TestDatasets.writeDataset(dir, TestDatasets.EVERY_FIELD,
        List.of(TestDatasets.everyFieldSamples(0, 5), TestDatasets.everyFieldSamples(5, 8)));
    TestDatasets.writeFile(dir.resolve("part-00009-orphan.beton"), TestDatasets.EVERY_FIELD,
        TestDatasets.everyFieldSamples(0, 2));
    DatasetInputs in = DatasetInputs.resolve(dir.toString(), conf);
    assertThat(in.manifest()).isNotNull();
    assertThat(in.shards()).extracting(DatasetInputs.Shard::samples).containsExactly(5L, 3L);
    assertThat(in.shards()).extracting(s -> Path.of(s.path().replace("file:", "")).getFileName().toString())
        .containsExactly("part-00000.beton", "part-00001.beton");
    assertThat(in.shards().get(1).stats().get("label").min()).isEqualTo(5L);
    assertThat(in.fields()).hasSize(7);
  }

  @Test
  void shardPathsJoinAsHadoopsPathWouldJoinThem() {
    for (String dir : List.of("file:/tmp/data/set", "hdfs://nn:8020/data/x", "s3a://bucket/a/b", "/plain/dir",
        "file:/", "file:/tmp/a b")) {
      org.apache.hadoop.fs.Path d = new org.apache.hadoop.fs.Path(dir);
      for (String name : List.of("part-00000-366d308d-a21-000.beton", "a.b_c-D9.beton", "sub/x.beton", "a b.beton",
          "a%20b.beton", ".hidden.beton", "..", "é.beton")) {
        assertThat(DatasetInputs.childPath(d, d.toString(), name)).as(dir + " + " + name)
            .isEqualTo(new org.apache.hadoop.fs.Path(d, name).toString());
      }
    }
  }

  @Test
  void aFileIsDescribedByItsHeaderAlone() {
    Path file = TestDatasets.writeFile(tmp.resolve("one.beton"), TestDatasets.EVERY_FIELD,
        TestDatasets.everyFieldSamples(0, 4));
    DatasetInputs in = DatasetInputs.resolve(file.toString(), conf);
    assertThat(in.manifest()).isNull();
    assertThat(in.shards()).singleElement().satisfies(s -> {
      assertThat(s.samples()).isEqualTo(4);
      assertThat(s.listedInManifest()).isFalse();
    });
    assertThat(in.fields().get(5).dtype()).isEqualTo("<f4");
    assertThat(in.fields().get(6).shape()).containsExactly(4);
  }

  /** What each query of an old DataFrame reads: the dataset as it is now, re-read only when it changed. */
  @Test
  void currentReadsADatasetAgainOnlyOnceItChanged() throws Exception {
    Path dir = tmp.resolve("ds");
    Path other = tmp.resolve("other");
    TestDatasets.writeDataset(dir, TestDatasets.EVERY_FIELD, List.of(TestDatasets.everyFieldSamples(0, 5)));
    TestDatasets.writeDataset(other, TestDatasets.EVERY_FIELD, List.of(TestDatasets.everyFieldSamples(0, 2)));
    DatasetInputs one = DatasetInputs.resolve(dir.toString(), conf);
    DatasetInputs both = DatasetInputs.resolve(List.of(dir.toString(), other.toString()), conf);
    assertThat(one.current(conf)).isSameAs(one);
    assertThat(both.current(conf)).isSameAs(both);

    // rewritten as an overwrite would: another manifest, other shards
    TestDatasets.writeDataset(dir, TestDatasets.EVERY_FIELD,
        List.of(TestDatasets.everyFieldSamples(0, 3), TestDatasets.everyFieldSamples(3, 11)));
    DatasetInputs now = one.current(conf);
    assertThat(now).isNotSameAs(one);
    assertThat(now.totalSamples()).isEqualTo(11);
    assertThat(now.shards()).hasSize(2);
    assertThat(now.current(conf)).isSameAs(now);
    DatasetInputs bothNow = both.current(conf);
    assertThat(bothNow.totalSamples()).isEqualTo(11 + 2);
    assertThat(bothNow.root()).isEqualTo(both.root());

    // the same bytes with a new modification time count as a change too (a manifest rewritten to the same length)
    Path manifest = dir.resolve(DatasetManifest.FILE_NAME);
    Files.setLastModifiedTime(manifest, java.nio.file.attribute.FileTime.fromMillis(
        Files.getLastModifiedTime(manifest).toMillis() - 5_000));
    assertThat(now.current(conf)).isNotSameAs(now).satisfies(again -> assertThat(again.totalSamples()).isEqualTo(11));

    // a .beton file replaced by another
    Path file = TestDatasets.writeFile(tmp.resolve("one.beton"), TestDatasets.EVERY_FIELD,
        TestDatasets.everyFieldSamples(0, 4));
    DatasetInputs single = DatasetInputs.resolve(file.toString(), conf);
    assertThat(single.current(conf)).isSameAs(single);
    TestDatasets.writeFile(file, TestDatasets.EVERY_FIELD, TestDatasets.everyFieldSamples(0, 9));
    assertThat(single.current(conf).totalSamples()).isEqualTo(9);

    // gone: the same message as a load() of a path that does not exist
    for (String name : List.of("ds", "other")) {
      try (var files = Files.walk(tmp.resolve(name))) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
    assertThatThrownBy(() -> one.current(conf)).hasMessageContaining("Path does not exist");
  }

  @Test
  void aMissingPathStartingWithTildeSaysHadoopDoesNotExpandIt() {
    assertThatThrownBy(() -> DatasetInputs.resolve("~/no-such-dataset-here", conf))
        .hasMessage("Path does not exist: ~/no-such-dataset-here (~ is a file name to Hadoop, not the home directory:"
            + " write " + System.getProperty("user.home") + "/no-such-dataset-here)");
  }

  /** What a write named with glob characters ({@code save("imagenet[256]")}) reads back by that name. */
  @Test
  void aPathThatExistsAsWrittenIsNotAGlob() throws Exception {
    // each name beside what it matches as a glob, a dataset of other samples
    for (List<String> pair : List.of(List.of("ds[1]", "ds1"), List.of("ds{a,b}", "dsa"), List.of("ds?", "dsx"))) {
      Path dir = tmp.resolve(pair.get(0));
      TestDatasets.writeDataset(dir, TestDatasets.EVERY_FIELD, List.of(TestDatasets.everyFieldSamples(0, 3)));
      TestDatasets.writeDataset(tmp.resolve(pair.get(1)), TestDatasets.EVERY_FIELD,
          List.of(TestDatasets.everyFieldSamples(0, 7)));
      DatasetInputs in = DatasetInputs.resolve(dir.toString(), conf);
      assertThat(in.manifest()).as(pair.get(0)).isNotNull();
      assertThat(in.totalSamples()).as(pair.get(0)).isEqualTo(3);
    }
    // a name that does not exist as written is a glob, as before: ds1 and dsx
    assertThat(DatasetInputs.resolve(tmp + "/ds[1x]", conf).totalSamples()).isEqualTo(7 + 7);
  }

  @Test
  void aGlobNeedsIdenticalFields() {
    List<BetonField> a = List.of(new BetonField("label", IntField.INSTANCE));
    List<BetonField> b = List.of(new BetonField("label", FloatField.INSTANCE));
    TestDatasets.writeFile(tmp.resolve("x1.beton"), a, List.<Object[]>of(new Object[] {1L}));
    TestDatasets.writeFile(tmp.resolve("x2.beton"), a, List.<Object[]>of(new Object[] {2L}, new Object[] {3L}));
    DatasetInputs in = DatasetInputs.resolve(tmp + "/x*.beton", conf);
    assertThat(in.shards()).extracting(DatasetInputs.Shard::samples).containsExactly(1L, 2L);
    TestDatasets.writeFile(tmp.resolve("x3.beton"), b, List.<Object[]>of(new Object[] {2.0}));
    assertThatThrownBy(() -> DatasetInputs.resolve(tmp + "/x*.beton", conf))
        .hasMessageContaining("have different fields").hasMessageContaining("x3.beton");
    assertThatThrownBy(() -> DatasetInputs.resolve(tmp + "/nothing*.beton", conf)).hasMessageContaining("matches no files");
  }

  @Test
  void explainsWhatIsMissingOrBroken() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("empty"));
    assertThatThrownBy(() -> DatasetInputs.resolve(dir.toString(), conf))
        .hasMessageContaining("has no _manifest.json").hasMessageContaining("no committed dataset");
    assertThatThrownBy(() -> DatasetInputs.resolve(tmp.resolve("absent").toString(), conf))
        .hasMessageContaining("Path does not exist");
    Files.writeString(dir.resolve(DatasetManifest.FILE_NAME), "{\"format\": \"beton-dataset\",}");
    assertThatThrownBy(() -> DatasetInputs.resolve(dir.toString(), conf))
        .hasMessageContaining("_manifest.json: Malformed manifest JSON at offset 27");
    Path junk = Files.write(tmp.resolve("junk.beton"), new byte[] {2, 0, 1});
    assertThatThrownBy(() -> DatasetInputs.resolve(junk.toString(), conf))
        .isInstanceOf(BetonFormatException.class).hasMessageContaining("junk.beton: header at offset 0");
  }
}
