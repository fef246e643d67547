package org.sparkbeton.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A cluster command as the README prints it and a user types it, {@code spark-submit ...} or
 * {@code spark-shell ...}, with shell variables ({@code $MASTER}, {@code $JAR}, ...) for what differs between
 * clusters; run the way Spark's {@code bin/} scripts run it. {@code spark-submit} is
 * {@code org.apache.spark.deploy.SparkSubmit}; {@code spark-shell} is SparkSubmit with the REPL as main class,
 * {@code spark-shell} as primary resource and {@code -Dscala.usejavacp=true}, as {@code bin/spark-shell} and
 * Spark's launcher build it. The driver JVM gets what the launcher gives it: {@code -Xmx1g}
 * ({@code spark.driver.memory}'s default) and Spark's Java 17 opens.
 */
final class UserCommand {
  private static final Pattern VARIABLE = Pattern.compile("\\$([A-Z_]+)");

  /** What a finished command printed; its output files stay in the test's directory. */
  record Finished(String command, int exitCode, String stdout, String stderr) {
    /** The command and the end of its output, for assertion messages. */
    String describe() {
      return command + "\nexit code " + exitCode + "\n--- stdout (end) ---\n" + tail(stdout)
          + "\n--- stderr (end) ---\n" + tail(stderr);
    }

    private static String tail(String s) {
      return s.length() <= 6000 ? s : "..." + s.substring(s.length() - 6000);
    }
  }

  private UserCommand() {}

  /**
   * Runs {@code line} with its variables replaced (each word on its own, so a value may hold any character),
   * {@code stdin} fed to it, in {@code dir}; waits at most {@code timeoutMinutes} (a guard against a hung
   * driver, not a measurement).
   */
  static Finished run(String line, Map<String, String> variables, SparkDistribution spark, Path dir, String name,
      String stdin, int timeoutMinutes) throws IOException, InterruptedException {
    List<String> words = new ArrayList<>();
    for (String word : line.trim().split("\\s+")) {
      words.add(substitute(word, variables));
    }
    List<String> args = words.subList(1, words.size());
    List<String> cmd = switch (words.get(0)) {
      case "spark-submit" -> spark.javaCommand("1g", List.of(), "org.apache.spark.deploy.SparkSubmit", args);
      case "spark-shell" -> {
        List<String> shellArgs = new ArrayList<>(List.of("--class", "org.apache.spark.repl.Main", "--name",
            "Spark shell"));
        shellArgs.addAll(args);
        shellArgs.add("spark-shell");
        yield spark.javaCommand("1g", List.of("-Dscala.usejavacp=true"), "org.apache.spark.deploy.SparkSubmit",
            shellArgs);
      }
      default -> throw new IllegalArgumentException("Not a Spark command: " + line);
    };
    Path in = Files.writeString(dir.resolve(name + ".stdin"), stdin == null ? "" : stdin);
    Path out = dir.resolve(name + ".stdout");
    Path err = dir.resolve(name + ".stderr");
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectInput(in.toFile())
        .redirectOutput(out.toFile()).redirectError(err.toFile());
    spark.configure(pb, "127.0.0.1");
    Process p = pb.start();
    int code;
    try {
      if (!p.waitFor(timeoutMinutes, TimeUnit.MINUTES)) {
        p.destroyForcibly().waitFor();
        code = -1;
      } else {
        code = p.exitValue();
      }
    } finally {
      p.destroyForcibly();
    }
    String shown = String.join(" ", words) + (stdin == null ? "" : " <<< " + Arrays.toString(stdin.lines().toArray()));
    return new Finished(code == -1 ? shown + " (killed after " + timeoutMinutes + " minutes)" : shown, code,
        Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
  }

  private static String substitute(String word, Map<String, String> variables) {
    Matcher m = VARIABLE.matcher(word);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      String value = variables.get(m.group(1));
      if (value == null) {
        throw new IllegalArgumentException("No value for $" + m.group(1) + " in '" + word + "'; have "
            + variables.keySet());
      }
      m.appendReplacement(sb, Matcher.quoteReplacement(value));
    }
    return m.appendTail(sb).toString();
  }
}
