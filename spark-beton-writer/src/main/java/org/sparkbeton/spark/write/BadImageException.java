package org.sparkbeton.spark.write;

import org.sparkbeton.codec.jpeg.JpegReaderWarnings;

/**
 * A row's image cannot be stored and option {@code badImagePolicy} is {@code fail} (the default). The write task
 * throws it; {@code format("beton")}'s save throws it again on the driver, at the top of the failure's chain, so
 * the first line a DataFrame user reads names the column, the row, its source and the reason, and the option that
 * leaves such rows out. Bad input fails the same way on every attempt: the write does not retry it.
 */
public final class BadImageException extends IllegalArgumentException implements BadRow {
  private static final long serialVersionUID = 1L;
  private static final String PREFIX = "Bad image in ";
  private static final String HINT = " (set badImagePolicy=skip or quarantine to leave such rows out)";
  /** The hint for a JPEG only a strict decode refuses: storing what libjpeg decodes keeps the row. */
  private static final String STRICT_HINT = " (set jpegStrict=false to store what libjpeg decodes around the damage,"
      + " as FFCV does, or badImagePolicy=skip or quarantine to leave such rows out)";

  private final String detail;

  /**
   * @param row the row's index within its partition (Spark's task input), from 0
   * @param source the row's source id (option {@code sourceIdColumn}, else its image path); null when unknown
   */
  BadImageException(String column, long row, int partition, String source, String reason, Throwable cause) {
    this("column '" + column + "', row " + row + " of partition " + partition
        + (source == null || source.isBlank() ? "" : " (source " + source + ")") + ": " + reason, cause);
  }

  private BadImageException(String detail, Throwable cause) {
    super(PREFIX + detail + (JpegReaderWarnings.refusedOnlyWhenStrict(detail) ? STRICT_HINT : HINT), cause);
    this.detail = detail;
  }

  /** Whether the image is a JPEG that only a strict decode refuses ({@code jpegStrict=false} would store it). */
  public boolean refusedOnlyWhenStrict() {
    return JpegReaderWarnings.refusedOnlyWhenStrict(detail);
  }

  /**
   * Column, row, source and reason without the advice: {@code column 'image', row 4 of partition 1 (source
   * file:/photos/cat/17.jpg): Native JPEG probe failed: Premature end of JPEG file}. A command line that sets the
   * policy with a flag of its own gives its own advice after this.
   */
  public String detail() {
    return detail;
  }

  /** The same bad image, thrown again with {@code cause} (the job's failure as Spark reports it) as its cause. */
  @Override
  public BadImageException rethrownWith(Throwable cause) {
    return new BadImageException(detail, cause);
  }


  /**
   * The bad image a failed task reported, from the class name and message Spark's listener events carry for it
   * ({@code ExceptionFailure.className()} and {@code description()}), with {@code cause}; null when the task failed
   * on anything else.
   */
  public static BadImageException fromTaskFailure(String className, String description, Throwable cause) {
    if (!BadImageException.class.getName().equals(className) || description == null
        || !description.startsWith(PREFIX)) {
      return null;
    }
    for (String hint : new String[] {HINT, STRICT_HINT}) {
      if (description.endsWith(hint)) {
        return new BadImageException(description.substring(PREFIX.length(), description.length() - hint.length()),
            cause);
      }
    }
    return null;
  }
}
