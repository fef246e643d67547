package org.sparkbeton.codec.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.sparkbeton.codec.ImageDecoder;
import org.sparkbeton.codec.image.RgbPixels;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.codec.resize.Resizer;

/**
 * ImageNet-like JPEG photos for tests, cut from the public-domain and CC0 photographs under
 * {@code src/test/resources/photos/} (see SOURCES.md there), the way the project's benchmark photo generator cuts
 * them from larger wallpapers: per photo a random aspect (4:3, 3:2, 1:1, 16:9 or 1.2–1.8, about a fifth
 * portrait), a random crop of 45–100% of the largest box of that aspect, an area downscale to a longer side of
 * 240–500 px (never upscaled), a random flip, a little brightness and contrast jitter, sensor-like grain, then
 * JPEG quality 90 with 4:2:0 chroma, the ImageNet norm. Photos are deterministic per (seed, index) and codec
 * (the native and the Java encoder differ in rounding). Real photo content matters: solid colours and
 * gradients decode several times faster than photographs and compress far better.
 */
public final class TestPhotos {
  /** The source photographs, resource names without {@code .jpg}. */
  public static final List<String> SOURCES = List.of("astronaut", "chelsea", "coffee", "hubble_deep_field", "rocket");

  private static final double[] ASPECTS = {4.0 / 3, 3.0 / 2, 1.0, 16.0 / 9};
  private static volatile List<RgbPixels> sources;

  private TestPhotos() {}

  /** Photo {@code index} of the set {@code seed}: a JPEG of about 240–500 px on its longer side. */
  public static byte[] photo(long seed, int index) {
    SplittableRandom r = random(seed, index);
    RgbPixels src = sources().get(r.nextInt(SOURCES.size()));
    double aspect = r.nextInt(5) < 4 ? ASPECTS[r.nextInt(ASPECTS.length)] : 1.2 + 0.6 * r.nextDouble();
    if (r.nextInt(100) < 22) {
      aspect = 1 / aspect;
    }
    // the largest box of this aspect inside the source, then a random fraction of it
    int boxW = Math.min(src.width(), (int) (src.height() * aspect));
    int boxH = Math.min(src.height(), (int) (boxW / aspect));
    // at least 240 px on the longer side where the box allows it
    double cover = Math.max(0.45 + 0.55 * r.nextDouble(), Math.min(1.0, 240.0 / Math.max(boxW, boxH)));
    int cw = Math.max(16, (int) (boxW * cover));
    int ch = Math.max(16, (int) (boxH * cover));
    int cx = r.nextInt(src.width() - cw + 1);
    int cy = r.nextInt(src.height() - ch + 1);
    int longSide = r.nextInt(4) < 3 ? 500 : 240 + r.nextInt(261);
    double scale = Math.min(1.0, (double) longSide / Math.max(cw, ch));
    int outW = Math.max(1, (int) (cw * scale));
    int outH = Math.max(1, (int) (ch * scale));
    ByteBuffer out = ByteBuffer.allocate(outW * outH * 3);
    new Resizer(false).resize(ByteBuffer.wrap(src.pixels()), 0, src.width() * 3, cx, cy, cw, ch, out, 0, outW, outH);
    byte[] px = out.array();
    jitterAndGrain(px, outW, outH, r);
    try (JpegCodec codec = JpegCodecs.fastest()) {
      return codec.encode(ByteBuffer.wrap(px), 0, outW, outH, 90);
    }
  }

  /**
   * The photograph photo {@code index} of the set {@code seed} is cut from, as an index into {@link #SOURCES}
   * (the first draw {@link #photo} makes), without making the photo: a label a model can learn from the pixels.
   */
  public static int source(long seed, int index) {
    return random(seed, index).nextInt(SOURCES.size());
  }

  private static SplittableRandom random(long seed, int index) {
    return new SplittableRandom(seed * 0x9E3779B97F4A7C15L + index * 0xBF58476D1CE4E5B9L + 1);
  }

  /** Writes photos {@code 0..n-1} of set {@code seed} as {@code photo_00000.jpg}, ... into {@code dir}. */
  public static List<Path> writeFlat(Path dir, int n, long seed) throws IOException {
    Files.createDirectories(dir);
    List<Path> files = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      Path f = dir.resolve(String.format("photo_%05d.jpg", i));
      Files.write(f, photo(seed, i));
      files.add(f);
    }
    return files;
  }

  /**
   * Writes an ImageFolder tree: photo {@code i} goes to {@code class_NN/} with {@code NN = i % classes}, so the
   * label of a photo (torchvision's rule, the index of its sorted folder name) is {@code i % classes}.
   */
  public static List<Path> writeImageFolder(Path dir, int n, int classes, long seed) throws IOException {
    List<Path> files = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      Path classDir = Files.createDirectories(dir.resolve(String.format("class_%02d", i % classes)));
      Path f = classDir.resolve(String.format("photo_%05d.jpg", i));
      Files.write(f, photo(seed, i));
      files.add(f);
    }
    return files;
  }

  private static void jitterAndGrain(byte[] px, int w, int h, SplittableRandom r) {
    boolean flip = r.nextBoolean();
    double gain = 0.9 + 0.2 * r.nextDouble();
    double offset = -10 + 20 * r.nextDouble();
    if (flip) {
      byte[] row = new byte[w * 3];
      for (int y = 0; y < h; y++) {
        System.arraycopy(px, y * w * 3, row, 0, w * 3);
        for (int x = 0; x < w; x++) {
          System.arraycopy(row, (w - 1 - x) * 3, px, (y * w + x) * 3, 3);
        }
      }
    }
    for (int p = 0; p < px.length; p += 3) {
      // grain as a camera's sensor leaves it: mostly in luma (the sum of two uniforms, about 5.7 levels of
      // standard deviation, shared by the three channels, so 4:2:0 chroma does not average it away), a little
      // in each channel
      double luma = (r.nextDouble() + r.nextDouble() - 1) * 14;
      for (int c = 0; c < 3; c++) {
        double noise = luma + (r.nextDouble() - 0.5) * 4;
        int v = (int) Math.round((px[p + c] & 0xFF) * gain + offset + noise);
        px[p + c] = (byte) Math.max(0, Math.min(255, v));
      }
    }
  }

  private static List<RgbPixels> sources() {
    List<RgbPixels> s = sources;
    if (s == null) {
      synchronized (TestPhotos.class) {
        if (sources == null) {
          List<RgbPixels> loaded = new ArrayList<>();
          for (String name : SOURCES) {
            loaded.add(ImageDecoder.decode(resource("/photos/" + name + ".jpg")));
          }
          sources = List.copyOf(loaded);
        }
        s = sources;
      }
    }
    return s;
  }

  private static byte[] resource(String name) {
    try (InputStream in = TestPhotos.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("Missing test resource " + name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
