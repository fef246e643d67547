package org.sparkbeton.loader.doctor;

import java.util.Locale;
import org.sparkbeton.format.ByteSizes;

/** How the doctor and the bench write numbers for people: 3,900 img/s, 4 GiB, 3.1x. */
final class Units {
  private Units() {}

  /** {@code 2 MiB}, {@code 1.5 GiB}, {@code 17 B}. */
  static String bytes(long bytes) {
    return ByteSizes.human(bytes);
  }

  /** Whole numbers with thousands separators from 100 up, two significant digits below: 3,900, 42, 0.12. */
  static String number(double v) {
    if (Double.isInfinite(v)) {
      return "unlimited";
    }
    double a = Math.abs(v);
    if (a >= 100) {
      return String.format(Locale.ROOT, "%,.0f", v);
    }
    if (a >= 10 || v == Math.rint(v)) {
      return String.format(Locale.ROOT, "%.0f", v);
    }
    if (a >= 1) {
      return String.format(Locale.ROOT, "%.1f", v);
    }
    return String.format(Locale.ROOT, "%.2f", v);
  }

  /** {@code 3,900 img/s}, or {@code unlimited}. */
  static String rate(double imagesPerSecond) {
    return Double.isInfinite(imagesPerSecond) ? "unlimited" : number(imagesPerSecond) + " img/s";
  }

  /** {@code 3.1x}, {@code 12x}. */
  static String times(double ratio) {
    return ratio >= 10 ? String.format(Locale.ROOT, "%.0fx", ratio) : String.format(Locale.ROOT, "%.1fx", ratio);
  }

  /** {@code 3.1x faster}, or {@code 0.7x as fast} below 1. */
  static String faster(double ratio) {
    return ratio >= 1 ? times(ratio) + " faster" : String.format(Locale.ROOT, "%.1fx as fast", ratio);
  }

  /** {@code 480 MB/s} (decimal, as disks are sold). */
  static String bandwidth(double bytesPerSecond) {
    if (bytesPerSecond >= 1e9) {
      return String.format(Locale.ROOT, "%.1f GB/s", bytesPerSecond / 1e9);
    }
    return bytesPerSecond >= 1e6 ? number(bytesPerSecond / 1e6) + " MB/s" : number(bytesPerSecond / 1e3) + " kB/s";
  }

  /** {@code 2.4 ms}, {@code 310 µs}. */
  static String duration(double nanos) {
    return nanos >= 1e6 ? number(nanos / 1e6) + " ms" : number(nanos / 1e3) + " µs";
  }

  /** {@code 86%}. */
  static String percent(double fraction) {
    return String.format(Locale.ROOT, "%.0f%%", 100 * fraction);
  }
}
