package org.sparkbeton.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A main class of the test class path run in a new JVM: for what a JVM settles once, at its start, such as the
 * charset it reads file names in, which comes from its locale.
 */
public final class ChildJvm {
  private ChildJvm() {
  }

  /**
   * Runs {@code main} with {@code args} in a JVM whose locale is {@code locale} ({@code LC_ALL}; {@code LANG} and
   * the other {@code LC_} variables removed) and returns the first line of its output (standard output and error)
   * that starts with one of {@code prefixes}, or all of it where none does. Fails unless the JVM exits with 0.
   */
  public static String lineUnderLocale(String locale, List<String> prefixes, Class<?> main, String... args)
      throws IOException, InterruptedException {
    Finished f = run(List.of(), env -> {
      env.keySet().removeIf(k -> k.equals("LANG") || k.startsWith("LC_"));
      env.put("LC_ALL", locale);
    }, main, args);
    if (f.exitCode() != 0) {
      throw new AssertionError(main.getName() + " exited with " + f.exitCode() + ":\n" + f.output());
    }
    return f.output().lines().filter(l -> prefixes.stream().anyMatch(l::startsWith)).findFirst().orElse(f.output());
  }

  /** What a child JVM printed (standard output and error, interleaved) and its exit code. */
  public record Finished(int exitCode, String output) {
  }

  /** Runs {@code main} with {@code args} in a new JVM of this one's class path, with {@code jvmOptions} first. */
  public static Finished run(List<String> jvmOptions, Class<?> main, String... args)
      throws IOException, InterruptedException {
    return run(jvmOptions, env -> { }, main, args);
  }

  private static Finished run(List<String> jvmOptions, Consumer<Map<String, String>> environment, Class<?> main,
      String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    // the codec's JNI library loads quietly on Java 24 and later only with native access enabled (README.md)
    cmd.add("--enable-native-access=ALL-UNNAMED");
    cmd.addAll(jvmOptions);
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    environment.accept(pb.environment());
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    return new Finished(p.waitFor(), out);
  }
}
