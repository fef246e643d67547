package org.sparkbeton.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;

/** Runs the command line in-process, capturing stdout and stderr. */
final class Cli {
  record Result(int exitCode, String out, String err) {
    List<String> outLines() {
      return out.isEmpty() ? List.of() : Arrays.asList(out.split("\n"));
    }

    List<String> errLines() {
      return err.isEmpty() ? List.of() : Arrays.asList(err.split("\n"));
    }
  }

  private Cli() {}

  static Result run(Object... args) {
    String[] argv = Arrays.stream(args).map(String::valueOf).toArray(String[]::new);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = BetonCli.commandLine();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int code = cli.execute(argv);
    return new Result(code, out.toString().replace("\r\n", "\n"), err.toString().replace("\r\n", "\n"));
  }
}
