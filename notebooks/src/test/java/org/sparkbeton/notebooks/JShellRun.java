package org.sparkbeton.notebooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * One script run in a {@code jshell} subprocess the way {@code bin/beton-notebook} runs it: working
 * directory the repository root, the snippets' JVM given Spark's Java 17 opens as {@code -R} options,
 * {@code /exit 1} on standard input for when that JVM dies. Everything it writes stays under
 * {@code notebooks/target}.
 */
record JShellRun(Path script, int exitCode, String output) {
  /** Surefire runs in the module directory. */
  static final Path MODULE = Path.of("").toAbsolutePath();
  static final Path ROOT = MODULE.getParent();
  private static final long TIMEOUT_MINUTES = 5;
  /** Exception and error names, JShell's "Error:" for a snippet that did not compile, a dead engine. */
  private static final Pattern TROUBLE =
      Pattern.compile("\\w*(Exception|Error)\\b|State engine terminated|" + Pattern.quote(Notebook.FAILED));

  /** A notebook, with the test's class path (the notebooks module's dependencies, Spark included). */
  static JShellRun notebook(Path script, Path work) throws IOException, InterruptedException {
    List<String> jvm = new ArrayList<>(List.of(System.getProperty("notebooks.jvmOpts", "").trim().split("\\s+")));
    jvm.add("-Xmx2g");
    jvm.add("-D" + Notebook.WORK_PROPERTY + "=" + work);
    jvm.add("-Dlog4j2.configurationFile=" + ROOT.resolve("bin/log4j2-quiet.properties"));
    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    return run(script, classPath, jvm);
  }

  /** A script that needs only this module's classes (the tests of the failure handling). */
  static JShellRun plain(Path script) throws IOException, InterruptedException {
    return run(script, MODULE.resolve("target/classes").toString(), List.of());
  }

  private static JShellRun run(Path script, String classPath, List<String> jvmOptions)
      throws IOException, InterruptedException {
    Path target = MODULE.resolve("target");
    Path tmp = Files.createDirectories(target.resolve("tmp"));
    Path log = Files.createDirectories(target.resolve("notebook-logs"))
        .resolve(script.getFileName().toString().replaceFirst("\\.jsh$", ".log"));
    List<String> cmd = new ArrayList<>(List.of(jshell(), "--class-path", classPath,
        // jshell keeps its preferences under the user's home; the test keeps them in target
        "-J-Djava.util.prefs.userRoot=" + target.resolve("jshell-prefs"), "-J-Djava.io.tmpdir=" + tmp,
        "-R-Djava.io.tmpdir=" + tmp));
    for (String o : jvmOptions) {
      if (!o.isEmpty()) {
        cmd.add("-R" + o);
      }
    }
    cmd.add(script.toString());
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(ROOT.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile());
    pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    Process p = pb.start();
    try (OutputStream stdin = p.getOutputStream()) {
      stdin.write("/exit 1\n".getBytes(StandardCharsets.UTF_8));
    }
    if (!p.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
      p.destroyForcibly().waitFor();
      fail(script.getFileName() + " still running after " + TIMEOUT_MINUTES + " minutes; output so far:\n"
          + Files.readString(log));
    }
    return new JShellRun(script, p.exitValue(), Files.readString(log));
  }

  private static String jshell() {
    Path bin = Path.of(System.getProperty("java.home"), "bin", "jshell");
    assertThat(bin).as("jshell of this JDK (module jdk.jshell; openjdk-17-jdk-headless has it)").isExecutable();
    return bin.toString();
  }

  /** Exit status 0, the notebook's own verdict, and no exception, error or failed check anywhere. */
  void assertClean() {
    assertThat(exitCode).as(script.getFileName() + " exit status; output:\n" + output).isZero();
    assertThat(output).contains("notebook done:");
    assertThat(TROUBLE.matcher(output).results().map(m -> m.group()).toList())
        .as("exceptions or errors reported in the output of " + script.getFileName() + ":\n" + output).isEmpty();
  }
}
