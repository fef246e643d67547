package org.sparkbeton.cli;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.sparkbeton.format.io.LocalPaths;
import picocli.CommandLine;

/**
 * A local path on the command line, given as a path or as a {@code file:} URI in any of the forms Hadoop and Spark
 * print ({@code file:/data/x}, {@code file:///data/x}, percent-escaped or not). The converter of every {@link Path}
 * argument and option: a URI of another scheme is refused with a line naming the commands that read remote datasets,
 * instead of being taken as a relative path that does not exist.
 */
final class LocalPathArgument implements CommandLine.ITypeConverter<Path> {
  /** A scheme followed by a slash: {@code file:/x}, {@code hdfs://nn/x}; not a relative name holding a colon. */
  private static final Pattern SCHEME = Pattern.compile("^([a-zA-Z][a-zA-Z0-9+.-]*):/.*", Pattern.DOTALL);

  @Override
  public Path convert(String arg) {
    String scheme = scheme(arg);
    if (scheme == null) {
      try {
        return pathOf(arg);
      } catch (CliException e) {
        throw new CommandLine.TypeConversionException(e.getMessage());
      }
    }
    if (!"file".equalsIgnoreCase(scheme)) {
      throw new CommandLine.TypeConversionException(arg + " is not a local path: this command reads and writes"
          + " local files (`beton inspect`, `verify`, `dump`, `gc`, `bench` and `doctor` read datasets and files on"
          + " hdfs://, s3a:// and other Hadoop file systems; copy one here first for the others, e.g. `hadoop fs -get "
          + arg + "`)");
    }
    try {
      return fileUri(arg);
    } catch (CliException e) {
      throw new CommandLine.TypeConversionException(e.getMessage());
    }
  }

  /**
   * The local path {@code arg} names, a path or a {@code file:} URI; null where it is a URI of another scheme (a remote
   * dataset, for the commands that read one).
   */
  static Path localPath(String arg) {
    String scheme = scheme(arg);
    return scheme == null ? pathOf(arg) : "file".equalsIgnoreCase(scheme) ? fileUri(arg) : null;
  }

  /**
   * {@code name} as a path of this JVM; refused in one line where the JVM cannot hold it: under the POSIX locale
   * (a container, cron, {@code java -jar} without a UTF-8 locale) a name that is not ASCII, which Java refused as
   * "Malformed input or input contains unmappable characters" without saying why.
   */
  static Path pathOf(String name) {
    try {
      return Path.of(name);
    } catch (java.nio.file.InvalidPathException e) {
      String hint = LocalPaths.nameCharsetHint();
      throw new CliException(name + ": not a file name this JVM can use (" + e.getReason() + ")"
          + (hint.isEmpty() ? "" : hint));
    }
  }

  /** The scheme of {@code arg} when it is a URI ({@code scheme:/...}), else null. */
  static String scheme(String arg) {
    Matcher m = SCHEME.matcher(arg);
    return m.matches() ? m.group(1) : null;
  }

  /**
   * The local path of a {@code file:} URI. A URI that does not parse as one (it holds a space or a {@code %} that
   * escapes nothing, as a path typed by hand does) names the path after {@code file:} as written.
   */
  static Path fileUri(String arg) {
    URI uri;
    try {
      uri = new URI(arg);
    } catch (URISyntaxException notEscaped) {
      return pathOf(unescapedPath(arg));
    }
    if (uri.getAuthority() == null) {
      return LocalPaths.of(uri);
    }
    requireThisMachine(arg, uri.getAuthority());
    return LocalPaths.of(URI.create("file:" + uri.getRawPath()));
  }

  /** Refuses a {@code file:} URI naming another host than this machine (none, or {@code localhost}). */
  private static void requireThisMachine(String arg, String host) {
    if (!host.isEmpty() && !"localhost".equalsIgnoreCase(host)) {
      throw new CliException(arg + ": a file: URI with a host (" + host + "); name a file of this machine,"
          + " e.g. file:///data/x");
    }
  }

  private static String unescapedPath(String arg) {
    String rest = arg.substring("file:".length());
    if (rest.startsWith("//")) {
      int slash = rest.indexOf('/', 2);
      requireThisMachine(arg, slash < 0 ? rest.substring(2) : rest.substring(2, slash));
      rest = slash < 0 ? "/" : rest.substring(slash);
    }
    return rest;
  }
}
