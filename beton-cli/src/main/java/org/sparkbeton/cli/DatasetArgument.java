package org.sparkbeton.cli;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.sparkbeton.codec.ImageDecodeException;
import org.sparkbeton.codec.jpeg.JpegException;
import org.sparkbeton.format.BetonFormatException;

/** The DATASET of {@code doctor} and {@code bench}: a .beton file or a dataset directory, local. */
final class DatasetArgument {
  private static final Pattern URI_SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*://.*");

  private DatasetArgument() {}

  /**
   * The local path {@code arg} names ({@code file://} URIs included); a remote URI is refused with one line (the
   * loader reads local files; a remote loader is not part of it yet).
   */
  static Path path(String arg) {
    Path path;
    if (URI_SCHEME.matcher(arg).matches()) {
      URI uri;
      try {
        uri = URI.create(arg);
      } catch (IllegalArgumentException e) {
        throw new CliException(arg + ": not a valid URI (" + e.getMessage() + ")");
      }
      if (!"file".equalsIgnoreCase(uri.getScheme())) {
        throw new CliException(arg + ": the loader reads local files and dataset directories, not "
            + uri.getScheme() + ":// URIs; copy the dataset to a local disk (or mount it) and name the copy");
      }
      path = Path.of(uri);
    } else {
      path = Path.of(arg);
    }
    if (!Files.exists(path)) {
      throw new CliException(path + ": no such file or directory");
    }
    if (!Files.isReadable(path)) {
      throw new CliException(path + ": permission denied");
    }
    return path;
  }

  /**
   * A failure inside the loader caused by the data (a corrupt image or file) is the user's to fix: one line, with
   * the loader's message naming the batch and sample.
   */
  static RuntimeException userFacing(RuntimeException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof JpegException || t instanceof ImageDecodeException || t instanceof BetonFormatException) {
        return new CliException(e.getMessage());
      }
    }
    return e;
  }
}
