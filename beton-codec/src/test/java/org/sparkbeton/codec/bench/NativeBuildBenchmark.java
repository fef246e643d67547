package org.sparkbeton.codec.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.sparkbeton.codec.jpeg.ChromaSubsampling;
import org.sparkbeton.codec.jpeg.Idct;
import org.sparkbeton.codec.jpeg.ImageSize;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.codec.jpeg.NativeJpegCodec;
import org.sparkbeton.codec.nativeimpl.NativeLibrary;
import org.sparkbeton.codec.testing.TestPhotos;

/**
 * The bundled library (libjpeg-turbo linked in statically) against another build of libbetoncodec, such as
 * the one linked dynamically against Debian's libjpeg.so.62, on the same TestPhotos: full decode (fast
 * IDCT), a centred 224x224 region decode, and a q90 4:2:0 encode, one thread. One JVM loads one library, so
 * each round runs one child JVM per library, their order flipped every round, and the table gives medians
 * over the rounds and their ratio.
 *
 * <pre>
 * # the dynamic build as beton-codec made it before (needs libjpeg62-turbo-dev):
 * gcc -shared -fPIC -O2 -ffp-contract=off -fvisibility=hidden -I$JAVA_HOME/include -I$JAVA_HOME/include/linux \
 *     beton-codec/src/main/c/*.c -o /tmp/libbetoncodec-dynamic.so -ljpeg -lm
 * java -cp ... org.sparkbeton.codec.bench.NativeBuildBenchmark /tmp/libbetoncodec-dynamic.so [photos=100] [rounds=7]
 * </pre>
 */
public final class NativeBuildBenchmark {
  private static final String[] CASES = {"full decode (fast IDCT)", "centred 224x224 region decode", "encode q90 4:2:0"};
  private static final double SECONDS_PER_CASE = 1.5;

  private NativeBuildBenchmark() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("--child")) {
      child(Integer.parseInt(args[1]));
      return;
    }
    Path other = Path.of(args[0]).toAbsolutePath();
    int photos = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 7;
    // [library][case][round]: images per CPU-second, and per wall-clock second
    double[][][] cpu = new double[2][CASES.length][rounds];
    double[][][] wall = new double[2][CASES.length][rounds];
    String[] versions = new String[2];
    for (int r = 0; r < rounds; r++) {
      for (int k = 0; k < 2; k++) {
        int lib = (r + k) % 2; // 0 = bundled, 1 = other; the order flips every round
        String[] out = runChild(lib == 0 ? null : other, photos);
        versions[lib] = out[0];
        for (int c = 0; c < CASES.length; c++) {
          String[] f = out[c + 1].split(" ");
          cpu[lib][c][r] = Double.parseDouble(f[0]);
          wall[lib][c][r] = Double.parseDouble(f[1]);
        }
      }
    }
    System.out.printf(Locale.ROOT, "%d TestPhotos, %d rounds, %.1f s per case and library per round; medians%n",
        photos, rounds, SECONDS_PER_CASE);
    System.out.println("bundled: " + versions[0]);
    System.out.println("other:   " + versions[1] + " (" + other + ")");
    System.out.println("| case (one thread) | other, images/s per CPU-s | bundled, images/s per CPU-s"
        + " | bundled / other (CPU), median | (CPU), rounds' range | bundled / other (wall) |");
    System.out.println("|---|---:|---:|---:|---:|---:|");
    for (int c = 0; c < CASES.length; c++) {
      double[] r = ratios(cpu[0][c], cpu[1][c]);
      System.out.printf(Locale.ROOT, "| %s | %,.0f | %,.0f | %.3f | %.3f-%.3f | %.3f |%n", CASES[c], median(cpu[1][c]),
          median(cpu[0][c]), median(r), Arrays.stream(r).min().orElseThrow(), Arrays.stream(r).max().orElseThrow(),
          median(ratios(wall[0][c], wall[1][c])));
    }
  }

  /** Lines of a child's output: the codec description, then "cpuRate wallRate" per case. */
  private static String[] runChild(Path library, int photos) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx1g");
    if (library != null) {
      cmd.add("-D" + NativeLibrary.PATH_PROPERTY + "=" + library);
    }
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), NativeBuildBenchmark.class.getName(), "--child",
        Integer.toString(photos)));
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IllegalStateException("child failed: " + String.join(" ", cmd) + "\n" + out);
    }
    String[] lines = out.strip().split("\n");
    if (lines.length != CASES.length + 1) {
      throw new IllegalStateException("unexpected child output:\n" + out);
    }
    return lines;
  }

  private static void child(int n) {
    if (!NativeJpegCodec.isAvailable()) {
      throw new IllegalStateException("native codec not loaded: " + NativeLibrary.unavailableReason());
    }
    System.out.println(JpegCodecs.description());
    ByteBuffer[] jpegs = new ByteBuffer[n];
    ByteBuffer[] rgbs = new ByteBuffer[n];
    int[] widths = new int[n];
    int[] heights = new int[n];
    ByteBuffer scratch = ByteBuffer.allocateDirect(4 << 20);
    try (JpegCodec codec = JpegCodecs.fastest()) {
      for (int i = 0; i < n; i++) {
        byte[] photo = TestPhotos.photo(7, i);
        jpegs[i] = ByteBuffer.allocateDirect(photo.length).put(photo).flip();
        long size = codec.decode(jpegs[i], 8, Idct.FAST, scratch, 0);
        widths[i] = ImageSize.width(size);
        heights[i] = ImageSize.height(size);
        rgbs[i] = ByteBuffer.allocateDirect(widths[i] * heights[i] * 3).put(scratch.slice(0, widths[i] * heights[i] * 3));
      }
      ByteBuffer out = ByteBuffer.allocateDirect(JpegCodec.maxEncodedSize(512, 512));
      timeCase(n, i -> codec.decode(jpegs[i], 8, Idct.FAST, scratch, 0));
      timeCase(n, i -> {
        int w = Math.min(224, widths[i]);
        int h = Math.min(224, heights[i]);
        codec.decodeRegion(jpegs[i], (widths[i] - w) / 2, (heights[i] - h) / 2, w, h, 8, Idct.FAST, scratch, 0);
      });
      timeCase(n, i -> codec.encode(rgbs[i], 0, widths[i], heights[i], 90, ChromaSubsampling.S420, out, 0));
    }
  }

  /** One warm-up pass, then passes over all photos for {@link #SECONDS_PER_CASE}; prints "cpuRate wallRate". */
  private static void timeCase(int n, java.util.function.IntConsumer op) {
    for (int i = 0; i < n; i++) {
      op.accept(i);
    }
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long cpu0 = mx.getCurrentThreadCpuTime();
    long t0 = System.nanoTime();
    long images = 0;
    while (System.nanoTime() - t0 < SECONDS_PER_CASE * 1e9) {
      for (int i = 0; i < n; i++) {
        op.accept(i);
      }
      images += n;
    }
    double wall = (System.nanoTime() - t0) / 1e9;
    double cpu = (mx.getCurrentThreadCpuTime() - cpu0) / 1e9;
    System.out.printf(Locale.ROOT, "%.3f %.3f%n", images / cpu, images / wall);
  }

  private static double[] ratios(double[] a, double[] b) {
    double[] r = new double[a.length];
    for (int i = 0; i < a.length; i++) {
      r[i] = a[i] / b[i];
    }
    return r;
  }

  private static double median(double[] values) {
    double[] s = values.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
