package org.sparkbeton.spark.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.dataset.CompactionRecord;
import org.sparkbeton.format.dataset.DatasetFiles;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.ManifestField;
import org.sparkbeton.format.dataset.ShardChecksum;
import org.sparkbeton.format.dataset.ShardCompaction;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.fields.IntField;

/**
 * A compaction's publish against the manifest as it is then: runs still listed as planned are replaced (appends made
 * meanwhile kept), a run another compaction changed is left as it is, and nothing replaces a dataset that was itself
 * replaced; the merged shards not published are deleted.
 */
class CompactionCommitTest {
  static final String JOB = "0c0c0c0c";

  @TempDir Path dir;

  static ShardEntry entry(String path, long samples) {
    return new ShardEntry(path, samples, 10 * samples, new ShardChecksum(ShardChecksum.CRC32C, "00000000"), Map.of());
  }

  void publish(String id, ShardEntry... shards) throws Exception {
    Files.writeString(dir.resolve(DatasetManifest.FILE_NAME), new DatasetManifest(
        List.of(ManifestField.of(new BetonField("x", IntField.INSTANCE))), List.of(shards),
        Map.of(DatasetFiles.DATASET_ID, id), "test").toJson());
  }

  DatasetManifest current() throws Exception {
    return DatasetManifest.parse(Files.readString(dir.resolve(DatasetManifest.FILE_NAME)));
  }

  static final ShardEntry A = entry("part-00000-aaaaaaaa-a0-000.beton", 1);
  static final ShardEntry B = entry("part-00001-aaaaaaaa-a0-000.beton", 2);
  static final ShardEntry C = entry("part-00000-bbbbbbbb-a0-000.beton", 3);
  static final ShardEntry D = entry("part-00001-bbbbbbbb-a0-000.beton", 4);
  static final ShardEntry E = entry("part-00000-cccccccc-a0-000.beton", 5);
  static final ShardEntry AB = entry("part-00000-" + JOB + "-a0-000.beton", 3);
  static final ShardEntry CD = entry("part-00002-" + JOB + "-a1-000.beton", 7);
  static final List<ShardCompaction.Group> GROUPS = List.of(new ShardCompaction.Group(0, List.of(A, B)),
      new ShardCompaction.Group(2, List.of(C, D)));

  List<ShardCompaction.Group> commit(String id) throws Exception {
    for (ShardEntry e : List.of(AB, CD)) {
      Files.write(dir.resolve(e.path()), new byte[(int) e.bytes()]);
    }
    FileSystem fs = FileSystem.getLocal(new Configuration());
    return new DatasetPublisher(fs, new org.apache.hadoop.fs.Path(dir.toUri()), 10_000).commitCompaction(JOB, id,
        GROUPS, List.of(AB, CD), 3_600_000);
  }

  List<String> files() throws Exception {
    List<String> out = new ArrayList<>();
    try (var list = Files.list(dir)) {
      list.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".beton")).sorted().forEach(out::add);
    }
    return out;
  }

  @Test
  void theRunsStillListedAreReplacedAndAnAppendMadeMeanwhileIsKept() throws Exception {
    publish("id-1", A, B, C, D, E);
    assertThat(commit("id-1")).isEqualTo(GROUPS);
    DatasetManifest m = current();
    assertThat(m.shards()).containsExactly(AB, CD, E);
    assertThat(m.recipe()).containsEntry(DatasetFiles.DATASET_ID, "id-1");
    assertThat(CompactionRecord.of(m.recipe())).singleElement().satisfies(r -> {
      assertThat(r.job()).isEqualTo(JOB);
      assertThat(r.keepUntilMillis() - r.publishedMillis()).isEqualTo(3_600_000);
      assertThat(r.replaced()).containsExactly(A.path(), B.path(), C.path(), D.path());
    });
    assertThat(files()).contains(AB.path(), CD.path());
  }

  @Test
  void aRunAnotherCompactionChangedIsLeftAsItIsAndItsMergedShardDeleted() throws Exception {
    ShardEntry bc = entry("part-00001-dddddddd-a0-000.beton", 5);
    publish("id-1", A, B, C, D);
    String before = Files.readString(dir.resolve(DatasetManifest.FILE_NAME));
    publish("id-1", A, bc, D); // B and C merged by another job: neither run is listed as planned
    String changed = Files.readString(dir.resolve(DatasetManifest.FILE_NAME));
    assertThat(changed).isNotEqualTo(before);

    assertThat(commit("id-1")).isEmpty();
    assertThat(Files.readString(dir.resolve(DatasetManifest.FILE_NAME))).isEqualTo(changed);
    assertThat(files()).doesNotContain(AB.path(), CD.path());

    publish("id-1", A, B, bc, D); // only the first run as planned
    assertThat(commit("id-1")).containsExactly(GROUPS.get(0));
    assertThat(current().shards()).containsExactly(AB, bc, D);
    assertThat(files()).contains(AB.path()).doesNotContain(CD.path());
  }

  @Test
  void aDatasetReplacedMeanwhileGetsNothing() throws Exception {
    publish("id-2", A, B, C, D); // an overwrite that happens to list the same shards: another identity
    String replaced = Files.readString(dir.resolve(DatasetManifest.FILE_NAME));
    assertThat(commit("id-1")).isEmpty();
    assertThat(Files.readString(dir.resolve(DatasetManifest.FILE_NAME))).isEqualTo(replaced);
    assertThat(files()).doesNotContain(AB.path(), CD.path());
  }
}
