package org.sparkbeton.notebooks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A notebook that goes wrong fails its execution, and the report names the cell: what makes
 * {@code bin/beton-notebook --execute} and CI fail on any cell error. Each notebook under {@code src/test/notebooks/}
 * breaks in one way in its second cell: nbconvert stops there, exits non-zero and writes no executed notebook.
 */
class NotebookFailureTest {
  private static final Path NOTEBOOKS = Notebooks.MODULE.resolve("src/test/notebooks");

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "check-fails.ipynb      | CHECK FAILED: two and two make five",
      "does-not-compile.ipynb | cannot find symbol"})
  void failsNamingTheCell(String notebook, String message) throws Exception {
    Nbconvert.Result r = TestJupyter.execute(NOTEBOOKS.resolve(notebook));
    assertThat(r.ok()).as("execution of " + notebook + "; output:\n" + r.log()).isFalse();
    assertThat(r.exitCode()).isNotZero();
    assertThat(r.failure()).contains("An error occurred while executing the following cell").contains(message);
    assertThat(r.output()).as("executed notebook").doesNotExist();
  }
}
