package org.sparkbeton.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * The peak resident set size of this JVM: Linux's {@code VmHWM} ("high water mark") in
 * {@code /proc/self/status}, which counts everything the process touched (heap, direct buffers, native
 * libraries' own allocations, thread stacks, code), not only what {@code -Xmx} bounds.
 */
final class PeakRss {
  static final Path SELF = Path.of("/proc/self/status");

  private PeakRss() {}

  /** The peak RSS in bytes, or empty where the file is missing or has no VmHWM line (not Linux). */
  static OptionalLong read(Path status) {
    try {
      for (String line : Files.readAllLines(status)) {
        if (line.startsWith("VmHWM:")) {
          return OptionalLong.of(kilobytes(status, line) * 1024);
        }
      }
      return OptionalLong.empty();
    } catch (IOException e) {
      return OptionalLong.empty();
    }
  }

  /** The number of a line such as {@code "VmHWM:\t  345360 kB"}. */
  private static long kilobytes(Path status, String line) {
    String[] parts = line.substring(line.indexOf(':') + 1).trim().split("\\s+");
    if (parts.length != 2 || !parts[1].equals("kB")) {
      throw new IllegalStateException("Unexpected VmHWM line in " + status + ": '" + line + "'");
    }
    return Long.parseLong(parts[0]);
  }

  static long mib(long bytes) {
    return bytes >> 20;
  }
}
