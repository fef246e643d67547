package org.sparkbeton.notebooks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A notebook that goes wrong exits non-zero, however it goes wrong: JShell on its own would report the
 * problem and exit 0. Each script under {@code src/test/jshell/} breaks in one way.
 */
class NotebookFailureTest {
  private static final Path SCRIPTS = JShellRun.MODULE.resolve("src/test/jshell");

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "check-fails.jsh       | CHECK FAILED: two and two make five",
      "does-not-compile.jsh  | only 1 of 2 checks ran",
      "throws.jsh            | only 0 of 1 checks ran",
      "jvm-dies.jsh          | State engine terminated",
      "miscounted.jsh        | update its /exit line"})
  void exitsNonZero(String script, String message) throws Exception {
    JShellRun run = JShellRun.plain(SCRIPTS.resolve(script));
    assertThat(run.exitCode()).as("exit status; output:\n" + run.output()).isEqualTo(1);
    assertThat(run.output()).contains(message);
  }

  /** The control: the same machinery passes a script whose checks all pass. */
  @Test
  void passingScriptExitsZero() throws Exception {
    JShellRun.plain(SCRIPTS.resolve("passes.jsh")).assertClean();
  }
}
