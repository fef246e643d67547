package org.sparkbeton.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestExecutionResult.Status;

/** Runs deliberately greedy and modest test classes in this JVM under a ceiling set just above its peak so far. */
class MemoryCeilingExtensionTest {
  /** Touches 384 MiB of heap: past a ceiling set 128 MiB above the peak so far. */
  static class Greedy {
    @Test
    void allocates() {
      byte[] b = new byte[384 << 20];
      Arrays.fill(b, (byte) 1);
      assertThat(b[b.length - 1]).isEqualTo((byte) 1);
    }
  }

  static class Modest {
    @Test
    void allocatesLittle() {
      assertThat(new byte[1024]).hasSize(1024);
    }
  }

  /** The ceiling {@code headroomMib} above this JVM's peak so far, extension autodetection on as the root pom sets. */
  static Map<String, String> ceilingAbovePeak(long headroomMib) {
    assumeTrue(Files.isReadable(PeakRss.SELF), "the ceiling needs /proc/self/status (Linux)");
    long peakMib = PeakRss.mib(PeakRss.read(PeakRss.SELF).orElseThrow());
    return Map.of("junit.jupiter.extensions.autodetection.enabled", "true", MemoryCeilingExtension.LIMIT_PARAMETER,
        Long.toString(peakMib + headroomMib));
  }

  @Test
  void aGreedyClassFailsNamingItselfAndThePeakAndTheNextClassPasses() {
    Map<String, TestExecutionResult> results = InnerRun.run(ceilingAbovePeak(128), Greedy.class, Modest.class);

    TestExecutionResult greedy = results.get(Greedy.class.getName());
    assertThat(greedy.getStatus()).isEqualTo(Status.FAILED);
    assertThat(greedy.getThrowable().orElseThrow()).isInstanceOf(AssertionError.class)
        .hasMessageMatching("Memory ceiling: this test JVM's peak RSS reached \\d+ MiB during "
            + "org\\.sparkbeton\\.testsupport\\.MemoryCeilingExtensionTest\\$Greedy, over the suite's ceiling of \\d+"
            + " MiB \\(beton\\.test\\.maxRssMiB\\)\\. .*");
    // the peak only grows: one class is blamed per crossing
    assertThat(results.get(Modest.class.getName()).getStatus()).isEqualTo(Status.SUCCESSFUL);
  }

  @Test
  void aClassUnderTheCeilingPasses() {
    Map<String, TestExecutionResult> results = InnerRun.run(ceilingAbovePeak(128), Modest.class);

    assertThat(results.get(Modest.class.getName()).getStatus()).isEqualTo(Status.SUCCESSFUL);
  }

  @Test
  void theCeilingIs4GiBUnlessConfigured() {
    assertThat(MemoryCeilingExtension.limitMib(Optional.empty())).isEqualTo(4096);
    assertThat(MemoryCeilingExtension.limitMib(Optional.of(" 2048 "))).isEqualTo(2048);
    assertThatThrownBy(() -> MemoryCeilingExtension.limitMib(Optional.of("4g")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("beton.test.maxRssMiB must be a number of MiB, got '4g'");
  }
}
