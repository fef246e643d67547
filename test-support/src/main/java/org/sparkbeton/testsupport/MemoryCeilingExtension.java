package org.sparkbeton.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The suite's memory ceiling: fails the test class during which its test JVM's peak RSS ({@link PeakRss})
 * passes {@value #LIMIT_PARAMETER} MiB (default {@value #DEFAULT_LIMIT_MIB}), naming the class and the peak
 * ({@link CeilingWatch} decides whom to blame), so that the suite keeps fitting a 16 GB laptop. Registered for
 * every module's tests through {@code META-INF/services} and the root pom's surefire configuration
 * ({@code junit.jupiter.extensions.autodetection.enabled}). When a class raises the JVM's peak it writes it
 * to {@value #REPORT} under the module (surefire's {@code basedir}). Where there is no
 * {@code /proc/self/status} (not Linux) it checks nothing.
 */
public final class MemoryCeilingExtension implements BeforeAllCallback, AfterAllCallback {
  /** Configuration parameter: the ceiling in MiB. */
  public static final String LIMIT_PARAMETER = "beton.test.maxRssMiB";
  static final long DEFAULT_LIMIT_MIB = 4096;
  static final String REPORT = "target/test-peak-rss.txt";

  /** One for the JVM: surefire runs each test class in a launcher execution of its own. */
  private static final CeilingWatch WATCH = new CeilingWatch();

  @Override
  public void beforeAll(ExtensionContext context) {
    check(context, true);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    long before = WATCH.lastPeakMib();
    try {
      check(context, false);
    } finally {
      report(before, context.getRequiredTestClass().getName());
    }
  }

  private static void check(ExtensionContext context, boolean starting) {
    OptionalLong peak = PeakRss.read(PeakRss.SELF);
    if (peak.isEmpty()) {
      return;
    }
    long limitMib = limitMib(context.getConfigurationParameter(LIMIT_PARAMETER));
    Optional<String> failure =
        WATCH.check(PeakRss.mib(peak.getAsLong()), limitMib, context.getRequiredTestClass().getName(), starting);
    if (failure.isPresent()) {
      throw new AssertionError(failure.get());
    }
  }

  static long limitMib(Optional<String> parameter) {
    return parameter.map(v -> {
      try {
        return Long.parseLong(v.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(LIMIT_PARAMETER + " must be a number of MiB, got '" + v + "'", e);
      }
    }).orElse(DEFAULT_LIMIT_MIB);
  }

  /** Rewrites the module's report when the peak grew during {@code testClass}. */
  private static void report(long beforeMib, String testClass) {
    String basedir = System.getProperty("basedir");
    long peakMib = WATCH.lastPeakMib();
    if (basedir == null || peakMib <= beforeMib || !Files.isDirectory(Path.of(basedir, "target"))) {
      return;
    }
    try {
      Files.writeString(Path.of(basedir, REPORT), String.format(
          "peak RSS of the test JVM (VmHWM): %d MiB, last raised during %s%n", peakMib, testClass));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write the peak RSS report " + REPORT, e);
    }
  }
}
