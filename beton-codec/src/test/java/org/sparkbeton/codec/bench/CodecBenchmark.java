package org.sparkbeton.codec.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.sparkbeton.codec.jpeg.Idct;
import org.sparkbeton.codec.jpeg.ImageSize;
import org.sparkbeton.codec.jpeg.JavaJpegCodec;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegGeometry;
import org.sparkbeton.codec.jpeg.JpegHeader;
import org.sparkbeton.codec.jpeg.NativeJpegCodec;
import org.sparkbeton.codec.resize.Resizer;
import org.sparkbeton.codec.testing.BenchPhotos;

/**
 * One-thread decode throughput on a photo directory ({@link BenchPhotos}), all cases side by side
 * in one run. The set is cut into chunks and every case runs on each chunk in turn, so load from other
 * processes on a shared machine hits all cases alike; ratios are against native full decode.
 *
 * <pre>
 * java -cp ... org.sparkbeton.codec.bench.CodecBenchmark /tmp/photos [n=5000] [tjbenchPhotos=20]
 * </pre>
 */
public final class CodecBenchmark {
  static final int OUT = 224;
  static final int CHUNK = 250;

  interface Case {
    void run(int i);
  }

  public static void main(String[] args) throws Exception {
    Path dir = BenchPhotos.directory(Path.of(args[0]));
    int n = args.length > 1 ? Integer.parseInt(args[1]) : BenchPhotos.COUNT;
    int tjPhotos = args.length > 2 ? Integer.parseInt(args[2]) : 20;
    if (!NativeJpegCodec.isAvailable()) {
      throw new IllegalStateException("native codec not loaded; build with the libjpeg headers installed");
    }
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.filter(p -> p.toString().toLowerCase(Locale.ROOT).endsWith(".jpg")).sorted().limit(n).toList();
    }
    n = files.size();
    // all photos in one direct buffer, as a loader would see a mapped .beton file
    long total = 0;
    for (Path p : files) {
      total += Files.size(p);
    }
    ByteBuffer all = ByteBuffer.allocateDirect((int) total);
    ByteBuffer[] src = new ByteBuffer[n];
    int[] w = new int[n];
    int[] h = new int[n];
    int[][] rrc = new int[n][];
    long pixels = 0;
    try (NativeJpegCodec probe = new NativeJpegCodec()) {
      JpegHeader hdr = new JpegHeader();
      for (int i = 0; i < n; i++) {
        byte[] b = Files.readAllBytes(files.get(i));
        int pos = all.position();
        all.put(b);
        src[i] = all.slice(pos, b.length);
        probe.probe(src[i], hdr);
        w[i] = hdr.width();
        h[i] = hdr.height();
        pixels += (long) w[i] * h[i];
        rrc[i] = randomResizedCrop(w[i], h[i], new SplittableRandom(1234L * 1_000_003L + i));
      }
    }
    System.out.printf(Locale.ROOT, "%d photos, mean %.0f x %.0f px, mean %.1f KB; load average %s%n", n,
        Math.sqrt((double) pixels / n * 4 / 3), Math.sqrt((double) pixels / n * 3 / 4), total / 1024.0 / n,
        loadAverage());

    ByteBuffer dst = ByteBuffer.allocateDirect(64 << 20);
    ByteBuffer out = ByteBuffer.allocateDirect(OUT * OUT * 3);
    Resizer resizer = new Resizer();
    NativeJpegCodec nat = new NativeJpegCodec();
    JavaJpegCodec java = new JavaJpegCodec();
    long[] rrcScales = new long[9];
    long[] rrcAnyScales = new long[9];
    for (int i = 0; i < n; i++) {
      rrcScales[JpegGeometry.bestScale(rrc[i][2], rrc[i][3], OUT, OUT, JpegGeometry.FAST_SCALES)]++;
      rrcAnyScales[JpegGeometry.bestScale(rrc[i][2], rrc[i][3], OUT, OUT, JpegGeometry.ALL_SCALES)]++;
    }

    String[] names = {
        "native full decode (fast IDCT)",
        "native full decode, accurate IDCT",
        "native 1/2 DCT-scaled decode",
        "native centred 224x224 region",
        "native RRC box at best DCT scale (1/8, 1/4, 1/2, 1)",
        "native RRC box at best DCT scale (any M/8)",
        "native RRC box, best scale + area resize to 224",
        "native full decode + crop + resize (FFCV way)",
        "Java ImageIO full decode",
    };
    Case[] cases = {
        i -> nat.decode(src[i], 8, Idct.FAST, dst, 0),
        i -> nat.decode(src[i], 8, Idct.ACCURATE, dst, 0),
        i -> nat.decode(src[i], 4, Idct.FAST, dst, 0),
        i -> {
          int cw = Math.min(OUT, w[i]);
          int ch = Math.min(OUT, h[i]);
          nat.decodeRegion(src[i], (w[i] - cw) / 2, (h[i] - ch) / 2, cw, ch, 8, Idct.FAST, dst, 0);
        },
        i -> rrcDecode(nat, src[i], rrc[i], dst),
        i -> {
          int[] b = rrc[i];
          int m = JpegGeometry.bestScale(b[2], b[3], OUT, OUT, JpegGeometry.ALL_SCALES);
          nat.decodeRegion(src[i], b[0], b[1], b[2], b[3], m, Idct.FAST, dst, 0);
        },
        i -> {
          long size = rrcDecode(nat, src[i], rrc[i], dst);
          resizer.resize(dst, 0, ImageSize.width(size) * 3, 0, 0, ImageSize.width(size), ImageSize.height(size), out, 0,
              OUT, OUT);
        },
        i -> {
          nat.decode(src[i], 8, Idct.FAST, dst, 0);
          int[] b = rrc[i];
          resizer.resize(dst, 0, w[i] * 3, b[0], b[1], b[2], b[3], out, 0, OUT, OUT);
        },
        i -> java.decode(src[i], 8, Idct.FAST, dst, 0),
    };
    long[] nanos = new long[cases.length];
    long[] cpuNanos = new long[cases.length];
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    // warm-up: JIT and caches, on the first chunk
    for (Case c : cases) {
      for (int i = 0; i < Math.min(n, 200); i++) {
        c.run(i);
      }
    }
    for (int start = 0, chunk = 0; start < n; start += CHUNK, chunk++) {
      int end = Math.min(n, start + CHUNK);
      for (int j = 0; j < cases.length; j++) {
        int k = (chunk + j) % cases.length; // rotate which case goes first
        long c0 = mx.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        for (int i = start; i < end; i++) {
          cases[k].run(i);
        }
        nanos[k] += System.nanoTime() - t0;
        cpuNanos[k] += mx.getCurrentThreadCpuTime() - c0;
      }
    }
    nat.close();
    java.close();

    // ratios use thread CPU time: on a shared machine wall-clock time also measures other processes
    double base = n / (cpuNanos[0] / 1e9);
    System.out.println();
    System.out.println("| case (one thread) | images/s, wall clock | images/s per CPU-second | vs native full decode "
        + "(CPU) |");
    System.out.println("|---|---:|---:|---:|");
    for (int k = 0; k < cases.length; k++) {
      double ips = n / (nanos[k] / 1e9);
      double cps = n / (cpuNanos[k] / 1e9);
      System.out.printf(Locale.ROOT, "| %s | %,.0f | %,.0f | %.2fx |%n", names[k], ips, cps, cps / base);
    }
    if (tjPhotos > 0) {
      // photo by photo, tjbench and our loop alternate (order flipped every photo) so load drift cancels.
      // Wall-clock rates depend on the CPU share each got on a shared machine, so CPU-time rates are also
      // given: tjbench's wall rate scaled by the CPU fraction its process got, ours from thread CPU time.
      int k = Math.min(tjPhotos, n);
      double[] tjSum = new double[2];
      double[] ourSum = new double[2];
      for (int i = 0; i < k; i++) {
        double[] tj;
        double[] ours;
        if (i % 2 == 0) {
          tj = tjbench(files.get(i));
          ours = repeatNative(src[i]);
        } else {
          ours = repeatNative(src[i]);
          tj = tjbench(files.get(i));
        }
        if (tj == null) {
          break;
        }
        for (int j = 0; j < 2; j++) {
          tjSum[j] += tj[j];
          ourSum[j] += ours[j];
        }
      }
      if (tjSum[0] > 0) {
        System.out.printf(Locale.ROOT, "| tjbench -fastdct -rgb, first %d photos (libjpeg-turbo alone) | %,.0f | %,.0f "
            + "| |%n", k, k / tjSum[0], k / tjSum[1]);
        System.out.printf(Locale.ROOT, "| native full decode through JNI, same %d photos, same repeat loop | %,.0f | "
            + "%,.0f | %.2fx of tjbench (wall %.2fx) |%n", k, k / ourSum[0], k / ourSum[1], tjSum[1] / ourSum[1],
            tjSum[0] / ourSum[0]);
      }
    }
    System.out.printf(Locale.ROOT, "%nRRC best scale among 1,2,4,8 (M/8: count): 1:%d 2:%d 4:%d 8:%d%n",
        rrcScales[1], rrcScales[2], rrcScales[4], rrcScales[8]);
    StringBuilder any = new StringBuilder();
    for (int m = 1; m <= 8; m++) {
      any.append(' ').append(m).append(':').append(rrcAnyScales[m]);
    }
    System.out.printf(Locale.ROOT, "RRC best scale among 1..8 (M/8: count):%s; load average %s%n", any,
        loadAverage());
  }

  static long rrcDecode(JpegCodec codec, ByteBuffer src, int[] b, ByteBuffer dst) {
    int m = JpegGeometry.bestScale(b[2], b[3], OUT, OUT, JpegGeometry.FAST_SCALES);
    return codec.decodeRegion(src, b[0], b[1], b[2], b[3], m, Idct.FAST, dst, 0);
  }

  /** torchvision/FFCV RandomResizedCrop box: scale (0.08, 1), ratio (3/4, 4/3); {x, y, w, h}. */
  static int[] randomResizedCrop(int width, int height, SplittableRandom rnd) {
    double area = (double) width * height;
    double logLo = Math.log(3.0 / 4);
    double logHi = Math.log(4.0 / 3);
    for (int attempt = 0; attempt < 10; attempt++) {
      double target = area * (0.08 + rnd.nextDouble() * 0.92);
      double ratio = Math.exp(logLo + rnd.nextDouble() * (logHi - logLo));
      int cw = (int) Math.round(Math.sqrt(target * ratio));
      int ch = (int) Math.round(Math.sqrt(target / ratio));
      if (cw > 0 && ch > 0 && cw <= width && ch <= height) {
        return new int[] {rnd.nextInt(width - cw + 1), rnd.nextInt(height - ch + 1), cw, ch};
      }
    }
    double inRatio = (double) width / height;
    int cw = width;
    int ch = height;
    if (inRatio < 3.0 / 4) {
      ch = Math.min(height, (int) Math.round(width / (3.0 / 4)));
    } else if (inRatio > 4.0 / 3) {
      cw = Math.min(width, (int) Math.round(height * (4.0 / 3)));
    }
    return new int[] {(width - cw) / 2, (height - ch) / 2, cw, ch};
  }

  /** {wall seconds, thread CPU seconds} per decode of one photo, repeated ~0.5 s after 0.2 s warm-up. */
  static double[] repeatNative(ByteBuffer src) {
    ByteBuffer dst = ByteBuffer.allocateDirect(64 << 20);
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    try (NativeJpegCodec c = new NativeJpegCodec()) {
      long warm = System.nanoTime() + 200_000_000L;
      while (System.nanoTime() < warm) {
        c.decode(src, 8, Idct.FAST, dst, 0);
      }
      int reps = 0;
      long cpu0 = mx.getCurrentThreadCpuTime();
      long t0 = System.nanoTime();
      long t;
      do {
        c.decode(src, 8, Idct.FAST, dst, 0);
        reps++;
        t = System.nanoTime();
      } while (t - t0 < 500_000_000L);
      long cpu = mx.getCurrentThreadCpuTime() - cpu0;
      return new double[] {(t - t0) / 1e9 / reps, cpu / 1e9 / reps};
    }
  }

  /**
   * tjbench on one photo (fast IDCT, RGB out): {wall seconds, CPU seconds} per decode, or null if tjbench is
   * missing. CPU seconds = wall seconds x the CPU fraction the tjbench process got (bash {@code times}).
   */
  static double[] tjbench(Path photo) throws IOException, InterruptedException {
    String script = "s=$(date +%s%N); tjbench \"$1\" -fastdct -rgb -nowrite -quiet -benchtime 0.5 -warmup 0.2 "
        + "|| exit 3; e=$(date +%s%N); echo WALL_NS $((e-s)); times";
    Process proc = new ProcessBuilder("bash", "-c", script, "bash", photo.toString()).redirectErrorStream(true)
        .start();
    List<String> lines = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(proc.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        lines.add(line);
      }
    }
    if (proc.waitFor() != 0) {
      System.out.println("tjbench failed or is missing (Debian package libjpeg-turbo-progs): " + lines);
      return null;
    }
    double perDecode = -1;
    double wallNs = -1;
    for (String line : lines) {
      String[] f = line.trim().split("\\s+");
      if (f.length >= 9 && f[0].equals("RGB")) {
        double px = Double.parseDouble(f[4]) * Double.parseDouble(f[5]);
        perDecode = px / (Double.parseDouble(f[f.length - 1]) * 1e6);
      } else if (f[0].equals("WALL_NS")) {
        wallNs = Double.parseDouble(f[1]);
      }
    }
    // the last line of `times` is the children's user and system time, e.g. "0m0.416s 0m0.004s"
    String[] childTimes = lines.get(lines.size() - 1).trim().split("\\s+");
    double cpu = minutesSeconds(childTimes[0]) + minutesSeconds(childTimes[1]);
    if (perDecode < 0 || wallNs <= 0) {
      throw new IllegalStateException("cannot parse tjbench output: " + lines);
    }
    return new double[] {perDecode, perDecode * Math.min(1.0, cpu / (wallNs / 1e9))};
  }

  private static double minutesSeconds(String t) {
    int m = t.indexOf('m');
    return Integer.parseInt(t.substring(0, m)) * 60 + Double.parseDouble(t.substring(m + 1, t.length() - 1));
  }

  static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim().split(" ", 4)[0];
    } catch (IOException e) {
      return "?";
    }
  }
}
