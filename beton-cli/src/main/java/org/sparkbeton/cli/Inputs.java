package org.sparkbeton.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.DatasetVerifier;

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
      throw new CliException(path + ": is a directory, expected a .beton file" + directoryHint(path));
    }
    if (!Files.isReadable(path)) {
      throw new CliException(path + ": permission denied");
    }
  }

  /**
   * What to name instead of a directory: for a dataset directory its first shard, and {@code beton inspect} and
   * {@code beton verify} of the whole; for a directory of .beton files one of them; else nothing.
   */
  private static String directoryHint(Path dir) {
    if (Files.isRegularFile(dir.resolve(DatasetManifest.FILE_NAME))) {
      try {
        DatasetManifest manifest = DatasetVerifier.manifest(dir);
        if (!manifest.shards().isEmpty()) {
          return String.format(Locale.ROOT, "; it is a dataset directory of %,d shards and %,d samples: name one of"
              + " its shards (the first is %s); `beton inspect %s` describes the dataset, `beton verify %s` checks"
              + " every shard", manifest.shards().size(), manifest.totalSamples(),
              dir.resolve(manifest.shards().get(0).path()), dir, dir);
        }
      } catch (IOException | RuntimeException unreadable) {
        return "; its manifest does not read (" + unreadable.getMessage() + "): `beton verify " + dir + "` says more";
      }
    }
    List<Path> betons = betonFiles(dir);
    return betons.isEmpty() ? "" : "; it holds " + Words.plural(betons.size(), ".beton file") + ", the first "
        + betons.get(0);
  }

  /**
   * A directory given to a command that takes a .beton file or a dataset directory, which has no manifest: says what
   * it lacks, and what to name instead (one of its .beton files, where it holds some).
   */
  static CliException notADatasetDirectory(Path dir, String command) {
    List<Path> betons = betonFiles(dir);
    return new CliException(dir + " has no " + DatasetManifest.FILE_NAME + ": not a dataset directory; " + command
        + " takes a .beton file, or a dataset directory as Spark writes it (with its " + DatasetManifest.FILE_NAME
        + ")" + (betons.isEmpty() ? "" : "; it holds " + Words.plural(betons.size(), ".beton file") + ": name one, e.g."
            + " `beton " + command + " " + betons.get(0) + "`"));
  }

  /** The .beton files directly in {@code dir}, sorted; none when it cannot be listed. */
  private static List<Path> betonFiles(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.getFileName().toString().endsWith(".beton")).sorted().toList();
    } catch (IOException | RuntimeException unlistable) {
      return List.of();
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
