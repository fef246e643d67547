package org.sparkbeton.codec.bench;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.sparkbeton.codec.resize.Resizer;
import org.sparkbeton.codec.testing.BenchPhotos;

/**
 * The native plane resize of a 4:2:0 JPEG's three planes (Y at full size, Cb and Cr at half size each way) against
 * the native RGB resize of the same box, side by side in one run, on the AVX2 and the SSE2-only paths: the planes
 * hold half the bytes of RGB, so the goal is at most ~55% of its time. The planes are made from decoded photos
 * (JFIF RGB to YCbCr, chroma averaged over 2x2 pixels; the resize's speed does not depend on the values). Rounds
 * alternate the implementations ({@link ResizeHarness}: order rotated each round) so load from other processes hits
 * all alike; each cell is the median over rounds of the mean time per image.
 *
 * <pre>
 * java -cp ... org.sparkbeton.codec.bench.PlaneResizeBenchmark /tmp/photos [photosPerCase=64] [rounds=31]
 * </pre>
 */
public final class PlaneResizeBenchmark {
  /** A box of w x h resized to outW x outH; the chroma planes' box and output are half of each, rounded up. */
  record Case(String name, int w, int h, int outW, int outH) {}

  /** A decoded photo as packed RGB and as Y, Cb, Cr planes (chroma (w+1)/2 x (h+1)/2). */
  record Photo(ByteBuffer rgb, ByteBuffer y, ByteBuffer cb, ByteBuffer cr, int w, int h) {}

  interface Impl {
    void run(Photo p, Case c);
  }

  static final Case[] CASES = {
      new Case("area 446x371 -> 256x212", 446, 371, 256, 212),
      new Case("area 300x260 -> 224x224", 300, 260, 224, 224),
      new Case("area 447x447 -> 224x224", 447, 447, 224, 224),
      new Case("bilinear 150x130 -> 224x224", 150, 130, 224, 224),
  };

  public static void main(String[] args) throws Exception {
    Path dir = BenchPhotos.directory(Path.of(args[0]));
    int perCase = args.length > 1 ? Integer.parseInt(args[1]) : 64;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 31;
    ResizeHarness.requireNative();
    List<ResizeHarness.Box> boxes = Arrays.stream(CASES).map(c -> new ResizeHarness.Box(c.w, c.h)).toList();
    List<List<Photo>> sets = ResizeHarness.photos(dir, boxes, perCase, PlaneResizeBenchmark::planes);

    Resizer resizer = new Resizer();
    ByteBuffer rgbOut = ByteBuffer.allocateDirect(256 * 256 * 3);
    ByteBuffer yOut = ByteBuffer.allocateDirect(256 * 256);
    ByteBuffer cbOut = ByteBuffer.allocateDirect(128 * 128);
    ByteBuffer crOut = ByteBuffer.allocateDirect(128 * 128);
    Impl rgb = (p, c) -> resizer.resize(p.rgb, 0, p.w * 3, (p.w - c.w) / 2, (p.h - c.h) / 2, c.w, c.h, rgbOut, 0,
        c.outW, c.outH);
    Impl planes = (p, c) -> {
      int x = (p.w - c.w) / 2;
      int y = (p.h - c.h) / 2;
      int cw = (p.w + 1) / 2;
      int bw = (c.w + 1) / 2;
      int bh = (c.h + 1) / 2;
      int ow = (c.outW + 1) / 2;
      int oh = (c.outH + 1) / 2;
      resizer.resizePlane(p.y, 0, p.w, x, y, c.w, c.h, yOut, 0, c.outW, c.outW, c.outH);
      resizer.resizePlane(p.cb, 0, cw, x / 2, y / 2, bw, bh, cbOut, 0, ow, ow, oh);
      resizer.resizePlane(p.cr, 0, cw, x / 2, y / 2, bw, bh, crOut, 0, ow, ow, oh);
    };
    ResizeHarness.printHead(perCase, rounds, "RGB, planes, RGB SSE2, planes SSE2", "| case (planes: Y + Cb + Cr at"
        + " half size) | RGB ms | planes ms | planes / RGB | per CPU-s | RGB SSE2 ms | planes SSE2 ms | planes / RGB |");
    for (int ci = 0; ci < CASES.length; ci++) {
      Case c = CASES[ci];
      List<Photo> set = sets.get(ci);
      if (ResizeHarness.noPhotos(c.name, set)) {
        continue;
      }
      ResizeHarness.Medians m = ResizeHarness.onBothPaths(set, rounds, p -> rgb.run(p, c), p -> planes.run(p, c),
          sse2 -> { });
      double[] w = Arrays.stream(m.wall()).map(ns -> ns / 1e6).toArray();
      double[] cp = m.cpu();
      System.out.printf(Locale.ROOT, "| %s | %.3f | %.3f | %.2f | %.2f | %.3f | %.3f | %.2f |%n", c.name, w[0], w[1],
          w[1] / w[0], cp[1] / cp[0], w[2], w[3], w[3] / w[2]);
    }
    System.out.printf(Locale.ROOT, "%nload average %s%n", CodecBenchmark.loadAverage());
  }

  /** The photo's RGB and its JFIF YCbCr planes, chroma averaged over 2x2 pixels (4:2:0). */
  static Photo planes(ResizeHarness.Decoded photo) {
    ByteBuffer rgb = photo.rgb();
    int w = photo.w();
    int h = photo.h();
    int cw = (w + 1) / 2;
    int ch = (h + 1) / 2;
    ByteBuffer y = ByteBuffer.allocateDirect(w * h);
    double[] cb = new double[cw * ch];
    double[] cr = new double[cw * ch];
    int[] count = new int[cw * ch];
    for (int i = 0; i < w * h; i++) {
      double r = rgb.get(3 * i) & 0xFF;
      double g = rgb.get(3 * i + 1) & 0xFF;
      double b = rgb.get(3 * i + 2) & 0xFF;
      y.put(i, clamp(0.299 * r + 0.587 * g + 0.114 * b));
      int c = (i / w / 2) * cw + (i % w) / 2;
      cb[c] += 128 - 0.168736 * r - 0.331264 * g + 0.5 * b;
      cr[c] += 128 + 0.5 * r - 0.418688 * g - 0.081312 * b;
      count[c]++;
    }
    ByteBuffer cbPlane = ByteBuffer.allocateDirect(cw * ch);
    ByteBuffer crPlane = ByteBuffer.allocateDirect(cw * ch);
    for (int c = 0; c < cw * ch; c++) {
      cbPlane.put(c, clamp(cb[c] / count[c]));
      crPlane.put(c, clamp(cr[c] / count[c]));
    }
    return new Photo(rgb, y, cbPlane, crPlane, w, h);
  }

  static byte clamp(double v) {
    return (byte) Math.max(0, Math.min(255, (int) Math.round(v)));
  }
}
