package org.sparkbeton.loader.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.codec.jpeg.JpegHeader;
import org.sparkbeton.codec.testing.TestPhotos;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.format.write.BetonWriter;

/**
 * A .beton of real photos at full resolution (TestPhotos: q90 JPEGs, 240-500 px on the longer side) and labels,
 * for the doctor's and bench's tests here and in beton-cli (this module's test-jar).
 */
public final class PhotoFiles {
  private PhotoFiles() {}

  /** {@code dir/name.beton}: photos {@code 0..n-1} of set {@code seed}, sample i labelled {@code i % 10}. */
  public static Path write(Path dir, String name, int n, long seed) throws IOException {
    Path file = dir.resolve(name + ".beton");
    List<BetonField> fields = List.of(new BetonField("image", RgbImageField.INSTANCE),
        new BetonField("label", IntField.INSTANCE));
    JpegHeader header = new JpegHeader();
    try (JpegCodec codec = JpegCodecs.fastest();
        BetonWriter w = BetonWriter.builder(fields).pageSize(2 << 20).open(file)) {
      for (int i = 0; i < n; i++) {
        byte[] jpeg = TestPhotos.photo(seed, i);
        codec.probe(ByteBuffer.wrap(jpeg), header);
        w.append(RgbImage.jpeg(header.width(), header.height(), jpeg), (long) (i % 10));
      }
      w.finish();
    }
    return file;
  }

  /** {width, height} of a JPEG. */
  public static int[] size(byte[] jpeg) {
    JpegHeader header = new JpegHeader();
    try (JpegCodec codec = JpegCodecs.fastest()) {
      codec.probe(ByteBuffer.wrap(jpeg), header);
    }
    return new int[] {header.width(), header.height()};
  }
}
