package org.sparkbeton.spark.write;

/**
 * A row's value other than an image cannot be stored: a null under {@code nullPolicy=fail}, an array not of its
 * column's shape or holding a null, a sample of other values than images larger than a page. Like a bad image it
 * fails every attempt the same way: the write does not retry it, and {@code format("beton")}'s save throws it again
 * on the driver, at the top of the failure's chain, naming the column, the row, its source and the reason.
 */
public final class BadValueException extends IllegalArgumentException implements BadRow {
  private static final long serialVersionUID = 1L;
  private static final String PREFIX = "Bad value in ";

  /**
   * @param column the column, or null when the values of several are at fault together
   * @param row the row's index within its partition (Spark's task input), from 0
   * @param source the row's source id (option {@code sourceIdColumn}); null when unknown
   * @param reason what is wrong, with what to do about it
   */
  BadValueException(String column, long row, int partition, String source, String reason, Throwable cause) {
    this(PREFIX + (column == null ? "" : "column '" + column + "', ") + "row " + row + " of partition " + partition
        + (source == null || source.isBlank() ? "" : " (source " + source + ")") + ": " + reason, cause);
  }

  private BadValueException(String message, Throwable cause) {
    super(message, cause);
  }

  /** The same failure, thrown again with {@code cause} (the job's failure as Spark reports it) as its cause. */
  @Override
  public BadValueException rethrownWith(Throwable cause) {
    return new BadValueException(getMessage(), cause);
  }


  /**
   * The bad value a failed task reported, from the class name and message Spark's listener events carry for it;
   * null when the task failed on anything else.
   */
  public static BadValueException fromTaskFailure(String className, String description, Throwable cause) {
    if (!BadValueException.class.getName().equals(className) || description == null
        || !description.startsWith(PREFIX)) {
      return null;
    }
    return new BadValueException(description, cause);
  }
}
