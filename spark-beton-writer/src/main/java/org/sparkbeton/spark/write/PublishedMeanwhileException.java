package org.sparkbeton.spark.write;

/**
 * A write of a new dataset found one published at its path by another write while it ran (two prepares of one
 * output at once), so it published nothing and deleted its files. A type of its own so that a command can say so
 * in its own flags ({@code beton prepare}: {@code --append}, {@code --overwrite}) instead of in DataFrame modes.
 */
public final class PublishedMeanwhileException extends IllegalStateException {
  private final String path;

  public PublishedMeanwhileException(String path, String message) {
    super(message);
    this.path = path;
  }

  /** The dataset's path. */
  public String path() {
    return path;
  }
}
