package org.sparkbeton.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PeakRssTest {
  @TempDir
  Path dir;

  @Test
  void readsVmHwmInBytes() throws IOException {
    Path status = Files.writeString(dir.resolve("status"), "Name:\tjava\nVmPeak:\t 5000000 kB\nVmHWM:\t  345360 kB\n");

    assertThat(PeakRss.read(status)).hasValue(345360L * 1024);
    assertThat(PeakRss.mib(345360L * 1024)).isEqualTo(337);
  }

  @Test
  void noFileOrNoLineIsEmpty() throws IOException {
    assertThat(PeakRss.read(dir.resolve("missing"))).isEmpty();
    assertThat(PeakRss.read(Files.writeString(dir.resolve("status"), "Name:\tjava\n"))).isEmpty();
  }

  @Test
  void anUnexpectedLineIsNamed() throws IOException {
    Path status = Files.writeString(dir.resolve("status"), "VmHWM:\t 12 MB\n");

    assertThatThrownBy(() -> PeakRss.read(status)).isInstanceOf(IllegalStateException.class)
        .hasMessage("Unexpected VmHWM line in " + status + ": 'VmHWM:\t 12 MB'");
  }
}
