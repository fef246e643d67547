package org.sparkbeton.loader.bench;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Locale;
import org.sparkbeton.codec.testing.BenchPhotos;
import org.sparkbeton.loader.Batch;
import org.sparkbeton.loader.Loader;

/**
 * Does the page cache's folio size under a {@code .beton} change the loader's speed? Not a test: the
 * {@link JpegLoaderBenchmark} file (photos written by {@code BetonWriter}) and the same bytes copied into a second
 * file in aligned 2 MiB writes, whose page cache then holds 2 MiB folios (huge pages) on file systems with large
 * folios. Each round builds a loader (uint8 RandomResizedCrop 224 + flip, fused, 2 threads) on each file, the two
 * taking turns at going first, runs one epoch to map the file and times the second; median of the copy / original
 * epoch-time ratios. The decode limit reads neither file, so whatever this finds is the loader's own overhead.
 *
 * <p>Arguments: {@code [photoDir=/tmp/photos] [n=5000] [rounds=8]}. The figures are in BENCHMARKS.md ("Training
 * loader, JPEG").
 */
public final class PageCacheFolioBenchmark {
  private PageCacheFolioBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path photos = BenchPhotos.directory(Path.of(args.length > 0 ? args[0] : "/tmp/photos"));
    int n = args.length > 1 ? Integer.parseInt(args[1]) : BenchPhotos.COUNT;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 8;
    Path original = Files.createTempFile("photos", ".beton");
    Path copy = Files.createTempFile("photos-2mib", ".beton");
    try {
      JpegLoaderBenchmark.write(JpegLoaderBenchmark.read(photos, n), original);
      copyInHugePages(original, copy);
      for (Path f : new Path[] {original, copy}) {
        epochs(f, 1);
      }
      System.out.printf(Locale.ROOT, "%d photos; load average %.2f%n", n, Throughput.loadAverage());
      System.out.println("| round | original, epoch 2 s | 2 MiB copy, epoch 2 s | copy / original |");
      System.out.println("|---:|---:|---:|---:|");
      double[] ratios = new double[rounds];
      for (int r = 0; r < rounds; r++) {
        double[] t = new double[2];
        for (int k = 0; k < 2; k++) {
          int which = (r + k) % 2;
          t[which] = epochs(which == 0 ? original : copy, 2);
        }
        ratios[r] = t[1] / t[0];
        System.out.printf(Locale.ROOT, "| %d | %.3f | %.3f | %.3fx |%n", r + 1, t[0], t[1], ratios[r]);
      }
      Arrays.sort(ratios);
      double median = Throughput.median(ratios);
      System.out.printf(Locale.ROOT, "copy / original epoch time: median %.3fx (%.3f-%.3fx); load average at end %.2f%n",
          median, ratios[0], ratios[rounds - 1], Throughput.loadAverage());
    } finally {
      Files.deleteIfExists(original);
      Files.deleteIfExists(copy);
    }
  }

  /** Seconds of the last of {@code epochs} epochs of a new loader on {@code file}. */
  private static double epochs(Path file, int epochs) throws Exception {
    double last = 0;
    try (Loader loader = JpegLoaderBenchmark.builder(file, 2, false, true).build()) {
      for (int e = 0; e < epochs; e++) {
        long t = System.nanoTime();
        for (Batch b : loader) {
          b.size();
        }
        last = (System.nanoTime() - t) / 1e9;
      }
    }
    return last;
  }

  private static void copyInHugePages(Path from, Path to) throws Exception {
    try (FileChannel in = FileChannel.open(from, StandardOpenOption.READ);
        FileChannel out = FileChannel.open(to, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocateDirect(2 << 20);
      for (long at = 0; at < in.size(); at += b.capacity()) {
        b.clear();
        while (b.hasRemaining() && in.read(b, at + b.position()) > 0) {
          // fills the chunk (or reaches the end)
        }
        b.flip();
        while (b.hasRemaining()) {
          out.write(b, at + b.position());
        }
      }
    }
  }
}
