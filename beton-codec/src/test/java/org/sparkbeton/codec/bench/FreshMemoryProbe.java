package org.sparkbeton.codec.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import org.sparkbeton.codec.nativeimpl.HugePageMemory;

/**
 * What memory the process has not touched yet costs on this machine, not a test: the first write to each page of
 * a fresh buffer, with 4 KiB pages ({@code allocateDirect}) and in a huge-page mapping ({@link HugePageMemory}), and
 * the same bytes written into a new file's page cache against the same file written again, each next to a second
 * pass over memory already touched. On a VM whose host takes freed memory back (virtio free page reporting) every
 * one of these first touches goes through the hypervisor, which makes them far dearer than on bare metal; the
 * loader's and the remote cache's first epochs pay them. Prints ms per MB, by the wall clock and in this process's
 * CPU time.
 *
 * <p>Arguments: {@code [megabytes=384] [rounds=3] [dir=/tmp]}. The command and the figures are in BENCHMARKS.md.
 */
public final class FreshMemoryProbe {
  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private FreshMemoryProbe() {}

  public static void main(String[] args) throws IOException {
    int mb = args.length > 0 ? Integer.parseInt(args[0]) : 384;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    Path dir = Path.of(args.length > 2 ? args[2] : "/tmp");
    int bytes = mb << 20;
    System.out.printf(Locale.ROOT, "%d MB a step, %d rounds; ms per MB (wall / CPU), each step's rounds in turn%n", mb,
        rounds);
    System.out.println("| round | 4 KiB pages, first write | again | huge-page mapping, first write | again"
        + " | new file's page cache | same file rewritten |");
    System.out.println("|---:|---:|---:|---:|---:|---:|---:|");
    Path file = dir.resolve("fresh-memory-probe.bin");
    ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20);
    try {
      for (int r = 0; r < rounds; r++) {
        StringBuilder row = new StringBuilder("| " + (r + 1));
        ByteBuffer small = timed(row, () -> ByteBuffer.allocateDirect(bytes), bytes); // allocateDirect zero-fills
        timed(row, () -> touch(small), bytes);
        free(small);
        if (HugePageMemory.isAvailable()) {
          ByteBuffer huge = HugePageMemory.allocate(bytes);
          timed(row, () -> touch(huge), bytes);
          timed(row, () -> touch(huge), bytes);
          HugePageMemory.free(huge);
        } else {
          row.append(" | no libbetoncodec | ");
        }
        Files.deleteIfExists(file);
        timed(row, () -> write(file, chunk, bytes), bytes);
        timed(row, () -> write(file, chunk, bytes), bytes);
        Files.deleteIfExists(file);
        System.out.println(row.append(" |"));
      }
    } finally {
      Files.deleteIfExists(file);
    }
  }

  private interface Step<T> {
    T run() throws IOException;
  }

  private static <T> T timed(StringBuilder row, Step<T> step, int bytes) throws IOException {
    long wall = System.nanoTime();
    long cpu = OS.getProcessCpuTime();
    T out = step.run();
    double mb = bytes / (double) (1 << 20);
    row.append(String.format(Locale.ROOT, " | %.2f / %.2f", (System.nanoTime() - wall) / 1e6 / mb,
        (OS.getProcessCpuTime() - cpu) / 1e6 / mb));
    return out;
  }

  /** Frees a direct buffer now (sun.misc.Unsafe.invokeCleaner), so the next round starts from freed memory. */
  private static void free(ByteBuffer b) {
    try {
      Class<?> unsafe = Class.forName("sun.misc.Unsafe");
      java.lang.reflect.Field f = unsafe.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      unsafe.getMethod("invokeCleaner", ByteBuffer.class).invoke(f.get(null), b);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Cannot free a direct buffer here", e);
    }
  }

  private static ByteBuffer touch(ByteBuffer b) {
    for (int i = 0; i < b.capacity(); i += 4096) {
      b.put(i, (byte) i);
    }
    return b;
  }

  private static Path write(Path file, ByteBuffer chunk, int bytes) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      for (long at = 0; at < bytes; at += chunk.capacity()) {
        chunk.clear();
        while (chunk.hasRemaining()) {
          ch.write(chunk, at + chunk.position());
        }
      }
    }
    return file;
  }
}
