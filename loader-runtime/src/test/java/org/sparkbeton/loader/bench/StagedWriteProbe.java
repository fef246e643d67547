package org.sparkbeton.loader.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * How the size of the writes that stage a shard into the cache changes what reading it back costs, not a test: the
 * same bytes written as files in 64 KiB writes (what a download loop writing each socket read at once did), in
 * 1 MiB writes and in 2 MiB writes (what {@code ShardDownload} writes now), each file {@code fdatasync}ed, then
 * mapped and read twice (one byte per 64, as decoding touches every cache line), the three kinds taking turns at
 * going first. Recent kernels keep a buffered write's bytes in page-cache folios as large as the write (ext4 and
 * XFS), a mapping faults in a whole folio at a time, and a 2 MiB folio is a whole huge page. Prints, per round,
 * the write's and the reads' wall and CPU time and the reads' minor page faults.
 *
 * <p>Arguments: {@code [dir=/tmp/staged-write-probe] [files=40] [bytesPerFile=19500000] [rounds=3]}. The figures
 * are in BENCHMARKS.md ("Training loader over a remote store").
 */
public final class StagedWriteProbe {
  private static final int[] WRITE_SIZES = {64 << 10, 1 << 20, 2 << 20};

  private StagedWriteProbe() {}

  public static void main(String[] args) throws IOException {
    Path dir = Files.createDirectories(Path.of(args.length > 0 ? args[0] : "/tmp/staged-write-probe"));
    int files = args.length > 1 ? Integer.parseInt(args[1]) : 40;
    int size = args.length > 2 ? Integer.parseInt(args[2]) : 19_500_000;
    int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 3;
    byte[] src = new byte[2 << 20];
    new SplittableRandom(1).nextBytes(src);
    System.out.printf(Locale.ROOT, "%d files of %d bytes (%.0f MB) in %s; load average %.2f%n", files, size,
        (double) files * size / 1e6, dir, Throughput.loadAverage());
    System.out.println("| round | writes of | write ms (wall / CPU) | mapped and read twice, ms (wall / CPU) | page faults"
        + " of the reads |");
    System.out.println("|---:|---:|---:|---:|---:|");
    long checksum = 0;
    for (int r = 0; r < rounds; r++) {
      for (int k = 0; k < WRITE_SIZES.length; k++) {
        int piece = WRITE_SIZES[(r + k) % WRITE_SIZES.length];
        long wall = System.nanoTime();
        long cpu = Throughput.processCpuNanos();
        for (int f = 0; f < files; f++) {
          write(dir.resolve("f" + f), src, size, piece);
        }
        double writeWall = (System.nanoTime() - wall) / 1e6;
        double writeCpu = (Throughput.processCpuNanos() - cpu) / 1e6;
        long faults = Throughput.minorPageFaults();
        wall = System.nanoTime();
        cpu = Throughput.processCpuNanos();
        for (int pass = 0; pass < 2; pass++) {
          for (int f = 0; f < files; f++) {
            checksum += read(dir.resolve("f" + f), size);
          }
        }
        System.out.printf(Locale.ROOT, "| %d | %d KiB | %.0f / %.0f | %.0f / %.0f | %d |%n", r + 1, piece >> 10, writeWall,
            writeCpu, (System.nanoTime() - wall) / 1e6, (Throughput.processCpuNanos() - cpu) / 1e6,
            Throughput.minorPageFaults() - faults);
        for (int f = 0; f < files; f++) {
          Files.delete(dir.resolve("f" + f));
        }
      }
    }
    System.out.printf(Locale.ROOT, "load average at end %.2f%s%n", Throughput.loadAverage(), checksum == 42 ? " " : "");
  }

  private static void write(Path file, byte[] src, int size, int piece) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      for (long at = 0; at < size; ) {
        int n = (int) Math.min(piece, size - at);
        ByteBuffer b = ByteBuffer.wrap(src, 0, n);
        while (b.hasRemaining()) {
          ch.write(b, at + b.position());
        }
        at += n;
      }
      ch.force(false);
    }
  }

  private static long read(Path file, int size) throws IOException {
    long sum = 0;
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_ONLY, 0, size);
      for (int i = 0; i < size; i += 64) {
        sum += m.get(i);
      }
    }
    return sum;
  }

}
