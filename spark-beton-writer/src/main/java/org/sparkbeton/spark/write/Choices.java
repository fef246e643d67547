package org.sparkbeton.spark.write;

import java.util.Locale;

/** Options whose value is one of an enum's constants, written as their lower-case names. */
final class Choices {
  private Choices() {}

  /**
   * The constant of {@code type} named {@code text} (trimmed, any case); otherwise an IllegalArgumentException
   * naming the option, the names allowed and {@code text} as given (trimmed).
   */
  static <E extends Enum<E>> E parse(String option, String text, Class<E> type) {
    String given = text.trim();
    E[] values = type.getEnumConstants();
    StringBuilder allowed = new StringBuilder();
    for (int i = 0; i < values.length; i++) {
      if (label(values[i]).equals(given.toLowerCase(Locale.ROOT))) {
        return values[i];
      }
      allowed.append(i == 0 ? "" : i == values.length - 1 ? " or " : ", ").append(label(values[i]));
    }
    throw new IllegalArgumentException("Option " + option + " must be " + allowed + ", got '" + given + "'");
  }

  /** The option value that names {@code value}. */
  static String label(Enum<?> value) {
    return value.name().toLowerCase(Locale.ROOT);
  }
}
