package org.sparkbeton.loader;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sparkbeton.codec.testing.TestPhotos;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.ReadOptions;
import org.sparkbeton.format.io.ChannelSource;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.DatasetVerifier;
import org.sparkbeton.format.dataset.ManifestField;
import org.sparkbeton.format.dataset.PageChecksums;
import org.sparkbeton.format.dataset.ShardChecksum;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.format.verify.JpegSof;
import org.sparkbeton.format.write.BetonWriter;

/**
 * Dataset directories of real photos ({@link TestPhotos}) with labels, as the Spark writer makes them: shards with
 * 2 MiB pages and a manifest with checksums, page checksums and label min/max; plus the kinds of bad samples the
 * loader must survive.
 */
public final class PhotoDatasets {
  public static final List<BetonField> FIELDS =
      List.of(new BetonField("image", RgbImageField.INSTANCE), new BetonField("label", IntField.INSTANCE));

  private PhotoDatasets() {}

  /** Photo {@code i} of set {@code seed} as a stored JPEG sample with label {@code label}. */
  public static Object[] sample(long seed, int i, long label) {
    byte[] jpeg = TestPhotos.photo(seed, i);
    int[] size = JpegSof.dimensions(ByteBuffer.wrap(jpeg));
    return new Object[] {RgbImage.jpeg(size[0], size[1], jpeg), label};
  }

  public static List<Object[]> samples(long seed, int n) {
    List<Object[]> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(sample(seed, i, i));
    }
    return out;
  }

  /** A JPEG libjpeg refuses: the photo's headers without its scan (no SOS marker), then EOI. */
  public static Object[] undecodable(long seed, int i, long label) {
    RgbImage good = (RgbImage) sample(seed, i, label)[0];
    byte[] jpeg = good.payloadBytes();
    int sos = 2;
    while (!((jpeg[sos] & 0xff) == 0xFF && (jpeg[sos + 1] & 0xff) == 0xDA)) {
      sos += 2 + (((jpeg[sos + 2] & 0xff) << 8) | (jpeg[sos + 3] & 0xff));
    }
    byte[] cut = java.util.Arrays.copyOf(jpeg, sos + 2);
    cut[sos] = (byte) 0xFF;
    cut[sos + 1] = (byte) 0xD9;
    return new Object[] {RgbImage.jpeg(good.width(), good.height(), cut), label};
  }

  /** A real photo whose metadata claims {@code width x height} (the frame says what it really is). */
  public static Object[] lyingSize(long seed, int i, long label, int width, int height) {
    RgbImage good = (RgbImage) sample(seed, i, label)[0];
    return new Object[] {RgbImage.jpeg(width, height, good.payloadBytes()), label};
  }

  /** Writes one shard per list, then the manifest; returns the directory. */
  public static Path write(Path dir, List<List<Object[]>> shards) throws IOException {
    Files.createDirectories(dir);
    List<ShardEntry> entries = new ArrayList<>();
    for (int s = 0; s < shards.size(); s++) {
      String name = String.format("part-%05d.beton", s);
      Path file = dir.resolve(name);
      try (BetonWriter w = BetonWriter.builder(FIELDS).pageSize(1 << 21).open(file)) {
        for (Object[] sample : shards.get(s)) {
          w.append(sample);
        }
        w.finish();
      }
      PageChecksums pages;
      // positional reads, not a mapping: a test counting the process's mappings sees the loader's only
      try (BetonReader r = BetonReader.open(new ChannelSource(file), ReadOptions.defaults())) {
        pages = PageChecksums.compute(r);
      }
      entries.add(new ShardEntry(name, shards.get(s).size(), Files.size(file),
          new ShardChecksum(ShardChecksum.SHA256, DatasetVerifier.checksum(file, ShardChecksum.SHA256)), Map.of(),
          pages));
    }
    DatasetManifest manifest = new DatasetManifest(FIELDS.stream().map(ManifestField::of).toList(), entries, Map.of(),
        "loader tests");
    Files.writeString(dir.resolve(DatasetManifest.FILE_NAME), manifest.toJson());
    return dir;
  }

  public static DatasetManifest manifest(Path dir) throws IOException {
    return DatasetVerifier.manifest(dir);
  }
}
