package org.sparkbeton.testsupport;

import java.util.Optional;

/**
 * Decides which test class to blame for a JVM's peak RSS passing the ceiling. The peak only grows, so one
 * class is blamed per crossing: the class that was running when the peak crossed, or the next class to start
 * when it crossed between classes. Test classes run one at a time in this build; with parallel classes the
 * blame would be approximate. Thread-safe.
 */
final class CeilingWatch {
  private long lastPeakMib;

  /**
   * Records a peak seen when {@code testClass} starts ({@code starting}) or ends, and returns the failure
   * message when this is the first check to see the peak over {@code limitMib}.
   */
  synchronized Optional<String> check(long peakMib, long limitMib, String testClass, boolean starting) {
    long before = lastPeakMib;
    lastPeakMib = Math.max(lastPeakMib, peakMib);
    if (peakMib <= limitMib || before > limitMib) {
      return Optional.empty();
    }
    String when = starting ? String.format("was already %d MiB when %s started", peakMib, testClass)
        : String.format("reached %d MiB during %s", peakMib, testClass);
    return Optional.of(String.format("Memory ceiling: this test JVM's peak RSS %s, over the suite's ceiling of %d"
        + " MiB (%s). Every test JVM must stay under it so that the suite runs on a 16 GB laptop: find what the"
        + " class allocates, off the heap (direct buffers, native libraries) or on it, and bound it.", when, limitMib,
        MemoryCeilingExtension.LIMIT_PARAMETER));
  }

  synchronized long lastPeakMib() {
    return lastPeakMib;
  }
}
