package org.sparkbeton.codec;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/** Test resources: the FFCV golden JPEGs and the generated images (see src/test/python). */
public final class TestImages {
  private TestImages() {}

  /** One golden JPEG with FFCV's expected size and fast-IDCT pixel hash. */
  public record Golden(String name, int width, int height, String rgbSha256) {
    public byte[] bytes() {
      return resource("/golden-jpeg/" + name);
    }

    @Override
    public String toString() {
      return name;
    }
  }

  public static List<Golden> golden() {
    List<Golden> out = new ArrayList<>();
    for (String line : new String(resource("/golden-jpeg/expected.txt"), java.nio.charset.StandardCharsets.UTF_8)
        .split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.trim().split(" ");
      out.add(new Golden(f[0], Integer.parseInt(f[1]), Integer.parseInt(f[2]), f[3]));
    }
    return out;
  }

  public static byte[] image(String name) {
    return resource("/images/" + name);
  }

  public static byte[] resource(String path) {
    try (InputStream in = TestImages.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalArgumentException("missing test resource " + path);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static ByteBuffer direct(byte[] bytes) {
    ByteBuffer b = ByteBuffer.allocateDirect(bytes.length);
    b.put(bytes).flip();
    return b;
  }

  public static byte[] bytes(ByteBuffer b, int offset, int length) {
    byte[] out = new byte[length];
    b.get(offset, out, 0, length);
    return out;
  }

  public static String sha256(byte[] data) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {max, mean} absolute difference of two equally long pixel arrays. */
  public static double[] diff(byte[] a, byte[] b) {
    if (a.length != b.length) {
      throw new IllegalArgumentException("lengths differ: " + a.length + " vs " + b.length);
    }
    long sum = 0;
    int max = 0;
    for (int i = 0; i < a.length; i++) {
      int d = Math.abs((a[i] & 0xFF) - (b[i] & 0xFF));
      sum += d;
      max = Math.max(max, d);
    }
    return new double[] {max, a.length == 0 ? 0 : (double) sum / a.length};
  }

  public static double psnr(byte[] a, byte[] b) {
    double se = 0;
    for (int i = 0; i < a.length; i++) {
      double d = (a[i] & 0xFF) - (b[i] & 0xFF);
      se += d * d;
    }
    double mse = se / a.length;
    return mse == 0 ? Double.POSITIVE_INFINITY : 10 * Math.log10(255.0 * 255.0 / mse);
  }

  /** Crops a packed RGB image. */
  public static byte[] crop(byte[] rgb, int width, int x, int y, int w, int h) {
    byte[] out = new byte[w * h * 3];
    for (int r = 0; r < h; r++) {
      System.arraycopy(rgb, ((y + r) * width + x) * 3, out, r * w * 3, w * 3);
    }
    return out;
  }

  /** RGB of the pixel at (x, y). */
  public static int[] pixel(byte[] rgb, int width, int x, int y) {
    int p = (y * width + x) * 3;
    return new int[] {rgb[p] & 0xFF, rgb[p + 1] & 0xFF, rgb[p + 2] & 0xFF};
  }
}
