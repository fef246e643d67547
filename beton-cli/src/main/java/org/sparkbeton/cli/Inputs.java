package org.sparkbeton.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.sparkbeton.format.BetonReader;

/** Opens files named on the command line, with a clear message for the usual mistakes. */
final class Inputs {
  private Inputs() {}

  static BetonReader open(Path path) throws IOException {
    requireReadableFile(path);
    return BetonReader.open(path);
  }

  static void requireReadableFile(Path path) {
    if (!Files.exists(path)) {
      throw new CliException(path + ": no such file");
    }
    if (Files.isDirectory(path)) {
      throw new CliException(path + ": is a directory, expected a .beton file");
    }
    if (!Files.isReadable(path)) {
      throw new CliException(path + ": permission denied");
    }
  }

  /** Refuses to write over an input: the input is memory-mapped, truncating it would crash the reader. */
  static void requireDistinct(Path out, Path in) throws IOException {
    if (Files.exists(out) && Files.isSameFile(out, in)) {
      throw new CliException("output " + out + " is the input " + in + "; write to another file");
    }
    if (Files.isDirectory(out)) {
      throw new CliException(out + ": is a directory, expected an output file name");
    }
  }
}
