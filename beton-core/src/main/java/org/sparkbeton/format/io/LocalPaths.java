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
}
