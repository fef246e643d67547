package org.sparkbeton.loader.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.fields.BytesField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.loader.testing.ShardDirs;

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

  /** {@code shards} shards of {@code perShard} samples with blobs of {@code blobBytes} bytes, in {@code dir}. */
  static Path write(Path dir, int shards, int perShard, int blobBytes) throws IOException {
    int[] samples = new int[shards];
    Arrays.fill(samples, perShard);
    return ShardDirs.write(dir, FIELDS, samples, (w, g) -> w.append((long) g, blob(g, blobBytes)));
  }
}
