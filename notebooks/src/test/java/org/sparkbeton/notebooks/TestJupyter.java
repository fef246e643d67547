package org.sparkbeton.notebooks;

import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * Jupyter for the tests that execute notebooks: nbconvert on a kernelspec under {@code target/test-jupyter} whose
 * class path is this build's (target/classes and the module's runtime class path, which the build writes to
 * {@code target/notebooks.classpath}), writing under {@code target/test-work}.
 *
 * <p>Without Jupyter those tests are skipped, with a message that says what to install, unless the environment
 * variable {@value #REQUIRE_ENV} is {@code 1}: then they fail. {@code .ci/run} installs Jupyter and sets it, so CI
 * always executes the notebooks.
 */
final class TestJupyter {
  static final String REQUIRE_ENV = "BETON_NOTEBOOKS_REQUIRE_JUPYTER";
  static final Path JUPYTER_DIR = Notebooks.MODULE.resolve("target/test-jupyter");
  static final Path WORK = Notebooks.MODULE.resolve("target/test-work");
  static final Path EXECUTED = Notebooks.MODULE.resolve("target/executed");

  private static Nbconvert nbconvert;

  private TestJupyter() {}

  /** nbconvert on a fresh kernelspec (once per test JVM), or the calling test is skipped or failed, as above. */
  static synchronized Nbconvert nbconvert() throws IOException {
    if (nbconvert != null) {
      return nbconvert;
    }
    String jupyter = Nbconvert.defaultJupyter();
    Optional<String> version = Nbconvert.version(jupyter);
    if (version.isEmpty()) {
      String why = "'" + jupyter + " nbconvert' does not run here, so the notebooks are not executed. Install Jupyter: "
          + Nbconvert.INSTALL_HINT + " (or set " + Nbconvert.JUPYTER_ENV + " to a jupyter command with nbconvert)";
      if ("1".equals(System.getenv(REQUIRE_ENV))) {
        fail(why + "; " + REQUIRE_ENV + "=1 requires it");
      }
      // also on the console: surefire reports a class aborted in @BeforeAll as 0 tests run, 0 skipped
      System.out.println("SKIPPED: " + why);
      Assumptions.abort(why);
    }
    deleteRecursively(JUPYTER_DIR);
    Path classpathFile = Notebooks.MODULE.resolve("target/notebooks.classpath");
    List<Path> classPath = new ArrayList<>(List.of(Notebooks.MODULE.resolve("target/classes")));
    for (String entry : Files.readString(classpathFile).trim().split(File.pathSeparator)) {
      classPath.add(Path.of(entry));
    }
    List<String> jvm = new ArrayList<>();
    for (String o : System.getProperty("notebooks.jvmOpts", "").trim().split("\\s+")) {
      if (!o.isEmpty()) {
        jvm.add(o);
      }
    }
    new KernelSpec(Path.of(System.getProperty("java.home"), "bin", "java"), classPath,
        Path.of(System.getProperty("notebooks.kernelJar")), WORK, jvm).write(JUPYTER_DIR);
    nbconvert = new Nbconvert(jupyter, JUPYTER_DIR);
    return nbconvert;
  }

  /** Executes {@code notebook} into {@link #EXECUTED}, nbconvert's output in {@code target/test-jupyter/logs}. */
  static Nbconvert.Result execute(Path notebook) throws IOException, InterruptedException {
    Path log = JUPYTER_DIR.resolve("logs").resolve(notebook.getFileName().toString().replace(".ipynb", ".log"));
    return nbconvert().execute(notebook, EXECUTED, log);
  }

  static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
