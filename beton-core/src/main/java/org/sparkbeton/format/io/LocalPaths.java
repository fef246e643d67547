package org.sparkbeton.format.io;

import java.net.URI;
import java.nio.file.Path;

/** Local paths from {@code file:} URIs, whatever characters their names hold. */
public final class LocalPaths {
  private LocalPaths() {
  }

  /**
   * The local path a {@code file:} URI names. {@link Path#of(URI)} throws "Bad escape" for a {@code file:///} URI
   * whose path holds a non-ASCII character as it is ({@code file:///data/données}), the form of a qualified Hadoop
   * path and of a URI typed so; its ASCII form (UTF-8 octets percent-escaped) names the same file.
   */
  public static Path of(URI fileUri) {
    return Path.of(URI.create(fileUri.toASCIIString()));
  }

  /**
   * Whether {@code path} starts with {@code ~} as a shell's home directory does: Hadoop's paths (and Spark's) take
   * it as a file name, so {@code save("~/data")} would make a directory named {@code ~} in the working directory.
   */
  public static boolean startsWithTilde(String path) {
    return path.equals("~") || path.startsWith("~/");
  }

  /** {@code path} with a leading {@code ~} written as this JVM's home directory, for a message that suggests it. */
  public static String homeInsteadOfTilde(String path) {
    return System.getProperty("user.home") + path.substring(1);
  }

  /** For a message about a path not found: what a leading {@code ~} means to Hadoop, or "" when there is none. */
  public static String tildeHint(String path) {
    return startsWithTilde(path) ? " (~ is a file name to Hadoop, not the home directory: write "
        + homeInsteadOfTilde(path) + ")" : "";
  }

  /**
   * What to add to a message about a local file that was not found, where this JVM reads file names in a charset
   * other than UTF-8: under the POSIX locale (containers, cron, {@code env -i}) it is ASCII, a name holding any
   * other character reads as '?' and no file of that name exists. Empty under a UTF-8 locale.
   */
  public static String nameCharsetHint() {
    String charset = System.getProperty("sun.jnu.encoding", "UTF-8");
    if (charset.equalsIgnoreCase("UTF-8") || charset.equalsIgnoreCase("UTF8")) {
      return "";
    }
    return " (this JVM reads file names as " + charset + ", its locale's charset: a name holding other characters"
        + " cannot be read; run it under a UTF-8 locale, e.g. LC_ALL=C.UTF-8)";
  }
}
