package org.sparkbeton.loader;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.format.write.BetonWriter;

/** Datasets of real JPEGs (encoded with beton-codec) and of RAW images of varying sizes. */
final class JpegDatasets {
  private JpegDatasets() {}

  /** A photo-like test image: smooth gradients, a few edges and some grain; deterministic per (i, size). */
  static byte[] picture(int i, int width, int height) {
    SplittableRandom r = new SplittableRandom(i * 1_000_003L + width * 31L + height);
    byte[] b = new byte[width * height * 3];
    int cx = r.nextInt(width);
    int cy = r.nextInt(height);
    for (int y = 0; y < height; y++) {
      for (int x = 0; x < width; x++) {
        boolean inside = (x - cx) * (x - cx) + (y - cy) * (y - cy) < (width * height) / 10;
        for (int c = 0; c < 3; c++) {
          int v = (x * (c + 1) * 255 / width + y * (3 - c) * 255 / height) / 3 + (inside ? 60 : 0) + r.nextInt(13) - 6;
          b[(y * width + x) * 3 + c] = (byte) Math.max(0, Math.min(255, v));
        }
      }
    }
    return b;
  }

  /** JPEG (quality 90, 4:2:0) of {@link #picture}. */
  static byte[] jpeg(int i, int width, int height) {
    try (JpegCodec codec = JpegCodecs.fastest()) {
      return codec.encode(ByteBuffer.wrap(picture(i, width, height)), 0, width, height, 90);
    }
  }

  /** JPEG images of the given sizes ({width, height} pairs, cycled), labels {@code i}; returns the payloads too. */
  static Path jpegs(Path dir, String name, int n, int[][] sizes, List<byte[]> payloads) throws IOException {
    Path file = dir.resolve(name + ".beton");
    List<BetonField> fields = List.of(new BetonField("image", RgbImageField.INSTANCE), new BetonField("label", IntField.INSTANCE));
    try (BetonWriter w = BetonWriter.builder(fields).pageSize(2 * Datasets.MIB).open(file)) {
      for (int i = 0; i < n; i++) {
        int[] s = sizes[i % sizes.length];
        byte[] jpeg = jpeg(i, s[0], s[1]);
        payloads.add(jpeg);
        w.append(RgbImage.jpeg(s[0], s[1], jpeg), (long) i);
      }
      w.finish();
    }
    return file;
  }

  /** RAW images of the given sizes ({width, height} pairs, cycled); returns the pixels too. */
  static Path raws(Path dir, String name, int n, int[][] sizes, List<byte[]> pixels) throws IOException {
    Path file = dir.resolve(name + ".beton");
    List<BetonField> fields = List.of(new BetonField("image", RgbImageField.INSTANCE), new BetonField("label", IntField.INSTANCE));
    try (BetonWriter w = BetonWriter.builder(fields).pageSize(2 * Datasets.MIB).open(file)) {
      for (int i = 0; i < n; i++) {
        int[] s = sizes[i % sizes.length];
        byte[] rgb = picture(i, s[0], s[1]);
        pixels.add(rgb);
        w.append(RgbImage.raw(s[0], s[1], rgb), (long) i);
      }
      w.finish();
    }
    return file;
  }

  static List<byte[]> list() {
    return new ArrayList<>();
  }
}
