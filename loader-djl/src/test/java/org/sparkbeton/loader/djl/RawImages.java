package org.sparkbeton.loader.djl;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.format.write.BetonWriter;

/** A small file of RAW images with known pixels: sample i's byte at (y, x, c) is {@link #pixel}; labels 1000 + i. */
final class RawImages {
  static final int W = 6;
  static final int H = 5;

  private RawImages() {}

  static int pixel(int i, int y, int x, int c) {
    return (i * 31 + y * 7 + x * 3 + c * 101) & 0xff;
  }

  static Path write(Path dir, int n) throws IOException {
    Path file = dir.resolve("raw-" + n + ".beton");
    List<BetonField> fields = List.of(new BetonField("image", RgbImageField.INSTANCE),
        new BetonField("label", IntField.INSTANCE));
    try (BetonWriter w = BetonWriter.builder(fields).open(file)) {
      for (int i = 0; i < n; i++) {
        byte[] rgb = new byte[W * H * 3];
        for (int y = 0; y < H; y++) {
          for (int x = 0; x < W; x++) {
            for (int c = 0; c < 3; c++) {
              rgb[(y * W + x) * 3 + c] = (byte) pixel(i, y, x, c);
            }
          }
        }
        w.append(RgbImage.raw(W, H, rgb), 1000L + i);
      }
      w.finish();
    }
    return file;
  }
}
