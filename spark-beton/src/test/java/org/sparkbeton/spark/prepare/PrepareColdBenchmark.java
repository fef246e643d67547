package org.sparkbeton.spark.prepare;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * {@code bin/beton prepare} as a user runs it, cold (a fresh JVM each time), not a test: the same ImageFolder
 * prepared by two checkouts' launchers in turn (this one, and a baseline checkout such as a build of the branch's
 * base commit), the order flipped every round, so both read the photos from the same page cache and share the
 * machine's load alike. Prints each round's wall times and their ratio, and the median ratio.
 *
 * <p>Arguments: {@code imageFolder baselineCheckout [rounds] [checkout] [extra prepare flags...]}; both checkouts
 * must be built ({@code bin/beton prepare} builds on first use). System properties {@code baseline.opts} and
 * {@code ours.opts} set each side's {@code BETON_JAVA_OPTS} (to measure one lever, run a checkout against itself).
 * Needs {@code /usr/bin/time} (Debian's {@code time} package). The command and the figures are in BENCHMARKS.md.
 */
public final class PrepareColdBenchmark {
  private PrepareColdBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path input = Path.of(args[0]).toAbsolutePath();
    Path baseline = Path.of(args[1]).toAbsolutePath();
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    Path ours = Path.of(args.length > 3 ? args[3] : ".").toAbsolutePath().normalize();
    List<String> extra = args.length > 4 ? List.of(args).subList(4, args.length) : List.of();
    String baselineOpts = System.getProperty("baseline.opts", "");
    String oursOpts = System.getProperty("ours.opts", "");
    Path out = Files.createTempDirectory("prepare-cold");
    try {
      // one unmeasured run each: a launcher's once-per-build work (its class-data archive) is not a user's every run
      run(baseline, baselineOpts, input, out.resolve("baseline"), extra);
      run(ours, oursOpts, input, out.resolve("ours"), extra);
      List<Double> wall = new ArrayList<>();
      List<Double> cpu = new ArrayList<>();
      System.out.printf(Locale.ROOT, "%nbaseline %s %s, this checkout %s %s%n", baseline, baselineOpts, ours, oursOpts);
      System.out.printf(Locale.ROOT, "| round | baseline wall s | this wall s | this / baseline, wall | baseline CPU s"
          + " | this CPU s | this / baseline, CPU | load average |%n|---|---:|---:|---:|---:|---:|---:|---:|%n");
      for (int r = 0; r < rounds; r++) {
        Times b;
        Times o;
        if (r % 2 == 0) {
          b = run(baseline, baselineOpts, input, out.resolve("baseline"), extra);
          o = run(ours, oursOpts, input, out.resolve("ours"), extra);
        } else {
          o = run(ours, oursOpts, input, out.resolve("ours"), extra);
          b = run(baseline, baselineOpts, input, out.resolve("baseline"), extra);
        }
        wall.add(o.wall() / b.wall());
        cpu.add(o.cpu() / b.cpu());
        System.out.printf(Locale.ROOT, "| %d | %.1f | %.1f | %.2f | %.1f | %.1f | %.2f | %.1f |%n", r + 1, b.wall(),
            o.wall(), o.wall() / b.wall(), b.cpu(), o.cpu(), o.cpu() / b.cpu(),
            ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
      }
      System.out.printf(Locale.ROOT, "| median of %d | | | %s | | | %s | |%n", rounds, median(wall),
          median(cpu));
    } finally {
      deleteTree(out);
    }
  }

  private static String median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    return String.format(Locale.ROOT, "**%.2f** (%.2f-%.2f)", sorted.get(sorted.size() / 2), sorted.get(0),
        sorted.get(sorted.size() - 1));
  }

  /** Wall and CPU seconds (user + system, every process of the run) of one run. */
  private record Times(double wall, double cpu) {}

  /**
   * One {@code bin/beton prepare} run, timed from launch to exit, under {@code /usr/bin/time} for its CPU time;
   * {@code BETON_JAVA_OPTS} is the side's {@code opts}.
   */
  private static Times run(Path checkout, String opts, Path input, Path output, List<String> extra)
      throws IOException, InterruptedException {
    Path cpuFile = Files.createTempFile("prepare-cpu", ".txt");
    List<String> cmd = new ArrayList<>(List.of("/usr/bin/time", "-f", "%U %S", "-o", cpuFile.toString(),
        checkout.resolve("bin/beton").toString(), "prepare", "--input", input.toString(), "--output",
        output.toString(), "--overwrite", "--progress-interval", "0"));
    cmd.addAll(extra);
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    if (!opts.isEmpty()) {
      pb.environment().put("BETON_JAVA_OPTS", opts);
    }
    long t0 = System.nanoTime();
    Process p = pb.start();
    byte[] log = p.getInputStream().readAllBytes();
    int code = p.waitFor();
    double seconds = (System.nanoTime() - t0) / 1e9;
    if (code != 0) {
      throw new IllegalStateException(checkout + "/bin/beton prepare failed (exit " + code + "):\n" + new String(log));
    }
    String[] cpu = Files.readString(cpuFile).trim().split("\\s+");
    Files.delete(cpuFile);
    return new Times(seconds, Double.parseDouble(cpu[cpu.length - 2]) + Double.parseDouble(cpu[cpu.length - 1]));
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
