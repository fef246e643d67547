package org.sparkbeton.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * README.md prints the cluster commands {@link SparkSubmitIT} runs, word for word, and the Java 17 options of
 * embedded Spark the build uses.
 */
class ReadmeCommandsTest {
  @Test
  void readmePrintsTheCommandsTheClusterTestRuns() throws Exception {
    // whole lines, a shell line continued with a backslash joined: a README command with more or fewer words fails
    List<String> lines = Files.readString(Path.of(System.getProperty("spark.it.readme", "../README.md")))
        .replaceAll("[ \\t]*\\\\\\n[ \\t]*", " ").lines().map(String::trim).toList();
    assertThat(lines).contains(ReadmeCommands.PREPARE, ReadmeCommands.PREPARE_PACKAGES, ReadmeCommands.COMPACT,
        ReadmeCommands.SHELL,
        ReadmeCommands.SHELL_KRYO, ReadmeCommands.SHELL_SQL);
    assertThat(lines).containsSequence(ReadmeCommands.SHELL_READ_BACK);
  }

  @Test
  void readmeListsTheJava17OptionsOfTheBuild() throws Exception {
    String readme = Files.readString(Path.of(System.getProperty("spark.it.readme", "../README.md")));
    List<String> options = List.of(System.getProperty("spark.it.jvmOpts").trim().split("\\s+"));
    assertThat(options).contains("--add-opens=java.base/sun.nio.ch=ALL-UNNAMED");
    assertThat(readme).contains(options);
  }
}
