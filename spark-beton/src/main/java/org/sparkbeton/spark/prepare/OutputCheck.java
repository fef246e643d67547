package org.sparkbeton.spark.prepare;

import java.io.PrintStream;

/**
 * The exit code of a command once its standard output is flushed: a {@link PrintStream} swallows write errors (a
 * full disk, a closed pipe), so a summary lost that way exited 0, and a script reading it could not tell. The
 * {@code beton} command's other subcommands say the same in the same words.
 */
final class OutputCheck {
  private OutputCheck() {}

  /** {@code code}, or 2 when {@code out} could not be written, said on {@code err}. */
  static int exitCode(String command, int code, PrintStream out, PrintStream err) {
    if (out.checkError()) { // flushes, then says whether any write failed
      err.println(command + ": cannot write the output to standard output (a full disk or a closed pipe); "
          + (code == 0 ? "the job itself succeeded" : "the job had failed already"));
      return code == 0 ? 2 : code;
    }
    return code;
  }
}
