package org.sparkbeton.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CeilingWatchTest {
  private final CeilingWatch watch = new CeilingWatch();

  @Test
  void theClassDuringWhichThePeakCrossesIsBlamedOnce() {
    assertThat(watch.check(300, 4096, "a.FirstTest", true)).isEmpty();
    assertThat(watch.check(900, 4096, "a.FirstTest", false)).isEmpty();
    assertThat(watch.check(900, 4096, "a.GreedyTest", true)).isEmpty();

    assertThat(watch.check(5000, 4096, "a.GreedyTest", false)).hasValue("Memory ceiling: this test JVM's peak RSS"
        + " reached 5000 MiB during a.GreedyTest, over the suite's ceiling of 4096 MiB (beton.test.maxRssMiB)."
        + " Every test JVM must stay under it so that the suite runs on a 16 GB laptop: find what the class"
        + " allocates, off the heap (direct buffers, native libraries) or on it, and bound it.");
    assertThat(watch.check(5000, 4096, "a.NextTest", true)).isEmpty();
    assertThat(watch.check(5200, 4096, "a.NextTest", false)).isEmpty();
    assertThat(watch.lastPeakMib()).isEqualTo(5200);
  }

  @Test
  void aCrossingBetweenClassesBlamesTheNextClassToStart() {
    assertThat(watch.check(300, 4096, "a.FirstTest", false)).isEmpty();

    assertThat(watch.check(4097, 4096, "a.SecondTest", true).orElseThrow())
        .startsWith("Memory ceiling: this test JVM's peak RSS was already 4097 MiB when a.SecondTest started,"
            + " over the suite's ceiling of 4096 MiB");
    assertThat(watch.check(4097, 4096, "a.SecondTest", false)).isEmpty();
  }

  @Test
  void aPeakAtTheCeilingPasses() {
    assertThat(watch.check(4096, 4096, "a.FirstTest", false)).isEmpty();
  }
}
