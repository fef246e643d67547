package org.sparkbeton.loader.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.DatasetVerifier;
import org.sparkbeton.format.dataset.ManifestField;
import org.sparkbeton.format.dataset.ShardChecksum;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.fields.BytesField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.write.BetonWriter;

/**
 * Dataset directories of several shards, as the Spark writer lays them out (shards plus a manifest with
 * SHA-256s): sample g (global index) has label g and a blob of random bytes derived from g, so a test can
 * check which samples came and that their bytes are intact. Not image work: the stager moves bytes.
 */
final class ShardedDatasets {
  static final List<BetonField> FIELDS = List.of(new BetonField("label", IntField.INSTANCE),
      new BetonField("blob", BytesField.INSTANCE));

  private ShardedDatasets() {}

  static byte[] blob(long g, int bytes) {
    SplittableRandom r = new SplittableRandom(g * 0x9E3779B97F4A7C15L + 17);
    byte[] b = new byte[bytes];
    r.nextBytes(b);
    return b;
  }

  static String shardName(int i) {
    return String.format("part-%05d.beton", i);
  }

  /** {@code shards} shards of {@code perShard} samples with blobs of {@code blobBytes} bytes, in {@code dir}. */
  static Path write(Path dir, int shards, int perShard, int blobBytes) throws IOException {
    Files.createDirectories(dir);
    List<ShardEntry> entries = new ArrayList<>();
    for (int i = 0; i < shards; i++) {
      Path file = dir.resolve(shardName(i));
      try (BetonWriter w = BetonWriter.builder(FIELDS).pageSize(2 << 20).open(file)) {
        for (int j = 0; j < perShard; j++) {
          long g = (long) i * perShard + j;
          w.append(g, blob(g, blobBytes));
        }
        w.finish();
      }
      entries.add(new ShardEntry(shardName(i), perShard, Files.size(file),
          new ShardChecksum(ShardChecksum.SHA256, DatasetVerifier.checksum(file, ShardChecksum.SHA256)), Map.of()));
    }
    Files.writeString(dir.resolve(DatasetManifest.FILE_NAME), new DatasetManifest(
        FIELDS.stream().map(ManifestField::of).toList(), entries, Map.of(), "test").toJson());
    return dir;
  }

  /** Bytes of the largest shard. */
  static long largestShard(Path dir) throws IOException {
    long max = 0;
    for (ShardEntry e : DatasetVerifier.manifest(dir).shards()) {
      max = Math.max(max, e.bytes());
    }
    return max;
  }

  /** Bytes the cache directory's shards and downloads occupy on disk now. */
  static long diskBytes(Path cacheDir) throws IOException {
    if (!Files.isDirectory(cacheDir)) {
      return 0;
    }
    long total = 0;
    try (var files = Files.list(cacheDir)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        String name = f.getFileName().toString();
        if (name.endsWith(".beton") || name.endsWith(".part")) {
          try {
            total += Files.size(f);
          } catch (java.nio.file.NoSuchFileException gone) {
            // evicted while we listed
          }
        }
      }
    }
    return total;
  }
}
