package org.sparkbeton.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sparkbeton.format.testing.GoldenFiles;

/**
 * A command whose output cannot be written fails saying why (a dump onto a full disk exited 0 with its output cut
 * short), while a pipe whose reader stops early ({@code | head}) stays no failure.
 */
class StandardOutputTest {

  private static ProcessBuilder beton(String... args) {
    // native access enabled as bin/beton's jar manifest enables it: Java 24 and later warn on the codec's load without
    List<String> cmd = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
        .toString(), "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
        BetonCli.class.getName()));
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd);
  }

  @Test
  void aFullDiskIsAnError() throws Exception {
    File full = new File("/dev/full");
    assumeTrue(full.canWrite(), "needs Linux's /dev/full");
    for (String[] command : List.of(new String[] {"dump", GoldenFiles.path("every_field").toString()},
        new String[] {"inspect", GoldenFiles.path("jpg_labels").toString()})) {
      Process p = beton(command).redirectOutput(full).start();
      String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor()).as(command[0] + ": " + err).isEqualTo(BetonCli.USAGE);
      assertThat(err).isEqualTo("beton: cannot write the output: No space left on device\n");
    }
  }

  @Test
  void aReaderThatStopsEarlyIsNoFailure() throws Exception {
    Process p = beton("dump", GoldenFiles.path("every_field").toString()).start();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      assertThat(out.readLine()).startsWith("[{\"mode\": \"raw\"");
    } // closed: the rest of the dump meets a pipe without a reader
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as(err).isZero();
    assertThat(err).isEmpty();
  }
}
