package org.sparkbeton.loader.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.write.BetonWriter;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.decoders.IntDecoder;

class DatasetDirectoryTest {
  private static final List<BetonField> FIELDS = List.of(new BetonField("label", IntField.INSTANCE));

  @TempDir Path tmp;

  /** Shards named so that their manifest order (2, 0, 1) differs from their name order. */
  private Path dataset(Map<String, Long> samplesClaimed) throws Exception {
    Path dir = tmp.resolve("ds");
    Files.createDirectories(dir);
    List<ShardEntry> entries = new ArrayList<>();
    for (String name : List.of("part-2.beton", "part-0.beton", "part-1.beton")) {
      Path file = dir.resolve(name);
      int n = name.charAt(5) - '0' + 2;
      try (BetonWriter w = BetonWriter.builder(FIELDS).pageSize(1 << 21).open(file)) {
        for (int i = 0; i < n; i++) {
          w.append((long) i);
        }
        w.finish();
      }
      entries.add(new ShardEntry(name, samplesClaimed.getOrDefault(name, (long) n), Files.size(file),
          new ShardChecksum(ShardChecksum.SHA256, DatasetVerifier.checksum(file, ShardChecksum.SHA256)), Map.of()));
    }
    Files.writeString(dir.resolve(DatasetManifest.FILE_NAME), new DatasetManifest(
        FIELDS.stream().map(ManifestField::of).toList(), entries, Map.of(), "test").toJson());
    return dir;
  }

  @Test
  void listsTheManifestsShardsInItsOrderAndIgnoresOrphans() throws Exception {
    Path dir = dataset(Map.of());
    Files.writeString(dir.resolve("part-9-orphan.beton"), "never opened");
    assertThat(DatasetDirectory.shardFiles(dir)).containsExactly(dir.resolve("part-2.beton"),
        dir.resolve("part-0.beton"), dir.resolve("part-1.beton"));
  }

  @Test
  void refusesWhatTheManifestDoesNotMatch() throws Exception {
    Path dir = dataset(Map.of("part-1.beton", 7L));
    // the sample count is checked on the shards as the loader opens them, not by reading each header while listing
    assertThat(DatasetDirectory.shardFiles(dir)).hasSize(3);
    assertThatThrownBy(() -> Loader.builder(dir).batchSize(2).pipeline("label", new IntDecoder()).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Dataset " + dir + ": part-1.beton holds 3 samples but the manifest says 7 (run `beton verify "
            + dir + "`)");
    Files.write(dir.resolve("part-2.beton"), new byte[] {1, 2, 3}, java.nio.file.StandardOpenOption.APPEND);
    assertThatThrownBy(() -> DatasetDirectory.shardFiles(dir))
        .hasMessageContaining("part-2.beton is " + (Files.size(dir.resolve("part-2.beton"))) + " bytes but the"
            + " manifest says " + (Files.size(dir.resolve("part-2.beton")) - 3));
    dataset(Map.of()); // written again, as the manifest says
    Files.delete(dir.resolve("part-0.beton"));
    assertThatThrownBy(() -> DatasetDirectory.shardFiles(dir))
        .hasMessageContaining("the manifest lists part-0.beton, which does not exist");
    assertThatThrownBy(() -> DatasetDirectory.shardFiles(tmp))
        .hasMessageContaining("has no _manifest.json");
  }
}
