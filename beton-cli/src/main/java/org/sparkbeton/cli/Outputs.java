package org.sparkbeton.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writes an output file through a temporary sibling that is moved into place only when complete, so a
 * failed or interrupted rewrite/merge never leaves a half-written {@code .beton} under the final name.
 */
final class Outputs {
  @FunctionalInterface
  interface Writer<T> {
    T write(Path tmp) throws IOException;
  }

  private Outputs() {}

  static void checkWritable(Path out, boolean force, Iterable<Path> inputs) throws IOException {
    for (Path in : inputs) {
      Inputs.requireDistinct(out, in);
    }
    if (Files.exists(out) && !force) {
      throw new CliException(out + ": already exists; pass --force to replace it");
    }
    Path dir = out.toAbsolutePath().getParent();
    if (dir != null && !Files.isDirectory(dir)) {
      throw new CliException(out + ": directory " + dir + " does not exist");
    }
  }

  static <T> T writeAtomically(Path out, Writer<T> writer) throws IOException {
    Path abs = out.toAbsolutePath();
    Path tmp = abs.resolveSibling("." + abs.getFileName() + ".partial-" + ProcessHandle.current().pid());
    // Ctrl-C runs shutdown hooks but no finally blocks: the hook removes the partial file then
    Thread cleanup = new Thread(() -> tmp.toFile().delete(), "beton-remove-partial-output");
    Runtime.getRuntime().addShutdownHook(cleanup);
    boolean done = false;
    try {
      T result = writer.write(tmp);
      Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      done = true;
      return result;
    } finally {
      if (!done) {
        Files.deleteIfExists(tmp);
      }
      try {
        Runtime.getRuntime().removeShutdownHook(cleanup);
      } catch (IllegalStateException shuttingDown) {
        // the JVM is already exiting; the hook runs and finds nothing or the partial file
      }
    }
  }
}
