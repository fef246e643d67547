package org.sparkbeton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.DatasetVerifier;
import org.sparkbeton.format.dataset.ManifestField;
import org.sparkbeton.format.dataset.ShardChecksum;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.fields.BytesField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.write.BetonWriter;

/** {@code beton verify DIR}: a dataset directory checked against its manifest. */
class VerifyDatasetTest {
  private static final List<BetonField> FIELDS = List.of(new BetonField("label", IntField.INSTANCE),
      new BetonField("blob", BytesField.INSTANCE));

  @TempDir Path tmp;

  private Path dataset(int shards) throws Exception {
    Path dir = tmp.resolve("ds");
    Files.createDirectories(dir);
    List<ShardEntry> entries = new ArrayList<>();
    for (int s = 0; s < shards; s++) {
      String name = "part-0000" + s + ".beton";
      Path file = dir.resolve(name);
      try (BetonWriter w = BetonWriter.builder(FIELDS).pageSize(1 << 21).open(file)) {
        for (int i = 0; i < 5; i++) {
          w.append((long) (s * 10 + i), new byte[] {(byte) i, 1, 2});
        }
        w.finish();
      }
      entries.add(new ShardEntry(name, 5, Files.size(file),
          new ShardChecksum(ShardChecksum.SHA256, DatasetVerifier.checksum(file, ShardChecksum.SHA256)), Map.of()));
    }
    List<ManifestField> fields = FIELDS.stream().map(ManifestField::of).toList();
    Files.writeString(dir.resolve(DatasetManifest.FILE_NAME),
        new DatasetManifest(fields, entries, Map.of(), "test").toJson());
    return dir;
  }

  @Test
  void aCommandThatReadsOneFileNamesTheDirectorysFirstShardInspectAndVerify() throws Exception {
    Path dir = dataset(3);
    Cli.Result r = Cli.run("dump", dir);
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines()).containsExactly("beton: " + dir + ": is a directory, expected a .beton file; it is a"
        + " dataset directory of 3 shards and 15 samples: name one of its shards (the first is "
        + dir.resolve("part-00000.beton") + "); `beton inspect " + dir + "` describes the dataset, `beton verify "
        + dir + "` checks every shard");
  }

  @Test
  void aSoundDatasetIsOk() throws Exception {
    Path dir = dataset(3);
    Files.writeString(dir.resolve("part-00009-orphan.beton"), "not listed, not read");
    Cli.Result r = Cli.run("verify", dir);
    assertThat(r.exitCode()).as(r.out()).isZero();
    assertThat(r.outLines()).containsExactly(dir + ": OK (3 shards, 15 samples)");
  }

  @Test
  void missingAndAlteredShardsAreReported() throws Exception {
    Path dir = dataset(3);
    Files.delete(dir.resolve("part-00001.beton"));
    Path altered = dir.resolve("part-00002.beton");
    byte[] bytes = Files.readAllBytes(altered);
    bytes[bytes.length - 1] ^= 1; // inside the allocation table: the size stays, the checksum does not
    Files.write(altered, bytes);

    Cli.Result r = Cli.run("verify", dir);

    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.out()).contains(dir.resolve("part-00001.beton") + ": FAILED, 1 problem")
        .contains("missing: the manifest lists it")
        .contains(altered + ": FAILED").contains("sha256 is ")
        .contains(dir + ": FAILED (3 shards, 15 samples)");
    assertThat(r.out()).doesNotContain("part-00000.beton: FAILED");
  }

  @Test
  void aDirectoryWithoutManifestIsAUsageError() {
    Cli.Result r = Cli.run("verify", tmp);
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("has no _manifest.json: not a dataset directory");
  }

  @Test
  void aDamagedManifestIsAProblemOfTheDatasetAndTheOtherInputsAreStillChecked() throws Exception {
    Path dir = dataset(2);
    Path manifest = dir.resolve("_manifest.json");
    Files.writeString(manifest, Files.readString(manifest).replace("\"samples\": 5", "\"samples\": 4"));
    Path file = dir.resolve("part-00000.beton");

    Cli.Result r = Cli.run("verify", dir, file);

    assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
    assertThat(r.err()).isEmpty();
    assertThat(r.outLines()).hasSize(3);
    assertThat(r.outLines().get(0)).isEqualTo(dir + ": FAILED, its manifest cannot be read or trusted, so no shard"
        + " was checked");
    assertThat(r.outLines().get(1)).startsWith("  - " + manifest + ": Invalid manifest at ");
    assertThat(r.outLines().get(2)).isEqualTo(file + ": OK (5 samples, 5 allocations, 1 page)");

    Files.writeString(manifest, "not json");
    Cli.Result garbage = Cli.run("verify", dir);
    assertThat(garbage.exitCode()).isEqualTo(1);
    assertThat(garbage.outLines().get(1)).startsWith("  - " + manifest + ": Malformed manifest JSON at offset 0: ");
  }

  @Test
  void missingPathsAndDirectoriesWithoutManifestAreRefusedBeforeAnyInputIsChecked() throws Exception {
    Path dir = dataset(1);
    Path missing = tmp.resolve("nope");
    Path empty = Files.createDirectories(tmp.resolve("empty"));

    Cli.Result r = Cli.run("verify", dir, missing, dir.resolve("part-00000.beton"));
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.out()).as("nothing checked").isEmpty();
    assertThat(r.errLines()).containsExactly("beton: " + missing + ": no such file");

    Cli.Result noManifest = Cli.run("verify", dir, empty);
    assertThat(noManifest.exitCode()).isEqualTo(2);
    assertThat(noManifest.out()).as("nothing checked").isEmpty();
    assertThat(noManifest.errLines()).containsExactly("beton: " + empty + " has no _manifest.json: not a dataset"
        + " directory; verify takes a .beton file, or a dataset directory as Spark writes it (with its"
        + " _manifest.json)");
  }
}
