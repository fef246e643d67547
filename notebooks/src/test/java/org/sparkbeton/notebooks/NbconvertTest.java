package org.sparkbeton.notebooks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class NbconvertTest {
  @Test
  void aMissingJupyterHasNoVersion() {
    assertThat(Nbconvert.version("/no/such/jupyter")).isEmpty();
  }

  @Test
  void failureIsNbconvertsReportOfTheCellWithoutColours() {
    String log = "[NbConvertApp] Converting notebook x.ipynb\nTraceback (most recent call last):\n  File ...\n"
        + "nbclient.exceptions.CellExecutionError: An error occurred while executing the following cell:\n"
        + "------------------\nint y = noSuch();\n------------------\n\n"
        + "\u001B[0m\u001B[1m\u001B[31mCompile error:\u001B[0m\n\u001B[0m\u001B[1m\u001B[34mcannot find symbol\u001B[0m\n";
    Nbconvert.Result r = new Nbconvert.Result(Path.of("x.ipynb"), Path.of("out/x.ipynb"), 1, log);
    assertThat(r.ok()).isFalse();
    assertThat(r.failure()).startsWith("An error occurred while executing the following cell:")
        .contains("int y = noSuch();").contains("Compile error:\ncannot find symbol").doesNotContain("\u001B");
  }

  @Test
  void withoutACellReportFailureIsTheEndOfTheLog() {
    String log = "x".repeat(5000) + "RuntimeError: Kernel didn't respond in 60 seconds";
    Nbconvert.Result r = new Nbconvert.Result(Path.of("x.ipynb"), Path.of("out/x.ipynb"), 1, log);
    assertThat(r.failure()).hasSize(4000).endsWith("Kernel didn't respond in 60 seconds");
  }
}
