package org.sparkbeton.notebooks;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Executes notebooks headless with {@code jupyter nbconvert --to notebook --execute} on the {@link KernelSpec}
 * kernel, the way {@code bin/beton-notebook --execute} and {@code NotebooksTest} run them. nbconvert stops at the
 * first cell error and exits non-zero; {@link Result#failure()} is then its report of that cell.
 */
public final class Nbconvert {
  /** Environment variable: the {@code jupyter} command to use, when not Debian's {@code /usr/bin/jupyter}. */
  public static final String JUPYTER_ENV = "BETON_JUPYTER";
  /** What a machine without Jupyter needs (Debian 12's packages; .ci/run installs them). */
  public static final String INSTALL_HINT = "apt-get install -y --no-install-recommends jupyter-nbconvert"
      + " python3-nbclient python3-jupyter-client python3-ipykernel jupyter-notebook";
  /** A cell may run this long (the slowest cell, Spark's first write, takes well under a minute). */
  static final int CELL_TIMEOUT_SECONDS = 600;
  /** Starting the kernel JVM (JShell over Spark's class path) on a loaded 2-core machine. */
  static final int STARTUP_TIMEOUT_SECONDS = 180;
  /** A whole notebook. */
  static final long NOTEBOOK_TIMEOUT_MINUTES = 15;

  private final String jupyter;
  private final Path jupyterDir;

  /** Runs {@code jupyter} with {@code jupyterDir} (which holds {@code kernels/spark-beton}) first on JUPYTER_PATH. */
  public Nbconvert(String jupyter, Path jupyterDir) {
    this.jupyter = jupyter;
    this.jupyterDir = jupyterDir.toAbsolutePath().normalize();
  }

  /** {@code $BETON_JUPYTER}, else {@code /usr/bin/jupyter} where it exists, else {@code jupyter} from the PATH. */
  public static String defaultJupyter() {
    String env = System.getenv(JUPYTER_ENV);
    if (env != null && !env.isBlank()) {
      return env;
    }
    // python3 and jupyter on the PATH may be a pyenv shim without Debian's packages
    return Files.isExecutable(Path.of("/usr/bin/jupyter")) ? "/usr/bin/jupyter" : "jupyter";
  }

  /** nbconvert's version, or empty when {@code jupyter nbconvert} cannot run here. */
  public static Optional<String> version(String jupyter) {
    try {
      Process p = new ProcessBuilder(jupyter, "nbconvert", "--version").redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes()).trim();
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return Optional.empty();
      }
      return p.exitValue() == 0 && out.matches("[\\d.]+\\S*") ? Optional.of(out) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /**
   * What one execution gave.
   *
   * @param notebook the notebook run
   * @param output the executed notebook (the input itself when run in place)
   * @param exitCode nbconvert's exit status
   * @param log nbconvert's standard output and error (with the kernel's)
   */
  public record Result(Path notebook, Path output, int exitCode, String log) {
    public boolean ok() {
      return exitCode == 0 && Files.isRegularFile(output);
    }

    /** nbconvert's report of the failed cell (its source and error, terminal colours removed), or the log's end. */
    public String failure() {
      String plain = log.replaceAll("\u001B\\[[;\\d]*m", "");
      int at = plain.indexOf("An error occurred while executing the following cell");
      return at >= 0 ? plain.substring(at).trim() : plain.substring(Math.max(0, plain.length() - 4000)).trim();
    }
  }

  /**
   * Executes {@code notebook} into {@code outputDir} (same file name), or in place when {@code outputDir} is null
   * (the file is rewritten only when every cell ran). nbconvert's output goes to {@code log} as it runs.
   */
  public Result execute(Path notebook, Path outputDir, Path log) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(jupyter, "nbconvert", "--to", "notebook", "--execute",
        "--ExecutePreprocessor.kernel_name=" + KernelSpec.NAME,
        "--ExecutePreprocessor.timeout=" + CELL_TIMEOUT_SECONDS,
        "--ExecutePreprocessor.startup_timeout=" + STARTUP_TIMEOUT_SECONDS,
        // no per-cell timestamps in the committed notebooks: re-running changes only what the cells print
        "--ExecutePreprocessor.record_timing=False"));
    Path output;
    if (outputDir == null) {
      cmd.add("--inplace");
      output = notebook;
    } else {
      Files.createDirectories(outputDir);
      cmd.add("--output-dir=" + outputDir.toAbsolutePath());
      output = outputDir.resolve(notebook.getFileName());
      Files.deleteIfExists(output);
    }
    cmd.add(notebook.toAbsolutePath().toString());
    Files.createDirectories(log.toAbsolutePath().getParent());
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
    String path = System.getenv("JUPYTER_PATH");
    pb.environment().put("JUPYTER_PATH", jupyterDir + (path == null || path.isEmpty() ? "" : File.pathSeparator + path));
    Process p = pb.start();
    if (!p.waitFor(NOTEBOOK_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly().waitFor();
      return new Result(notebook, output, -1, Files.readString(log) + "\n" + notebook.getFileName()
          + " still running after " + NOTEBOOK_TIMEOUT_MINUTES + " minutes; stopped");
    }
    return new Result(notebook, output, p.exitValue(), Files.readString(log));
  }

  /**
   * {@code Nbconvert --jupyter-dir DIR (--output-dir DIR | --in-place) NOTEBOOK...}: executes the notebooks in
   * order, stopping at the first that fails (exit status 1, with nbconvert's report of the failed cell).
   */
  public static void main(String[] args) throws IOException, InterruptedException {
    Path jupyterDir = null;
    Path outputDir = null;
    boolean inPlace = false;
    List<Path> notebooks = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--jupyter-dir" -> jupyterDir = Path.of(value(args, ++i, "--jupyter-dir"));
        case "--output-dir" -> outputDir = Path.of(value(args, ++i, "--output-dir"));
        case "--in-place" -> inPlace = true;
        default -> notebooks.add(Path.of(args[i]));
      }
    }
    if (jupyterDir == null || notebooks.isEmpty() || inPlace == (outputDir != null)) {
      System.err.println("usage: Nbconvert --jupyter-dir DIR (--output-dir DIR | --in-place) NOTEBOOK...");
      System.exit(2);
    }
    String jupyter = defaultJupyter();
    if (version(jupyter).isEmpty()) {
      System.err.println("beton-notebook: '" + jupyter + " nbconvert' does not run here. Install Jupyter: " + INSTALL_HINT
          + " (or set " + JUPYTER_ENV + " to a jupyter command that has nbconvert)");
      System.exit(2);
    }
    Nbconvert nbconvert = new Nbconvert(jupyter, jupyterDir);
    for (Path notebook : notebooks) {
      Path log = jupyterDir.resolve("logs").resolve(notebook.getFileName().toString().replaceFirst("\\.ipynb$", ".log"));
      System.out.println("=== " + notebook.getFileName());
      long start = System.nanoTime();
      Result r = nbconvert.execute(notebook, inPlace ? null : outputDir, log);
      if (!r.ok()) {
        System.err.println(r.failure());
        System.err.println("beton-notebook: " + notebook.getFileName() + " failed (nbconvert exit " + r.exitCode()
            + "); full output in " + log);
        System.exit(1);
      }
      System.out.printf("    all cells ran in %.0f s; executed notebook: %s%n", (System.nanoTime() - start) / 1e9,
          r.output());
    }
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[i];
  }
}
