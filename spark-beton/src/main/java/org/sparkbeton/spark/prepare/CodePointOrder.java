package org.sparkbeton.spark.prepare;

import java.util.Comparator;

/**
 * Strings in the order of their Unicode code points, the order of Python's {@code sorted()}, by which torchvision's
 * {@code ImageFolder} numbers its classes. {@link String#compareTo} compares UTF-16 units instead, which puts a
 * character above U+FFFF (an emoji, a CJK Extension B ideograph) before one in U+E000-U+FFFF (fullwidth forms,
 * private use): class folders named so would get other labels than torchvision gives them.
 */
final class CodePointOrder implements Comparator<String> {
  static final CodePointOrder INSTANCE = new CodePointOrder();

  private CodePointOrder() {
  }

  @Override
  public int compare(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }
}
