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
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntConsumer;
import java.util.stream.Stream;
import org.sparkbeton.codec.jpeg.Idct;
import org.sparkbeton.codec.jpeg.ImageSize;
import org.sparkbeton.codec.jpeg.NativeJpegCodec;
import org.sparkbeton.codec.resize.Resizer;

/**
 * The harness {@link ResizeBenchmark} and {@link PlaneResizeBenchmark} share: decoded photos large enough for
 * each case's box, rounds that alternate the implementations (order rotated each round, after 3 warm-up
 * rounds) so load from other processes hits all alike, and the median over rounds of the time per photo, by
 * the wall clock and in this thread's CPU time.
 */
final class ResizeHarness {
  private ResizeHarness() {}

  /** The centre box a case resizes. */
  record Box(int w, int h) {}

  /** A photo decoded to packed RGB (a direct buffer of its own). */
  record Decoded(ByteBuffer rgb, int w, int h) {}

  /** Nanoseconds per photo, per implementation: medians over the rounds. */
  record Medians(double[] wall, double[] cpu) {}

  /** Fails unless the native library loaded: both benchmarks time native code. */
  static void requireNative() {
    if (!NativeJpegCodec.isAvailable()) {
      throw new IllegalStateException("native codec not loaded; build with the libjpeg headers installed");
    }
  }

  /**
   * For each box, up to {@code perBox} of the first 2,000 JPEGs of {@code dir} (by name) at least as large,
   * decoded once (at 8/8, fast IDCT) and made into a photo by {@code photo}.
   */
  static <P> List<List<P>> photos(Path dir, List<Box> boxes, int perBox, Function<Decoded, P> photo)
      throws Exception {
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.filter(p -> p.toString().toLowerCase(Locale.ROOT).endsWith(".jpg")).sorted().limit(2000).toList();
    }
    List<List<P>> sets = new ArrayList<>();
    for (int i = 0; i < boxes.size(); i++) {
      sets.add(new ArrayList<>());
    }
    try (NativeJpegCodec codec = new NativeJpegCodec()) {
      ByteBuffer scratch = ByteBuffer.allocateDirect(64 << 20);
      for (Path f : files) {
        byte[] jpeg = Files.readAllBytes(f);
        ByteBuffer src = ByteBuffer.allocateDirect(jpeg.length).put(jpeg).flip();
        Decoded decoded = null;
        P made = null;
        for (int i = 0; i < boxes.size(); i++) {
          Box box = boxes.get(i);
          if (sets.get(i).size() >= perBox) {
            continue;
          }
          if (decoded == null) {
            long size = codec.decode(src, 8, Idct.FAST, scratch, 0);
            int bytes = ImageSize.rgbBytes(size);
            ByteBuffer rgb = ByteBuffer.allocateDirect(bytes).put(scratch.duplicate().limit(bytes)).flip();
            decoded = new Decoded(rgb, ImageSize.width(size), ImageSize.height(size));
          }
          if (decoded.w >= box.w && decoded.h >= box.h) {
            made = made == null ? photo.apply(decoded) : made;
            sets.get(i).add(made);
          }
        }
        if (sets.stream().allMatch(s -> s.size() >= perBox)) {
          break;
        }
      }
    }
    return sets;
  }

  /**
   * Prints the run's first line (photos, rounds, the four implementations timed, the load) and the head of the
   * table: {@code head} names its columns, {@code | case | ... |}; the case's column is left-aligned, the rest
   * right-aligned.
   */
  static void printHead(int perCase, int rounds, String implementations, String head) {
    System.out.printf(Locale.ROOT, "%d photos per case (centre box), %d rounds; %s; load average %s%n%n", perCase,
        rounds, implementations, CodecBenchmark.loadAverage());
    System.out.println(head);
    System.out.println("|---|" + "---:|".repeat((int) head.chars().filter(ch -> ch == '|').count() - 2));
  }

  /** Prints the table row of a case no photo is large enough for, and says whether it did. */
  static boolean noPhotos(String caseName, List<?> set) {
    if (set.isEmpty()) {
      System.out.printf("| %s | no photo is large enough | | | | | | |%n", caseName);
    }
    return set.isEmpty();
  }

  /**
   * Times {@code first} and {@code second} over {@code set}, each on Resizer's default (AVX2, or AVX-512 where
   * the CPU has it) and SSE2-only paths
   * ({@code alsoSse2} switches anything else that has the two, such as a baseline): the medians of
   * {first, second, first SSE2, second SSE2}. Leaves the default path on.
   */
  static <P> Medians onBothPaths(List<P> set, int rounds, Consumer<P> first, Consumer<P> second,
      Consumer<Boolean> alsoSse2) {
    List<Consumer<P>> impls = List.of(first, second, first, second);
    Medians m = alternate(impls.size(), rounds, set.size(), k -> {
      sse2Only(k >= 2);
      alsoSse2.accept(k >= 2);
    }, k -> set.forEach(impls.get(k)));
    sse2Only(false);
    alsoSse2.accept(false);
    return m;
  }

  /**
   * Times {@code resize} over {@code set} on Resizer's default native path (AVX-512 where the CPU has it) and
   * capped at AVX2 (the code every AVX2 CPU runs): the medians of {default, AVX2}. Leaves the default path on.
   */
  static <P> Medians defaultAgainstAvx2(List<P> set, int rounds, Consumer<P> resize) {
    Medians m = alternate(2, rounds, set.size(), k -> avx2Only(k == 1), k -> set.forEach(resize));
    avx2Only(false);
    return m;
  }

  /**
   * Times {@code impls} implementations over {@code rounds} rounds: {@code prepare} sets up implementation k (the
   * SSE2 switch), then {@code runSet} runs it over the case's {@code photos} photos, timed.
   */
  private static Medians alternate(int impls, int rounds, int photos, IntConsumer prepare, IntConsumer runSet) {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    double[][] wall = new double[impls][rounds];
    double[][] cpu = new double[impls][rounds];
    for (int r = -3; r < rounds; r++) { // 3 warm-up rounds
      for (int j = 0; j < impls; j++) {
        int k = (j + Math.max(r, 0)) % impls;
        prepare.accept(k);
        long c0 = mx.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        runSet.accept(k);
        long t1 = System.nanoTime();
        long c1 = mx.getCurrentThreadCpuTime();
        if (r >= 0) {
          wall[k][r] = (double) (t1 - t0) / photos;
          cpu[k][r] = (double) (c1 - c0) / photos;
        }
      }
    }
    double[] w = new double[impls];
    double[] c = new double[impls];
    for (int k = 0; k < impls; k++) {
      w[k] = median(wall[k]);
      c[k] = median(cpu[k]);
    }
    return new Medians(w, c);
  }

  /** Resizer's switch to its SSE2-only native path (package-private, for benchmarks and tests). */
  private static void sse2Only(boolean on) {
    try {
      Method m = Resizer.class.getDeclaredMethod("sse2Only", boolean.class);
      m.setAccessible(true);
      m.invoke(null, on);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Cannot switch Resizer's SSE2-only path", e);
    }
  }

  /** Resizer's switch off its AVX-512 native paths (package-private, for benchmarks and tests). */
  private static void avx2Only(boolean on) {
    try {
      Method m = Resizer.class.getDeclaredMethod("avx2Only", boolean.class);
      m.setAccessible(true);
      m.invoke(null, on);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Cannot switch Resizer's AVX2-only path", e);
    }
  }

  static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
