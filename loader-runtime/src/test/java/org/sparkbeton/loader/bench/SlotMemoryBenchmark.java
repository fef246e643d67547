package org.sparkbeton.loader.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import org.sparkbeton.codec.nativeimpl.HugePageMemory;
import org.sparkbeton.codec.testing.BenchPhotos;
import org.sparkbeton.loader.Batch;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.memory.DirectBufferAllocator;

/**
 * Batch slots in huge-page mappings against slots from {@code allocateDirect}, side by side in one run, not a
 * test: the {@link JpegLoaderBenchmark} loaders (RandomResizedCrop 224 + flip, batch 256, RANDOM order; (i)
 * uint8 NHWC, (ii) + NormalizeImage float16 NCHW), each round building one fresh loader of each kind (the order
 * alternating between rounds) and timing its {@code build()}, its first epoch and its second. Epoch 1 against
 * later epochs is {@code epoch 2 / (build + epoch 1)} of the same loader, by the wall clock and per CPU-second
 * of the process; medians over the rounds.
 *
 * <p>Arguments: {@code [photoDir=/tmp/photos] [n=5000] [threads=2] [rounds=5]}. The command and the current
 * figures are in BENCHMARKS.md.
 */
public final class SlotMemoryBenchmark {
  private SlotMemoryBenchmark() {}

  /** Milliseconds of wall and CPU of one loader's build, epoch 1 and epoch 2. */
  private record Run(double buildWall, double buildCpu, double e1Wall, double e1Cpu, double e2Wall, double e2Cpu) {}

  public static void main(String[] args) throws Exception {
    Path photos = BenchPhotos.directory(Path.of(args.length > 0 ? args[0] : "/tmp/photos"));
    int n = args.length > 1 ? Integer.parseInt(args[1]) : BenchPhotos.COUNT;
    int threads = args.length > 2 ? Integer.parseInt(args[2]) : 2;
    int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 5;
    if (!HugePageMemory.isAvailable()) {
      throw new IllegalStateException("Huge-page slots need libbetoncodec, which did not load");
    }
    Path file = Files.createTempFile("photos", ".beton");
    try {
      JpegLoaderBenchmark.write(JpegLoaderBenchmark.read(photos, n), file);
      System.out.printf(Locale.ROOT, "%d photos, %d threads, batch %d, %d rounds; transparent huge pages: %s;"
          + " load average %.2f%n", n, threads, JpegLoaderBenchmark.BATCH, rounds, thpSetting(), Throughput.loadAverage());
      System.out.println("| loader, slots | slot ring MB | build ms | epoch 1 ms (build included) | epoch 2 ms"
          + " | epoch 1 vs epoch 2 (wall / CPU) | epoch 2, huge pages vs 4 KiB (wall / CPU) |");
      System.out.println("|---|---:|---:|---:|---:|---:|---:|");
      for (boolean normalize : new boolean[] {false, true}) {
        run(file, threads, normalize, false); // warm-ups: the JIT compiles the shared code before any timing
        run(file, threads, normalize, true);
        Run[][] runs = new Run[2][rounds];
        for (int r = 0; r < rounds; r++) {
          for (int k = 0; k < 2; k++) {
            boolean huge = (r + k) % 2 == 0;
            runs[huge ? 1 : 0][r] = run(file, threads, normalize, huge);
          }
        }
        long slotBytes = slotRingBytes(file, threads, normalize);
        String name = normalize ? "(ii) + NormalizeImage float16 NCHW" : "(i) uint8 NHWC";
        double e2Small = median(runs[0], Run::e2Wall);
        double e2SmallCpu = median(runs[0], Run::e2Cpu);
        for (int k = 0; k < 2; k++) {
          Run[] rs = runs[k];
          System.out.printf(Locale.ROOT, "| %s, %s | %.0f | %.0f | %.0f | %.0f | %.2fx / %.2fx | %s |%n", name,
              k == 1 ? "huge-page mappings (default)" : "allocateDirect, 4 KiB pages", slotBytes / 1e6,
              median(rs, Run::buildWall), median(rs, x -> x.buildWall() + x.e1Wall()), median(rs, Run::e2Wall),
              median(rs, x -> x.e2Wall() / (x.buildWall() + x.e1Wall())),
              median(rs, x -> x.e2Cpu() / (x.buildCpu() + x.e1Cpu())),
              k == 1 ? String.format(Locale.ROOT, "%.2fx / %.2fx", e2Small / median(rs, Run::e2Wall),
                  e2SmallCpu / median(rs, Run::e2Cpu)) : "1.00x / 1.00x");
        }
      }
      System.out.printf(Locale.ROOT, "load average at end %.2f%n", Throughput.loadAverage());
    } finally {
      Files.deleteIfExists(file);
    }
  }

  private static Run run(Path file, int threads, boolean normalize, boolean huge) throws Exception {
    long checksum = 0;
    double[] ms = new double[6];
    try (DirectBufferAllocator slots = new DirectBufferAllocator("bench", Long.MAX_VALUE, true, huge)) {
      long wall = System.nanoTime();
      long cpu = Throughput.processCpuNanos();
      try (Loader loader = JpegLoaderBenchmark.builder(file, threads, normalize, true).allocator(slots).build()) {
        ms[0] = (System.nanoTime() - wall) / 1e6;
        ms[1] = (Throughput.processCpuNanos() - cpu) / 1e6;
        for (int e = 0; e < 2; e++) {
          wall = System.nanoTime();
          cpu = Throughput.processCpuNanos();
          for (Batch b : loader) {
            checksum += b.data("image").get(12345);
          }
          ms[2 + 2 * e] = (System.nanoTime() - wall) / 1e6;
          ms[3 + 2 * e] = (Throughput.processCpuNanos() - cpu) / 1e6;
        }
      }
    }
    if (checksum == 42) {
      System.out.println();
    }
    return new Run(ms[0], ms[1], ms[2], ms[3], ms[4], ms[5]);
  }

  private static long slotRingBytes(Path file, int threads, boolean normalize) throws Exception {
    try (Loader loader = JpegLoaderBenchmark.builder(file, threads, normalize, true).build()) {
      return loader.offHeapBytes();
    }
  }

  private static double median(Run[] runs, java.util.function.ToDoubleFunction<Run> f) {
    return Throughput.median(Arrays.stream(runs).mapToDouble(f).toArray());
  }

  private static String thpSetting() {
    try {
      return Files.readString(Path.of("/sys/kernel/mm/transparent_hugepage/enabled")).trim();
    } catch (Exception e) {
      return "unknown (" + e.getMessage() + ")";
    }
  }
}
