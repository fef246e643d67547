package org.sparkbeton.spark.write;

import java.util.function.Predicate;

/** The first of a failure's chain of causes that is of a given type, or that a test picks. */
public final class Causes {
  private Causes() {}

  /** {@code failure} or the first of its causes (where Spark puts a failed task's exception) of {@code type}, or null. */
  public static <T> T first(Throwable failure, Class<T> type) {
    Throwable found = first(failure, type::isInstance);
    return found == null ? null : type.cast(found);
  }

  /** {@code failure} or the first of its causes that {@code picked} accepts, or null. */
  public static Throwable first(Throwable failure, Predicate<Throwable> picked) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (picked.test(t)) {
        return t;
      }
    }
    return null;
  }
}
