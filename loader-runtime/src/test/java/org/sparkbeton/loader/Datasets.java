package org.sparkbeton.loader;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.format.write.BetonWriter;

/** Small generated datasets for loader tests. */
final class Datasets {
  static final long MIB = 1 << 20;

  private Datasets() {}

  /** Pixel value of sample i at (y, x, c). */
  static int pixel(int i, int y, int x, int c) {
    return (i * 31 + y * 7 + x * 3 + c * 101) & 0xff;
  }

  static byte[] rgb(int i, int width, int height) {
    byte[] b = new byte[width * height * 3];
    for (int y = 0; y < height; y++) {
      for (int x = 0; x < width; x++) {
        for (int c = 0; c < 3; c++) {
          b[(y * width + x) * 3 + c] = (byte) pixel(i, y, x, c);
        }
      }
    }
    return b;
  }

  /** {@code n} RAW images of width × height and labels {@code 1000 + i}. */
  static Path rawImages(Path dir, int n, int width, int height) throws IOException {
    Path file = dir.resolve("raw-" + n + "-" + width + "x" + height + ".beton");
    List<BetonField> fields = List.of(new BetonField("image", RgbImageField.INSTANCE), new BetonField("label", IntField.INSTANCE));
    try (BetonWriter w = BetonWriter.builder(fields).pageSize(2 * MIB).open(file)) {
      for (int i = 0; i < n; i++) {
        w.append(RgbImage.raw(width, height, rgb(i, width, height)), 1000L + i);
      }
      w.finish();
    }
    return file;
  }

  /** Two samples with JPEG-mode images of one size (the payload need not be a real JPEG: it is never decoded). */
  static Path jpegImages(Path dir) throws IOException {
    Path file = dir.resolve("jpeg.beton");
    List<BetonField> fields = List.of(new BetonField("image", RgbImageField.INSTANCE));
    try (BetonWriter w = BetonWriter.builder(fields).pageSize(2 * MIB).open(file)) {
      w.append(RgbImage.raw(4, 4, new byte[48]));
      w.append(RgbImage.jpeg(4, 4, new byte[] {(byte) 0xff, (byte) 0xd8, (byte) 0xff, (byte) 0xd9}));
      w.finish();
    }
    return file;
  }
}
