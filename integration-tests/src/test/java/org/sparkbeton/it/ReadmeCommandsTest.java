package org.sparkbeton.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** README.md prints the cluster commands {@link SparkSubmitIT} runs, word for word. */
class ReadmeCommandsTest {
  @Test
  void readmePrintsTheCommandsTheClusterTestRuns() throws Exception {
    String readme = Files.readString(Path.of(System.getProperty("spark.it.readme", "../README.md")))
        .replaceAll("[ \\t]*\\\\\\n[ \\t]*", " "); // a shell line continued with a backslash, joined
    assertThat(readme).contains(ReadmeCommands.PREPARE, ReadmeCommands.PREPARE_PACKAGES, ReadmeCommands.SHELL);
    assertThat(readme).contains(ReadmeCommands.SHELL_READ_BACK);
  }
}
