package org.sparkbeton.notebooks;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Jupyter kernelspec of the notebooks: a folder {@value #NAME} holding {@code kernel.json}, which starts
 * {@link KernelMain} (rapaio-jupyter-kernel) in a JVM whose class path is the notebooks' (target/classes, Spark,
 * the loader, DJL, XChart, ...) with the kernel jar last, so that where the kernel's fat jar bundles a library Spark
 * also has, Spark's copy wins. The kernel's JShell compiles cells against that same class path.
 *
 * <p>{@code NotebooksTest} writes it through {@link #write}, {@code bin/beton-notebook} through {@link #main}.
 *
 * @param java the {@code java} executable
 * @param classPath the notebooks' class path entries, in order
 * @param kernelJar rapaio-jupyter-kernel's jar
 * @param workDir where the notebooks write ({@link Notebook#workDir()}); DJL's cache goes next to it
 *     ({@link #djlCache()})
 * @param jvmOptions further JVM options (Spark's Java 17 opens, -Xmx, ...); later ones win
 */
public record KernelSpec(Path java, List<Path> classPath, Path kernelJar, Path workDir, List<String> jvmOptions) {
  /** The kernelspec's name, which the notebooks' metadata names. */
  public static final String NAME = "spark-beton";
  public static final String DISPLAY_NAME = "Java 17 (spark-beton)";
  /** The kernel JVM's heap unless a JVM option says otherwise: Spark's local[2] driver and the loader fit. */
  static final String DEFAULT_HEAP = "-Xmx2g";
  static final String LOG4J_CONFIG = "/notebooks-log4j2.properties";

  public KernelSpec {
    classPath = List.copyOf(classPath);
    jvmOptions = List.copyOf(jvmOptions);
    if (!Files.isRegularFile(kernelJar)) {
      throw new IllegalArgumentException("No kernel jar at " + kernelJar + " (the build copies"
          + " rapaio-jupyter-kernel there: ./mvnw -pl notebooks -am package)");
    }
    for (Path p : classPath) {
      if (p.toString().contains(File.pathSeparator) || p.toString().isBlank()) {
        throw new IllegalArgumentException("Class path entry '" + p + "' is empty or contains '" + File.pathSeparator
            + "'");
      }
    }
  }

  /** The contents of {@code kernel.json}. */
  public Map<String, Object> json() {
    List<String> argv = new ArrayList<>();
    argv.add(java.toString());
    argv.add(DEFAULT_HEAP);
    argv.add("-Djava.awt.headless=true");
    argv.add("-Dlog4j2.configurationFile=" + log4jConfig());
    argv.add("-D" + Notebook.WORK_PROPERTY + "=" + workDir.toAbsolutePath().normalize());
    argv.addAll(djlOptions(djlCache()));
    argv.addAll(jvmOptions);
    List<String> entries = new ArrayList<>();
    classPath.forEach(p -> entries.add(p.toAbsolutePath().normalize().toString()));
    entries.add(kernelJar.toAbsolutePath().normalize().toString());
    argv.add("-cp");
    argv.add(String.join(File.pathSeparator, entries));
    argv.add(KernelMain.class.getName());
    argv.add("{connection_file}");

    Map<String, String> env = new LinkedHashMap<>();
    // the class path is the JVM's own (above); these keep a user's RJK_* settings from changing the kernel
    env.put("RJK_CLASSPATH", "");
    env.put("RJK_COMPILER_OPTIONS", "");
    env.put("RJK_INIT_SCRIPT", "");
    env.put("RJK_TIMEOUT_MILLIS", "-1");
    // local Spark binds to loopback instead of guessing a routable address
    env.put("SPARK_LOCAL_IP", "127.0.0.1");

    Map<String, Object> json = new LinkedHashMap<>();
    json.put("argv", argv);
    json.put("display_name", DISPLAY_NAME);
    json.put("language", "java");
    json.put("interrupt_mode", "message");
    json.put("env", env);
    return json;
  }

  /**
   * Where DJL unpacks PyTorch's natives (about 430 MB, on the first use of the engine): {@code djl-cache} next to
   * the work folder, {@code notebooks/target/djl-cache} for both {@code bin/beton-notebook} and the tests.
   */
  public Path djlCache() {
    return workDir.toAbsolutePath().normalize().resolveSibling("djl-cache");
  }

  /**
   * DJL's options, as loader-djl's build gives them: offline (the PyTorch natives are on the class path, in
   * pytorch-native-cpu's jar, and unpacked into {@code cache}, never downloaded) and PyTorch on one intra-op and
   * one inter-op thread (OpenMP threads that spin-wait for a descheduled sibling are slow on a busy machine).
   * A later JVM option (BETON_JAVA_OPTS) overrides any of them.
   */
  static List<String> djlOptions(Path cache) {
    return List.of("-Dai.djl.offline=true", "-DDJL_CACHE_DIR=" + cache, "-DENGINE_CACHE_DIR=" + cache,
        "-Dai.djl.pytorch.num_threads=1", "-Dai.djl.pytorch.num_interop_threads=1");
  }

  /**
   * Writes {@code <jupyterDir>/kernels/spark-beton/kernel.json}, where Jupyter finds it with {@code jupyterDir} on
   * {@code JUPYTER_PATH}; returns the kernelspec's folder.
   */
  public Path write(Path jupyterDir) throws IOException {
    Path dir = Files.createDirectories(jupyterDir.resolve("kernels").resolve(NAME));
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(dir.resolve("kernel.json").toFile(), json());
    return dir;
  }

  /** Spark's logging: warnings only, without the ones that say nothing to a notebook's reader. */
  private static String log4jConfig() {
    URL url = KernelSpec.class.getResource(LOG4J_CONFIG);
    if (url == null) {
      throw new IllegalStateException("Missing resource " + LOG4J_CONFIG + " next to " + KernelSpec.class.getName());
    }
    try {
      return "file".equals(url.getProtocol()) ? Path.of(url.toURI()).toString() : url.toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException("Cannot locate " + url, e);
    }
  }

  /**
   * {@code KernelSpec --jupyter-dir DIR --java JAVA --kernel-jar JAR --class-path CP --work DIR [JVM option ...]}:
   * writes {@code DIR/kernels/spark-beton/kernel.json} and prints its folder (for {@code jupyter kernelspec install}).
   */
  public static void main(String[] args) throws IOException {
    Map<String, String> named = new LinkedHashMap<>();
    List<String> jvm = new ArrayList<>();
    List<String> required = List.of("--jupyter-dir", "--java", "--kernel-jar", "--class-path", "--work");
    for (int i = 0; i < args.length; i++) {
      if (required.contains(args[i])) {
        if (i + 1 == args.length) {
          throw new IllegalArgumentException(args[i] + " needs a value");
        }
        named.put(args[i], args[++i]);
      } else {
        jvm.add(args[i]);
      }
    }
    for (String r : required) {
      if (!named.containsKey(r)) {
        throw new IllegalArgumentException("usage: KernelSpec --jupyter-dir DIR --java JAVA --kernel-jar JAR"
            + " --class-path CP --work DIR [JVM option ...]; missing " + r);
      }
    }
    List<Path> classPath = new ArrayList<>();
    for (String entry : named.get("--class-path").split(File.pathSeparator)) {
      if (!entry.isEmpty()) {
        classPath.add(Path.of(entry));
      }
    }
    KernelSpec spec = new KernelSpec(Path.of(named.get("--java")), classPath, Path.of(named.get("--kernel-jar")),
        Path.of(named.get("--work")), jvm);
    System.out.println(spec.write(Path.of(named.get("--jupyter-dir"))));
  }
}
