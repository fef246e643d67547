package org.sparkbeton.format;

/**
 * A {@code .beton} file is malformed: truncated, from another version, or holding offsets, sizes or
 * type ids that cannot be right. The message always names the file, the region and the byte offset,
 * so a user can find the damage with a hex editor.
 */
public final class BetonFormatException extends RuntimeException {
  private final String file;
  private final String region;
  private final long offset;

  public BetonFormatException(String file, String region, long offset, String problem) {
    this(file, region, offset, problem, null);
  }

  public BetonFormatException(String file, String region, long offset, String problem, Throwable cause) {
    super(file + ": " + region + " at offset " + offset + ": " + problem, cause);
    this.file = file;
    this.region = region;
    this.offset = offset;
  }

  public String file() {
    return file;
  }

  /** Which part of the file: "header", "field descriptor 2", "metadata", "allocation table", ... */
  public String region() {
    return region;
  }

  /** Absolute byte offset in the file where the problem was found. */
  public long offset() {
    return offset;
  }
}
