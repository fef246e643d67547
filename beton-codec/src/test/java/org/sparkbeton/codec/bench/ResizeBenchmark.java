package org.sparkbeton.codec.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Stream;
import org.sparkbeton.codec.jpeg.Idct;
import org.sparkbeton.codec.jpeg.ImageSize;
import org.sparkbeton.codec.jpeg.NativeJpegCodec;
import org.sparkbeton.codec.resize.Resizer;
import org.sparkbeton.codec.testing.BenchPhotos;

/**
 * The native fixed-point resize against the float one it replaced (FloatResizeBaseline, a test-only copy),
 * side by side in one run, on the centre box of decoded photos ({@link BenchPhotos}), on the AVX2
 * and the SSE2-only paths. Rounds alternate the implementations (order rotated each round) so load from other
 * processes hits all alike; each cell is the median over rounds of the mean time per resize. Also prints how
 * far the two differ, per byte, on the photos and on random data.
 *
 * <pre>
 * java -cp ... org.sparkbeton.codec.bench.ResizeBenchmark /tmp/photos [photosPerCase=64] [rounds=31]
 * </pre>
 */
public final class ResizeBenchmark {
  record Case(String name, boolean area, int w, int h, int outW, int outH) {}

  record Photo(ByteBuffer rgb, int w, int h) {}

  interface Impl {
    void run(Photo p, Case c, ByteBuffer dst);
  }

  static final Case[] CASES = {
      new Case("area 300x260 -> 224x224", true, 300, 260, 224, 224),
      new Case("area 446x371 -> 256x212", true, 446, 371, 256, 212),
      new Case("area 447x447 -> 224x224", true, 447, 447, 224, 224),
      new Case("bilinear 150x130 -> 224x224", false, 150, 130, 224, 224),
  };

  public static void main(String[] args) throws Exception {
    Path dir = BenchPhotos.directory(Path.of(args[0]));
    int perCase = args.length > 1 ? Integer.parseInt(args[1]) : 64;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 31;
    FloatResizeBaseline.load();
    if (!NativeJpegCodec.isAvailable()) {
      throw new IllegalStateException("native codec not loaded; build with the libjpeg headers installed");
    }
    Method sse2Only = Resizer.class.getDeclaredMethod("sse2Only", boolean.class);
    sse2Only.setAccessible(true);

    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.filter(p -> p.toString().toLowerCase(Locale.ROOT).endsWith(".jpg")).sorted().limit(2000).toList();
    }
    List<List<Photo>> sets = new ArrayList<>();
    for (int i = 0; i < CASES.length; i++) {
      sets.add(new ArrayList<>());
    }
    try (NativeJpegCodec codec = new NativeJpegCodec()) {
      ByteBuffer scratch = ByteBuffer.allocateDirect(64 << 20);
      for (Path f : files) {
        byte[] jpeg = Files.readAllBytes(f);
        ByteBuffer src = ByteBuffer.allocateDirect(jpeg.length).put(jpeg).flip();
        Photo photo = null;
        for (int i = 0; i < CASES.length; i++) {
          Case c = CASES[i];
          if (sets.get(i).size() >= perCase) {
            continue;
          }
          if (photo == null) {
            long size = codec.decode(src, 8, Idct.FAST, scratch, 0);
            int bytes = ImageSize.rgbBytes(size);
            ByteBuffer rgb = ByteBuffer.allocateDirect(bytes).put(scratch.duplicate().limit(bytes)).flip();
            photo = new Photo(rgb, ImageSize.width(size), ImageSize.height(size));
          }
          if (photo.w >= c.w && photo.h >= c.h) {
            sets.get(i).add(photo);
          }
        }
        if (sets.stream().allMatch(s -> s.size() >= perCase)) {
          break;
        }
      }
    }

    Resizer resizer = new Resizer();
    Impl fixed = (p, c, dst) -> resizer.resize(p.rgb, 0, p.w * 3, (p.w - c.w) / 2, (p.h - c.h) / 2, c.w, c.h, dst, 0,
        c.outW, c.outH);
    Impl old = ResizeBenchmark::floatResize;
    String[] implNames = {"float", "fixed", "float SSE2", "fixed SSE2"};
    Impl[] impls = {old, fixed, old, fixed};
    boolean[] sse2 = {false, false, true, true};
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    ByteBuffer dst = ByteBuffer.allocateDirect(256 * 256 * 3);

    System.out.printf(Locale.ROOT, "%d photos per case (centre box), %d rounds; load average %s%n", perCase, rounds,
        CodecBenchmark.loadAverage());
    System.out.println();
    System.out.println("| case | float us | fixed us | speed-up | speed-up per CPU-s | float SSE2 us | fixed SSE2 us "
        + "| speed-up |");
    System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|");
    for (int ci = 0; ci < CASES.length; ci++) {
      Case c = CASES[ci];
      List<Photo> set = sets.get(ci);
      if (set.isEmpty()) {
        System.out.printf("| %s | no photo is large enough | | | | | | |%n", c.name);
        continue;
      }
      double[][] wall = new double[impls.length][rounds];
      double[][] cpu = new double[impls.length][rounds];
      for (int r = -3; r < rounds; r++) { // 3 warm-up rounds
        for (int j = 0; j < impls.length; j++) {
          int k = (j + Math.max(r, 0)) % impls.length;
          sse2Only.invoke(null, sse2[k]);
          FloatResizeBaseline.sse2Only0(sse2[k]);
          long c0 = mx.getCurrentThreadCpuTime();
          long t0 = System.nanoTime();
          for (Photo p : set) {
            impls[k].run(p, c, dst);
          }
          long t1 = System.nanoTime();
          long c1 = mx.getCurrentThreadCpuTime();
          if (r >= 0) {
            wall[k][r] = (t1 - t0) / 1e3 / set.size();
            cpu[k][r] = (c1 - c0) / 1e3 / set.size();
          }
        }
      }
      sse2Only.invoke(null, false);
      FloatResizeBaseline.sse2Only0(false);
      double[] w = new double[impls.length];
      double[] cp = new double[impls.length];
      for (int k = 0; k < impls.length; k++) {
        w[k] = median(wall[k]);
        cp[k] = median(cpu[k]);
      }
      System.out.printf(Locale.ROOT, "| %s | %.0f | %.0f | %.2fx | %.2fx | %.0f | %.0f | %.2fx |%n", c.name, w[0], w[1],
          w[0] / w[1], cp[0] / cp[1], w[2], w[3], w[2] / w[3]);
    }

    // how far fixed is from float, per byte: the photos of each case, then random data
    System.out.println();
    System.out.println("| case | fixed vs float on photos: max, mean abs diff | on random data: max, mean |");
    System.out.println("|---|---:|---:|");
    Random rnd = new Random(42L);
    byte[] noise = new byte[500 * 500 * 3];
    rnd.nextBytes(noise);
    Photo random = new Photo(ByteBuffer.allocateDirect(noise.length).put(noise).flip(), 500, 500);
    ByteBuffer a = ByteBuffer.allocateDirect(256 * 256 * 3);
    ByteBuffer b = ByteBuffer.allocateDirect(256 * 256 * 3);
    for (int ci = 0; ci < CASES.length; ci++) {
      Case c = CASES[ci];
      long[] photoDiff = new long[3];
      for (Photo p : sets.get(ci)) {
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
  static void floatResize(Photo p, Case c, ByteBuffer dst) {
    int x = (p.w - c.w) / 2;
    int y = (p.h - c.h) / 2;
    int stride = p.w * 3;
    int rc;
    if (c.w >= c.outW && c.h >= c.outH) {
      rc = FloatResizeBaseline.area0(p.rgb, (long) y * stride + x * 3L, stride, c.w, c.h, (double) c.w / c.outW,
          (double) c.h / c.outH, 0, 0, c.outW, c.outH, dst, 0);
    } else {
      rc = FloatResizeBaseline.bilinear0(p.rgb, 0, stride, x, y, c.w, c.h, c.outW, c.outH, dst, 0);
    }
    if (rc < 0) {
      throw new IllegalStateException("float baseline failed: " + rc);
    }
  }

  /** Adds {max, sum, count} of |old - fixed| per byte into acc. */
  static void diff(Impl old, Impl fixed, Photo p, Case c, ByteBuffer a, ByteBuffer b, long[] acc) {
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

  static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
