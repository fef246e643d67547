package org.sparkbeton.codec.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The photo directory of the benchmarks: any directory of JPEGs named on their command line (ImageNet's
 * training images, your own photos). Where it holds no JPEG yet, {@link #directory} first writes
 * {@link #COUNT} photos of {@link TestPhotos} (set 0: ImageNet-like, 240–500 px, q90 4:2:0) into it, so every
 * benchmark runs from a plain clone. As a main it writes them and nothing else:
 * {@code BenchPhotos DIR [n=5000]}.
 */
public final class BenchPhotos {
  /** How many photos {@link #directory} writes into an empty directory: every benchmark's default. */
  public static final int COUNT = 5000;
  private static final long SEED = 0;

  private BenchPhotos() {}

  /** {@code dir}, after writing {@link #COUNT} test photos into it when it holds no {@code .jpg} file. */
  public static Path directory(Path dir) throws IOException {
    return directory(dir, COUNT);
  }

  static Path directory(Path dir, int n) throws IOException {
    if (Files.isDirectory(dir) && countJpegs(dir) > 0) {
      return dir;
    }
    long start = System.nanoTime();
    TestPhotos.writeFlat(dir, n, SEED);
    System.out.printf(Locale.ROOT, "%s held no JPEG: wrote %d test photos there (TestPhotos, set %d) in %.0f s%n", dir,
        n, SEED, (System.nanoTime() - start) / 1e9);
    return dir;
  }

  private static long countJpegs(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".jpg")).count();
    }
  }

  public static void main(String[] args) throws IOException {
    if (args.length < 1) {
      System.err.println(
          "usage: BenchPhotos DIR [n=" + COUNT + "]: writes n test photos into DIR unless it holds JPEGs");
      System.exit(2);
    }
    directory(Path.of(args[0]), args.length > 1 ? Integer.parseInt(args[1]) : COUNT);
  }
}
