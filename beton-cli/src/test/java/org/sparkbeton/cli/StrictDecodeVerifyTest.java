package org.sparkbeton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.codec.testing.CorruptionCorpus;
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
import org.sparkbeton.format.write.BetonWriter;

/**
 * {@code verify --decode} is strict: a JPEG libjpeg reports as corrupt fails it, in a file and in a dataset
 * directory, and so does a frame header that lies about the size (stored with metadata that agrees with the lie, as
 * a writer without checks stores it), without decoding the lie in full.
 */
class StrictDecodeVerifyTest {
  private static final List<BetonField> FIELDS = List.of(new BetonField("image", RgbImageField.INSTANCE),
      new BetonField("label", IntField.INSTANCE));

  @TempDir Path tmp;

  /** Photo {@code i} cut in the middle of its scan, then given an end-of-image marker: whole as a structure. */
  static byte[] cutWithEoi(int i) {
    byte[] photo = TestPhotos.photo(5, i);
    int cut = (CorruptionCorpus.scanStart(photo) + photo.length) / 2;
    byte[] b = Arrays.copyOf(photo, cut + 2);
    b[cut] = (byte) 0xFF;
    b[cut + 1] = (byte) 0xD9;
    return b;
  }

  /** A file of photos 0..3 of set 5, with {@code bad} as sample 2 (its metadata size read from its header). */
  Path file(String name, byte[] bad) throws Exception {
    Path file = tmp.resolve(name);
    try (BetonWriter w = BetonWriter.builder(FIELDS).pageSize(1 << 21).open(file)) {
      for (int i = 0; i < 4; i++) {
        byte[] jpeg = i == 2 ? bad : TestPhotos.photo(5, i);
        int[] wh = CorruptionCorpus.sofSize(jpeg);
        w.append(RgbImage.jpeg(wh[0], wh[1], jpeg), (long) i);
      }
      w.finish();
    }
    return file;
  }

  @Test
  void aJpegLibjpegCallsCorruptFailsTheDecodeCheck() throws Exception {
    Path file = file("cut.beton", cutWithEoi(2));
    assertThat(Cli.run("verify", file).exitCode()).as("its structure is sound").isZero();
    Cli.Result r = Cli.run("verify", "--decode", file);
    assertThat(r.exitCode()).as(r.out()).isEqualTo(1);
    assertThat(r.outLines()).containsExactly(file + ": FAILED, 1 problem (4 samples, 4 allocations, 1 page, 3 JPEGs"
        + " decoded)", "  - sample 2 field 'image': JPEG payload does not decode: " + codec() + " JPEG decode failed:"
        + " Corrupt JPEG data: premature end of data segment");
  }

  /** 16000x16000 over a photo's data: found by a decode at 1/8, not by asking for 768 MB. */
  @Test
  void aLyingHeaderFailsWithoutItsWholeDecode() throws Exception {
    Path file = file("lie.beton", CorruptionCorpus.withSofSize(TestPhotos.photo(5, 2), 16000, 16000));
    assertThat(Cli.run("verify", file).exitCode()).as("the metadata agrees with the header").isZero();
    Cli.Result r = Cli.run("verify", "--decode", file);
    assertThat(r.exitCode()).as(r.out()).isEqualTo(1);
    assertThat(r.outLines().get(1)).isEqualTo("  - sample 2 field 'image': JPEG payload does not decode: " + codec()
        + " JPEG decode failed: Corrupt JPEG data: premature end of data segment");
    Path huge = file("huge.beton", CorruptionCorpus.withSofSize(TestPhotos.photo(5, 2), 65500, 65500));
    assertThat(Cli.run("verify", "--decode", huge).outLines().get(1)).isEqualTo("  - sample 2 field 'image': JPEG"
        + " payload does not decode: " + codec() + " JPEG decode failed: image is too large to decode: 65500x65500 ="
        + " 4.3 gigapixels (the limit is 268 megapixels)");
  }

  @Test
  void aDatasetDirectoryIsDecodedShardByShard() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("ds"));
    Path good = file("ds/part-00000.beton", TestPhotos.photo(5, 9));
    Path bad = file("ds/part-00001.beton", cutWithEoi(2));
    List<ShardEntry> shards = List.of(entry(good), entry(bad));
    Files.writeString(dir.resolve(DatasetManifest.FILE_NAME), new DatasetManifest(
        FIELDS.stream().map(ManifestField::of).toList(), shards, Map.of(), "test").toJson());

    assertThat(Cli.run("verify", dir).outLines()).containsExactly(dir + ": OK (2 shards, 8 samples)");
    Cli.Result r = Cli.run("verify", "--decode", dir);
    assertThat(r.exitCode()).as(r.out()).isEqualTo(1);
    assertThat(r.outLines()).containsExactly(bad + ": FAILED, 1 problem", "  - sample 2 field 'image': JPEG payload"
        + " does not decode: " + codec() + " JPEG decode failed: Corrupt JPEG data: premature end of data segment",
        dir + ": FAILED (2 shards, 8 samples, 7 JPEGs decoded)");
  }

  static ShardEntry entry(Path file) throws Exception {
    return new ShardEntry(file.getFileName().toString(), 4, Files.size(file),
        new ShardChecksum(ShardChecksum.SHA256, DatasetVerifier.checksum(file, ShardChecksum.SHA256)), Map.of());
  }

  static String codec() {
    return org.sparkbeton.codec.jpeg.JpegCodecs.nativeAvailable() ? "Native" : "Java";
  }
}
