package org.sparkbeton.codec.bench;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.sparkbeton.codec.resize.Resizer;
import org.sparkbeton.codec.testing.BenchPhotos;

/**
 * The native fixed-point resize against the float one it replaced (FloatResizeBaseline, a test-only copy),
 * side by side in one run, on the centre box of decoded photos ({@link BenchPhotos}), on the default (AVX-512
 * where the CPU has it) and the SSE2-only paths; then the default path against the AVX2 code alone. Rounds alternate the implementations ({@link ResizeHarness}: order rotated each round)
 * so load from other processes hits all alike; each cell is the median over rounds of the mean time per resize.
 * Also prints how far the two differ, per byte, on the photos and on random data.
 *
 * <pre>
 * java -cp ... org.sparkbeton.codec.bench.ResizeBenchmark /tmp/photos [photosPerCase=64] [rounds=31]
 * </pre>
 */
public final class ResizeBenchmark {
  record Case(String name, boolean area, int w, int h, int outW, int outH) {}

  interface Impl {
    void run(ResizeHarness.Decoded p, Case c, ByteBuffer dst);
  }

  static final Case[] CASES = {
      new Case("area 300x260 -> 224x224", true, 300, 260, 224, 224),
      new Case("area 446x371 -> 256x212", true, 446, 371, 256, 212),
      new Case("area 447x447 -> 224x224", true, 447, 447, 224, 224),
      new Case("bilinear 150x130 -> 224x224", false, 150, 130, 224, 224),
      new Case("area 336x336 -> 224x224", true, 336, 336, 224, 224),
  };

  public static void main(String[] args) throws Exception {
    Path dir = BenchPhotos.directory(Path.of(args[0]));
    int perCase = args.length > 1 ? Integer.parseInt(args[1]) : 64;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 31;
    FloatResizeBaseline.load();
    ResizeHarness.requireNative();
    List<ResizeHarness.Box> boxes = Arrays.stream(CASES).map(c -> new ResizeHarness.Box(c.w, c.h)).toList();
    List<List<ResizeHarness.Decoded>> sets = ResizeHarness.photos(dir, boxes, perCase, d -> d);

    Resizer resizer = new Resizer();
    Impl fixed = (p, c, dst) -> resizer.resize(p.rgb(), 0, p.w() * 3, (p.w() - c.w) / 2, (p.h() - c.h) / 2, c.w, c.h,
        dst, 0, c.outW, c.outH);
    Impl old = ResizeBenchmark::floatResize;
    ByteBuffer dst = ByteBuffer.allocateDirect(256 * 256 * 3);

    ResizeHarness.printHead(perCase, rounds, "float, fixed, float SSE2, fixed SSE2", "| case | float us | fixed us"
        + " | speed-up | speed-up per CPU-s | float SSE2 us | fixed SSE2 us | speed-up |");
    for (int ci = 0; ci < CASES.length; ci++) {
      Case c = CASES[ci];
      List<ResizeHarness.Decoded> set = sets.get(ci);
      if (ResizeHarness.noPhotos(c.name, set)) {
        continue;
      }
      ResizeHarness.Medians m = ResizeHarness.onBothPaths(set, rounds, p -> old.run(p, c, dst),
          p -> fixed.run(p, c, dst), FloatResizeBaseline::sse2Only0);
      double[] w = Arrays.stream(m.wall()).map(ns -> ns / 1e3).toArray();
      double[] cp = m.cpu();
      System.out.printf(Locale.ROOT, "| %s | %.0f | %.0f | %.2fx | %.2fx | %.0f | %.0f | %.2fx |%n", c.name, w[0], w[1],
          w[0] / w[1], cp[0] / cp[1], w[2], w[3], w[2] / w[3]);
    }

    // the default native path (AVX-512 where the CPU has it) against the AVX2 code, side by side
    System.out.println();
    System.out.println("| case | default path us | AVX2 path us | default / AVX2 (wall) | default / AVX2 (CPU) |");
    System.out.println("|---|---:|---:|---:|---:|");
    for (int ci = 0; ci < CASES.length; ci++) {
      Case c = CASES[ci];
      List<ResizeHarness.Decoded> set = sets.get(ci);
      if (set.isEmpty()) {
        continue;
      }
      ResizeHarness.Medians m = ResizeHarness.defaultAgainstAvx2(set, rounds, p -> fixed.run(p, c, dst));
      System.out.printf(Locale.ROOT, "| %s | %.0f | %.0f | %.3f | %.3f |%n", c.name, m.wall()[0] / 1e3,
          m.wall()[1] / 1e3, m.wall()[0] / m.wall()[1], m.cpu()[0] / m.cpu()[1]);
    }

    // how far fixed is from float, per byte: the photos of each case, then random data
    System.out.println();
    System.out.println("| case | fixed vs float on photos: max, mean abs diff | on random data: max, mean |");
    System.out.println("|---|---:|---:|");
    Random rnd = new Random(42L);
    byte[] noise = new byte[500 * 500 * 3];
    rnd.nextBytes(noise);
    ResizeHarness.Decoded random = new ResizeHarness.Decoded(ByteBuffer.allocateDirect(noise.length).put(noise).flip(),
        500, 500);
    ByteBuffer a = ByteBuffer.allocateDirect(256 * 256 * 3);
    ByteBuffer b = ByteBuffer.allocateDirect(256 * 256 * 3);
    for (int ci = 0; ci < CASES.length; ci++) {
      Case c = CASES[ci];
      long[] photoDiff = new long[3];
      for (ResizeHarness.Decoded p : sets.get(ci)) {
        diff(old, fixed, p, c, a, b, photoDiff);
      }
      long[] randomDiff = new long[3];
      diff(old, fixed, random, c, a, b, randomDiff);
      System.out.printf(Locale.ROOT, "| %s | %d, %.4f | %d, %.4f |%n", c.name, photoDiff[0],
          (double) photoDiff[1] / Math.max(1, photoDiff[2]), randomDiff[0], (double) randomDiff[1] / randomDiff[2]);
    }
    System.out.printf(Locale.ROOT, "%nload average %s%n", CodecBenchmark.loadAverage());
  }

  /** The float baseline on the centre box, with Resizer's dispatch (area when shrinking on both axes). */
  static void floatResize(ResizeHarness.Decoded p, Case c, ByteBuffer dst) {
    int x = (p.w() - c.w) / 2;
    int y = (p.h() - c.h) / 2;
    int stride = p.w() * 3;
    int rc;
    if (c.w >= c.outW && c.h >= c.outH) {
      rc = FloatResizeBaseline.area0(p.rgb(), (long) y * stride + x * 3L, stride, c.w, c.h, (double) c.w / c.outW,
          (double) c.h / c.outH, 0, 0, c.outW, c.outH, dst, 0);
    } else {
      rc = FloatResizeBaseline.bilinear0(p.rgb(), 0, stride, x, y, c.w, c.h, c.outW, c.outH, dst, 0);
    }
    if (rc < 0) {
      throw new IllegalStateException("float baseline failed: " + rc);
    }
  }

  /** Adds {max, sum, count} of |old - fixed| per byte into acc. */
  static void diff(Impl old, Impl fixed, ResizeHarness.Decoded p, Case c, ByteBuffer a, ByteBuffer b, long[] acc) {
    old.run(p, c, a);
    fixed.run(p, c, b);
    int n = c.outW * c.outH * 3;
    for (int i = 0; i < n; i++) {
      int d = Math.abs((a.get(i) & 0xFF) - (b.get(i) & 0xFF));
      acc[0] = Math.max(acc[0], d);
      acc[1] += d;
    }
    acc[2] += n;
  }
}
