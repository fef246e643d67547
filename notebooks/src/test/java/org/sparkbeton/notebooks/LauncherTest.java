package org.sparkbeton.notebooks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bin/beton-notebook's usage, from another working directory (it finds the repository from its own path). */
class LauncherTest {
  private static final Path LAUNCHER = Notebooks.MODULE.resolveSibling("bin/beton-notebook");

  @TempDir
  Path elsewhere;

  @Test
  void helpListsTheFormsAndTheNotebooks() throws Exception {
    Process p = new ProcessBuilder("sh", LAUNCHER.toString(), "--help").directory(elsewhere.toFile())
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("exit status; output:\n" + out).isEqualTo(2);
    assertThat(out).contains("bin/beton-notebook --execute [--save] [NOTEBOOK...]", "--install-kernel",
        "The working directory is never changed");
    for (Path notebook : Notebooks.committed()) {
      assertThat(out).contains("  " + notebook.getFileName());
    }
  }

  /**
   * A notebook name that looks like an option is named in the launcher's own message, before any build: basename
   * once took it for one of its options and printed "basename: unrecognized option '--bogus'" first.
   */
  @Test
  void anUnknownNotebookThatLooksLikeAnOptionIsNamedAlone() throws Exception {
    Process p = new ProcessBuilder("sh", LAUNCHER.toString(), "--execute", "--bogus").directory(elsewhere.toFile())
        .start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("exit status; stderr:\n" + err).isEqualTo(2);
    assertThat(out).as("stdout").isEmpty();
    assertThat(err.lines().findFirst()).as("first line on stderr").hasValue("beton-notebook: no notebook --bogus");
    assertThat(err).as("stderr").doesNotContain("basename", "building with")
        .contains("bin/beton-notebook --execute [--save] [NOTEBOOK...]", "  01-prepare-and-look.ipynb");
  }
}
