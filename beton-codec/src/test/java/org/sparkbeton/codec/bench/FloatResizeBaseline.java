package org.sparkbeton.codec.bench;

import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Benchmark baseline only: the float native resize as it was before the fixed-point one (a copy of the old
 * {@code resize.c} in {@code src/test/c/float_resize_baseline.c}, built into {@code target/bench-native/} by the
 * native profile, never shipped). Same arguments as {@code Resizer}'s private natives, which the callers here
 * validate themselves.
 */
final class FloatResizeBaseline {
  private FloatResizeBaseline() {}

  /** Loads the baseline library: {@code -Dbeton.bench.floatLib=path}, else target/bench-native next to these classes. */
  static void load() throws URISyntaxException {
    String override = System.getProperty("beton.bench.floatLib");
    Path lib = override != null ? Path.of(override)
        : Path.of(FloatResizeBaseline.class.getProtectionDomain().getCodeSource().getLocation().toURI())
            .resolveSibling("bench-native").resolve("libresizefloatbench.so");
    System.load(lib.toAbsolutePath().toString());
  }

  static native int sse2Only0(boolean on);

  static native int area0(ByteBuffer src, long base, int stride, int w, int h, double sx, double sy, int outX,
      int outY, int outW, int outH, ByteBuffer dst, long dstOffset);

  static native int bilinear0(ByteBuffer src, long srcOffset, int stride, int x, int y, int w, int h, int outW,
      int outH, ByteBuffer dst, long dstOffset);
}
