package org.sparkbeton.spark.write;

/**
 * A row the write cannot store, the same on every attempt of its task: a bad image ({@link BadImageException}) or a
 * value that cannot be stored ({@link BadValueException}). The driver stops the write's job at the first one and
 * throws it on top of the save's failure.
 */
public sealed interface BadRow permits BadImageException, BadValueException {
  /** What is wrong: column, row, source, reason. */
  String getMessage();

  /** The same failure, thrown again with {@code cause} (the job's failure as Spark reports it) as its cause. */
  IllegalArgumentException rethrownWith(Throwable cause);

  /** The bad row in {@code failure} or its causes (where Spark puts a failed task's exception), or null. */
  static BadRow in(Throwable failure) {
    return Causes.first(failure, BadRow.class);
  }

  /**
   * The bad row a failed task reported, from the class name and message Spark's listener events carry for it
   * ({@code ExceptionFailure.className()} and {@code description()}); null when the task failed on anything else.
   */
  static BadRow fromTaskFailure(String className, String description) {
    BadImageException image = BadImageException.fromTaskFailure(className, description, null);
    return image != null ? image : BadValueException.fromTaskFailure(className, description, null);
  }
}
