package org.sparkbeton.spark.write;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.sparkbeton.codec.testing.TestPhotos;

/**
 * What checking a JPEG stored as it is costs ({@code jpegPassThroughCheck}): the image step of the writer
 * ({@link ImageEncoder#fromEncoded}) in {@code jpg} mode without a resize, with the {@code decode} check (default: a
 * strict decode at 1/8) against the {@code markers} check (segments whole, an end-of-image marker), and, for scale, a
 * re-encode at {@code maxResolution=256} (what {@code beton prepare} does by default). One thread, TestPhotos; the
 * variants take turns within every round, and each cell is the median over the rounds. Not a test; with {@code CP}
 * of spark-beton-writer (BENCHMARKS.md says how):
 * {@code java -cp $CP org.sparkbeton.spark.write.PassThroughCheckBenchmark [images] [rounds]}.
 */
public final class PassThroughCheckBenchmark {
  private PassThroughCheckBenchmark() {}

  private record Variant(String name, Map<String, String> options) {
  }

  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 300;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 9;
    List<byte[]> photos = new ArrayList<>();
    long bytes = 0;
    for (int i = 0; i < n; i++) {
      photos.add(TestPhotos.photo(7, i));
      bytes += photos.get(i).length;
    }
    List<Variant> variants = List.of(
        new Variant("pass-through, markers check", Map.of("writeMode", "jpg", "jpegPassThroughCheck", "markers")),
        new Variant("pass-through, decode check (default)", Map.of("writeMode", "jpg")),
        new Variant("re-encode at 256 (prepare's default)", Map.of("writeMode", "jpg", "maxResolution", "256")));
    double[][] perImage = new double[variants.size()][rounds];
    for (int r = -2; r < rounds; r++) { // two rounds of warm-up
      for (int v = 0; v < variants.size(); v++) {
        try (ImageEncoder enc = new ImageEncoder(BetonWriteConf.parse(variants.get(v).options()), 0)) {
          long t0 = System.nanoTime();
          long sink = 0;
          for (int i = 0; i < n; i++) {
            sink += enc.fromEncoded(photos.get(i), i).payloadBytes().length;
          }
          long t = System.nanoTime() - t0;
          if (sink == 0) {
            throw new IllegalStateException("nothing stored");
          }
          if (r >= 0) {
            perImage[v][r] = t / 1e3 / n;
          }
        }
      }
    }
    System.out.printf(Locale.ROOT, "%d TestPhotos (%.0f KB on average), %d rounds, one thread%n", n,
        bytes / 1024.0 / n, rounds);
    System.out.printf(Locale.ROOT, "%-40s %14s %18s%n", "variant", "us per image", "x markers check");
    double base = median(perImage[0]);
    for (int v = 0; v < variants.size(); v++) {
      double m = median(perImage[v]);
      System.out.printf(Locale.ROOT, "%-40s %14.1f %18.2f%n", variants.get(v).name(), m, m / base);
    }
    double check = median(perImage[1]) - base;
    System.out.printf(Locale.ROOT, "the decode check adds %.1f us per image, %.1f%% of a re-encode at 256%n", check,
        100 * check / median(perImage[2]));
  }

  private static double median(double[] xs) {
    double[] s = xs.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
