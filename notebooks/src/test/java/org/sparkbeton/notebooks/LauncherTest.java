package org.sparkbeton.notebooks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bin/beton-notebook's usage, from another working directory (it finds the repository from its own path). */
class LauncherTest {
  @TempDir
  Path elsewhere;

  @Test
  void helpListsTheFormsAndTheNotebooks() throws Exception {
    Path launcher = Notebooks.MODULE.resolveSibling("bin/beton-notebook");
    Process p = new ProcessBuilder("sh", launcher.toString(), "--help").directory(elsewhere.toFile())
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
}
