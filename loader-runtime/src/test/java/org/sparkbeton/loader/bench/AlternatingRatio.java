package org.sparkbeton.loader.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.sparkbeton.loader.Batch;
import org.sparkbeton.loader.Loader;

/**
 * The loader's ratio to the decode limit with the drift taken out as far as one process can: one fused loader
 * kept open, its epochs alternated with single epochs of the decode limit, each loader epoch compared with the
 * mean of the limit epochs right before and after it (about 3 s away instead of the main table's ~20 s), and
 * the median over the rounds reported. This 2-vCPU machine's speed moves by 20-40% within a minute (the main
 * table's limit ranged 1,614-2,285 images/s in one run), which is what made single rows disagree.
 */
final class AlternatingRatio {
  private AlternatingRatio() {}

  /**
   * Median loader/limit ratio over {@code rounds} epochs, {@code {wall, cpu, resize wall, resize cpu}}: the last
   * two are the same for {@link DecodeLimit#resizeEpoch} (decode + the loader's resize, no loader), measured in
   * each round just before the loader epoch; each round printed as it ends.
   */
  static double[] median(Path file, List<byte[]> jpegs, int[][] sizes, int threads, boolean normalize, int rounds)
      throws IOException, InterruptedException {
    DecodeLimit.Images sources = DecodeLimit.Images.of(jpegs, sizes);
    double[] wall = new double[rounds];
    double[] cpu = new double[rounds];
    double[] resizeWall = new double[rounds];
    double[] resizeCpu = new double[rounds];
    String name = normalize ? "(ii)" : "(i)";
    try (Loader loader = JpegLoaderBenchmark.builder(file, threads, normalize, true).build()) {
      loaderEpoch(loader); // warm-up: JIT, and the loader's first epoch
      limitEpoch(sources, threads, 0);
      resizeEpoch(sources, threads, 0);
      double[] before = limitEpoch(sources, threads, 1);
      for (int r = 0; r < rounds; r++) {
        double[] d = resizeEpoch(sources, threads, r + 2);
        double[] l = loaderEpoch(loader);
        double[] after = limitEpoch(sources, threads, r + 2);
        double limitWall = (before[0] + after[0]) / 2;
        double limitCpu = (before[1] + after[1]) / 2;
        wall[r] = l[0] / limitWall;
        cpu[r] = l[1] / limitCpu;
        resizeWall[r] = d[0] / limitWall;
        resizeCpu[r] = d[1] / limitCpu;
        System.out.printf(Locale.ROOT, "%s fused, round %d: loader %.0f images/s (%.0f per CPU-s), decode + resize"
            + " %.0f (%.0f), limits beside them %.0f and %.0f: loader %.2fx / %.2fx, decode + resize %.2fx / %.2fx%n",
            name, r + 1, l[0], l[1], d[0], d[1], before[0], after[0], wall[r], cpu[r], resizeWall[r], resizeCpu[r]);
        before = after;
      }
    }
    return new double[] {Throughput.median(wall), Throughput.median(cpu), Throughput.median(resizeWall),
        Throughput.median(resizeCpu)};
  }

  private static double[] resizeEpoch(DecodeLimit.Images images, int threads, int epoch) throws InterruptedException {
    DecodeLimit.Rate r = DecodeLimit.resizeEpoch(images, DecodeLimit.RANDOM_RESIZED, JpegLoaderBenchmark.SIDE,
        JpegLoaderBenchmark.SIDE, JpegLoaderBenchmark.SEED, threads, epoch);
    return new double[] {r.perSecond(), r.perCpuSecond()};
  }

  private static double[] limitEpoch(DecodeLimit.Images images, int threads, int epoch) throws InterruptedException {
    DecodeLimit.Rate r = DecodeLimit.epoch(images, DecodeLimit.RANDOM_RESIZED, JpegLoaderBenchmark.SIDE,
        JpegLoaderBenchmark.SIDE, JpegLoaderBenchmark.SEED, threads, epoch);
    return new double[] {r.perSecond(), r.perCpuSecond()};
  }

  /** One epoch of the open loader: images/s by the wall clock and per CPU-second. */
  private static double[] loaderEpoch(Loader loader) {
    Throughput t = new Throughput();
    t.start();
    int images = 0;
    long checksum = 0;
    for (Batch b : loader) {
      images += b.size();
      checksum += b.data("image").get(12345);
    }
    t.epochDone(1, images);
    if (checksum == 42) {
      System.out.println();
    }
    return new double[] {t.restWall(), t.restCpu()};
  }
}
