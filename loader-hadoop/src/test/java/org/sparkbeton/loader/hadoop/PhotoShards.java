package org.sparkbeton.loader.hadoop;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntUnaryOperator;
import org.sparkbeton.codec.testing.TestPhotos;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.DatasetVerifier;
import org.sparkbeton.format.dataset.ManifestField;
import org.sparkbeton.format.dataset.ShardChecksum;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.format.verify.JpegSof;
import org.sparkbeton.format.write.BetonWriter;

/**
 * Dataset directories as the Spark writer lays them out (shards {@code part-NNNNN.beton} plus a manifest
 * with their SHA-256s) of real photos ({@link TestPhotos}, stored as JPEG) and an Int label per sample.
 */
final class PhotoShards {
  static final List<BetonField> FIELDS = List.of(new BetonField("image", RgbImageField.INSTANCE),
      new BetonField("label", IntField.INSTANCE));

  private PhotoShards() {}

  static String shardName(int i) {
    return String.format("part-%05d.beton", i);
  }

  /**
   * Shard i holds {@code samples[i]} samples; global sample g gets label {@code label(g)} and photo
   * {@code g % distinctPhotos} of set {@code seed} (photos repeat to keep writing fast).
   */
  static Path write(Path dir, int[] samples, IntUnaryOperator label, int distinctPhotos, long seed) throws IOException {
    Files.createDirectories(dir);
    List<RgbImage> photos = new ArrayList<>();
    for (int i = 0; i < distinctPhotos; i++) {
      byte[] jpeg = TestPhotos.photo(seed, i);
      int[] wh = JpegSof.dimensions(ByteBuffer.wrap(jpeg));
      photos.add(RgbImage.jpeg(wh[0], wh[1], jpeg));
    }
    List<ShardEntry> entries = new ArrayList<>();
    int g = 0;
    for (int i = 0; i < samples.length; i++) {
      Path file = dir.resolve(shardName(i));
      try (BetonWriter w = BetonWriter.builder(FIELDS).pageSize(2 << 20).open(file)) {
        for (int j = 0; j < samples[i]; j++, g++) {
          w.append(photos.get(g % distinctPhotos), (long) label.applyAsInt(g));
        }
        w.finish();
      }
      entries.add(new ShardEntry(shardName(i), samples[i], Files.size(file),
          new ShardChecksum(ShardChecksum.SHA256, DatasetVerifier.checksum(file, ShardChecksum.SHA256)), Map.of()));
    }
    Files.writeString(dir.resolve(DatasetManifest.FILE_NAME), new DatasetManifest(
        FIELDS.stream().map(ManifestField::of).toList(), entries, Map.of(), "test").toJson());
    return dir;
  }

  /** {@code shards} shards of {@code perShard} samples, labels = global index. */
  static Path write(Path dir, int shards, int perShard, int distinctPhotos) throws IOException {
    int[] samples = new int[shards];
    java.util.Arrays.fill(samples, perShard);
    return write(dir, samples, g -> g, distinctPhotos, 7);
  }

  static long largestShard(Path dir) throws IOException {
    return DatasetVerifier.manifest(dir).shards().stream().mapToLong(ShardEntry::bytes).max().orElse(0);
  }

  static long totalBytes(Path dir) throws IOException {
    return DatasetVerifier.manifest(dir).shards().stream().mapToLong(ShardEntry::bytes).sum();
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
