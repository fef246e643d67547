package org.sparkbeton.loader.djl.example;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** This JVM's peak resident memory (Linux {@code VmHWM}), heap and PyTorch's native memory together. */
public final class PeakRss {
  private PeakRss() {}

  /** Peak RSS in MiB, or -1 where {@code /proc/self/status} is not available. */
  public static long mib() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmHWM:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
        }
      }
    } catch (IOException | RuntimeException e) {
      return -1;
    }
    return -1;
  }
}
