package org.sparkbeton.format.dataset;

/**
 * A dataset manifest is malformed: bad JSON syntax (with the character offset), a missing or
 * mistyped key (with its JSON path), or contents that contradict each other.
 */
public final class ManifestFormatException extends IllegalArgumentException {
  private final long position;

  /** A syntax error at character offset {@code position} of the manifest text. */
  ManifestFormatException(String problem, int position) {
    super("Malformed manifest JSON at offset " + position + ": " + problem);
    this.position = position;
  }

  /** A content error at JSON path {@code path} (e.g. {@code $.shards[2].samples}). */
  ManifestFormatException(String path, String problem) {
    super("Invalid manifest at " + path + ": " + problem);
    this.position = -1;
  }

  /** Character offset of a syntax error, or -1 for content errors. */
  public long position() {
    return position;
  }
}
