package org.sparkbeton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/java-feature}: the launchers pass an option only the Javas that take it get (Java 17 refuses
 * {@code --sun-misc-unsafe-memory-access}), from the JDK's release file, without starting a JVM.
 */
class JavaFeatureScriptTest {
  private static final Path SCRIPT = Path.of("..", "bin", "java-feature").toAbsolutePath().normalize();

  private static String run(String java) throws Exception {
    Process p = new ProcessBuilder("bash", SCRIPT.toString(), java).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertThat(p.waitFor()).isZero();
    return out;
  }

  @Test
  void printsTheFeatureVersionOfAJavaOrZero() throws Exception {
    String self = ProcessHandle.current().info().command().orElseThrow(); // this JVM's bin/java
    assertThat(run(self)).isEqualTo(Integer.toString(Runtime.version().feature()));
    assertThat(run("/no/such/java")).isEqualTo("0");
  }
}
