package org.sparkbeton.spark.write;

/** The first of a failure's chain of causes that is of a given type. */
public final class Causes {
  private Causes() {}

  /** {@code failure} or the first of its causes (where Spark puts a failed task's exception) of {@code type}, or null. */
  public static <T> T first(Throwable failure, Class<T> type) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }
}
