package org.sparkbeton.loader.hadoop;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;
import org.sparkbeton.codec.testing.TestPhotos;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.format.verify.JpegSof;
import org.sparkbeton.loader.testing.ShardDirs;

/**
 * Dataset directories as the Spark writer lays them out (shards {@code part-NNNNN.beton} plus a manifest
 * with their SHA-256s) of real photos ({@link TestPhotos}, stored as JPEG) and an Int label per sample.
 */
final class PhotoShards {
  static final List<BetonField> FIELDS = List.of(new BetonField("image", RgbImageField.INSTANCE),
      new BetonField("label", IntField.INSTANCE));

  private PhotoShards() {}

  /**
   * Shard i holds {@code samples[i]} samples; global sample g gets label {@code label(g)} and photo
   * {@code g % distinctPhotos} of set {@code seed} (photos repeat to keep writing fast).
   */
  static Path write(Path dir, int[] samples, IntUnaryOperator label, int distinctPhotos, long seed) throws IOException {
    List<RgbImage> photos = new ArrayList<>();
    for (int i = 0; i < distinctPhotos; i++) {
      byte[] jpeg = TestPhotos.photo(seed, i);
      int[] wh = JpegSof.dimensions(ByteBuffer.wrap(jpeg));
      photos.add(RgbImage.jpeg(wh[0], wh[1], jpeg));
    }
    return ShardDirs.write(dir, FIELDS, samples,
        (w, g) -> w.append(photos.get(g % distinctPhotos), (long) label.applyAsInt(g)));
  }

  /** {@code shards} shards of {@code perShard} samples, labels = global index. */
  static Path write(Path dir, int shards, int perShard, int distinctPhotos) throws IOException {
    int[] samples = new int[shards];
    java.util.Arrays.fill(samples, perShard);
    return write(dir, samples, g -> g, distinctPhotos, 7);
  }
}
