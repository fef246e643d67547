package org.sparkbeton.format.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.fields.BytesField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.write.BetonWriter;
import org.sparkbeton.format.write.PageLayout;

class ShardCompactionTest {
  static final List<BetonField> FIELDS = List.of(new BetonField("id", IntField.INSTANCE),
      new BetonField("blob", BytesField.INSTANCE));

  @TempDir Path tmp;

  static ShardEntry entry(String path, long samples, long bytes) {
    return new ShardEntry(path, samples, bytes, new ShardChecksum(ShardChecksum.CRC32C, "00000000"), Map.of());
  }

  @Test
  void runsOfSmallShardsUpToTheTargetAreGroupedInOrder() {
    List<ShardEntry> shards = List.of(entry("a", 1, 40), entry("b", 1, 40), entry("c", 1, 30), entry("d", 1, 100),
        entry("e", 1, 150), entry("f", 1, 60), entry("g", 1, 50), entry("h", 1, 10));
    List<ShardCompaction.Group> groups = ShardCompaction.plan(shards, 100);

    // c would make a+b 110; c+d 130; d and e are at or over it; f+g 110; g+h 60
    assertThat(groups).extracting(ShardCompaction.Group::first).containsExactly(0, 6);
    assertThat(groups.get(0).paths()).containsExactly("a", "b");
    assertThat(groups.get(1).paths()).containsExactly("g", "h");
    assertThat(groups.get(1).bytes()).isEqualTo(60);
  }

  @Test
  void aLongRunIsMergedIntoSeveralOfAtMostMaxRunShards() {
    List<ShardEntry> shards = new ArrayList<>();
    for (int i = 0; i < 1_203; i++) {
      shards.add(entry("s" + i, 1, 10));
    }
    assertThat(ShardCompaction.plan(shards, 1L << 30)).extracting(g -> g.shards().size())
        .containsExactly(500, 500, 203);
  }

  @Test
  void aShardAtTheTargetAndOneAloneAreLeftAsTheyAre() {
    assertThat(ShardCompaction.plan(List.of(entry("a", 1, 100), entry("b", 1, 100)), 100)).isEmpty();
    assertThat(ShardCompaction.plan(List.of(entry("a", 1, 10)), 100)).isEmpty();
    assertThat(ShardCompaction.plan(List.of(), 100)).isEmpty();
    assertThatThrownBy(() -> ShardCompaction.plan(List.of(), 0)).hasMessageContaining("must be positive");
  }

  Path shard(String name, long firstId, int samples) throws IOException {
    Path p = tmp.resolve(name);
    try (BetonWriter w = BetonWriter.builder(FIELDS).pageSize(1 << 21).pageLayout(PageLayout.COMPACT).open(p)) {
      for (long id = firstId; id < firstId + samples; id++) {
        w.append(id, new byte[(int) (100 + id)]);
      }
      w.finish();
    }
    return p;
  }

  ShardEntry listed(Path file, long samples, ColumnStats ids) throws IOException {
    return new ShardEntry(file.getFileName().toString(), samples, Files.size(file), new ShardChecksum(
        ShardChecksum.SHA256, DatasetVerifier.checksum(file, ShardChecksum.SHA256)), Map.of("id", ids));
  }

  @Test
  void mergedShardsHoldEverySampleInOrderAndTheEntryDescribesTheFile() throws IOException {
    List<Path> files = List.of(shard("s0.beton", 0, 3), shard("s1.beton", 3, 5), shard("s2.beton", 8, 2));
    List<ShardEntry> entries = new ArrayList<>(List.of(listed(files.get(0), 3, ColumnStats.ofLongs(0, 2)),
        listed(files.get(1), 5, ColumnStats.ofLongs(3, 7)), listed(files.get(2), 2, ColumnStats.ofLongs(8, 9))));
    ShardCompaction.Group group = new ShardCompaction.Group(4, entries);
    Path out = tmp.resolve("merged.beton");

    ShardEntry merged = ShardCompaction.merge(group, files, out, "part-00004-0c0c0c0c-a0-000.beton");

    assertThat(merged.path()).isEqualTo("part-00004-0c0c0c0c-a0-000.beton");
    assertThat(merged.samples()).isEqualTo(10);
    assertThat(merged.bytes()).isEqualTo(Files.size(out));
    assertThat(merged.stats()).isEqualTo(Map.of("id", ColumnStats.ofLongs(0, 9)));
    assertThat(merged.checksum().value()).isEqualTo(DatasetVerifier.checksum(out, ShardChecksum.SHA256));
    try (BetonReader r = BetonReader.open(out)) {
      assertThat(merged.pageChecksums()).isEqualTo(PageChecksums.compute(r));
      for (long i = 0; i < 10; i++) {
        assertThat(r.intValue(i, 0)).isEqualTo(i);
        assertThat((byte[]) r.value(i, 1)).hasSize((int) (100 + i));
      }
    }
    DatasetManifest m = new DatasetManifest(FIELDS.stream().map(ManifestField::of).toList(), List.of(merged),
        Map.of(), "test");
    assertThat(DatasetVerifier.verifyShardFile(out, m, merged).problems()).isEmpty();
  }

  @Test
  void boundsOfAFieldSomeShardLacksAreLeftOutAndNanIsKept() {
    ShardEntry a = new ShardEntry("a", 1, 1, new ShardChecksum(ShardChecksum.CRC32C, "00000000"),
        Map.of("x", ColumnStats.ofDoubles(1, 2, false), "y", ColumnStats.ofLongs(5, 6)));
    ShardEntry b = new ShardEntry("b", 1, 1, new ShardChecksum(ShardChecksum.CRC32C, "00000000"),
        Map.of("x", ColumnStats.ofDoubles(-3, 0.5, true)));
    assertThat(ShardCompaction.mergedStats(List.of(a, b))).isEqualTo(Map.of("x", ColumnStats.ofDoubles(-3, 2, true)));
  }

  @Test
  void aCopyThatIsNotTheListedShardIsRefused() throws IOException {
    List<Path> files = List.of(shard("t0.beton", 0, 3), shard("t1.beton", 3, 4));
    ShardCompaction.Group group = new ShardCompaction.Group(0, List.of(listed(files.get(0), 3,
        ColumnStats.ofLongs(0, 2)), listed(files.get(1), 5, ColumnStats.ofLongs(3, 7))));
    assertThatThrownBy(() -> ShardCompaction.merge(group, files, tmp.resolve("m.beton"), "m.beton"))
        .hasMessage("shard t1.beton holds 4 samples; the manifest lists 5: not the shard the manifest describes, so"
            + " it is not merged");
  }

  @Test
  void aShardDamagedSinceItWasWrittenIsRefusedNotMerged() throws IOException {
    List<Path> files = List.of(shard("d0.beton", 0, 3), shard("d1.beton", 3, 5));
    List<ShardEntry> entries = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      ShardEntry e = listed(files.get(i), i == 0 ? 3 : 5, ColumnStats.ofLongs(0, 7));
      try (BetonReader r = BetonReader.open(files.get(i))) {
        entries.add(new ShardEntry(e.path(), e.samples(), e.bytes(), e.checksum(), e.stats(), PageChecksums.compute(r)));
      }
    }
    byte[] bytes = Files.readAllBytes(files.get(1));
    PageChecksums sums = entries.get(1).pageChecksums();
    bytes[(int) sums.unitStart(sums.dataUnit(0)) + 10] ^= 0x10; // a payload byte: unchecked, the merge copies it
    Files.write(files.get(1), bytes);
    ShardCompaction.Group group = new ShardCompaction.Group(0, entries);
    assertThatThrownBy(() -> ShardCompaction.merge(group, files, tmp.resolve("dm.beton"), "dm.beton"))
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("d1.beton: page 0 (data region")
        .hasMessageContaining("the shard changed after it was written")
        .hasMessageEndingWith("; so nothing is merged (beton verify names every damaged shard)");

    // a manifest without page checksums: the SHA-256 of the whole file
    ShardCompaction.Group unpaged = new ShardCompaction.Group(0, List.of(listed(files.get(0), 3,
        ColumnStats.ofLongs(0, 2)), new ShardEntry("d1.beton", 5, bytes.length, entries.get(1).checksum(),
        Map.of("id", ColumnStats.ofLongs(3, 7)))));
    assertThatThrownBy(() -> ShardCompaction.merge(unpaged, files, tmp.resolve("du.beton"), "du.beton"))
        .hasMessageStartingWith("shard d1.beton has sha256 ")
        .hasMessageEndingWith(": it changed after it was written, so it is not merged (beton verify names the"
            + " damage)");
  }
}
