package org.sparkbeton.spark.prepare;

import org.sparkbeton.format.io.LocalPaths;

/**
 * A local file name this JVM cannot read, so cannot open the file by: bad input (exit 2), with how to fix it. Its
 * bytes are not in the charset the JVM reads file names in: under a UTF-8 locale, a name written in another
 * charset (Latin-1 by older Windows tools and cameras); under the POSIX locale, any name that is not ASCII.
 */
final class UnreadableNameException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  UnreadableNameException(String message) {
    super(message);
  }

  /** {@code message}, met by a Spark task: {@code cause} is the failed job. */
  UnreadableNameException(String message, Throwable cause) {
    super(message, cause);
  }

  /** The name of an entry of {@code folder} (local path {@code localFolder}) that reads as {@code readAs}. */
  static UnreadableNameException in(String folder, java.nio.file.Path localFolder, String readAs) {
    String hint = LocalPaths.nameCharsetHint();
    return new UnreadableNameException("Cannot read the name of an entry of folder " + folder + " (it reads as '"
        + readAs + "')" + (hint.isEmpty() ? ": its bytes are not UTF-8; rename it in UTF-8, e.g. with convmv -f"
        + " latin1 -t utf8 -r --notest " + shellWord(localFolder.toString()) + " where names were written in Latin-1"
        + " (without --notest convmv only shows what it would rename)" : hint));
  }

  /** {@code s} as one shell word: as it is where it holds only safe characters, else single-quoted. */
  static String shellWord(String s) {
    return s.matches("[A-Za-z0-9_./:@%+=,-]+") ? s : "'" + s.replace("'", "'\\''") + "'";
  }
}
