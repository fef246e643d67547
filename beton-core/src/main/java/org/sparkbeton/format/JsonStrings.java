package org.sparkbeton.format;

/**
 * JSON string literals as Python's {@code json.dumps} writes them (ASCII only: other characters as
 * {@code \\uXXXX}), so the text this project prints diffs cleanly against FFCV-side tools.
 */
public final class JsonStrings {
  private JsonStrings() {}

  public static void append(StringBuilder out, String s) {
    out.append('"');
    if (isPlain(s)) {
      // most strings (names, paths, hex digits) need no escape: one append instead of one per character
      out.append(s).append('"');
      return;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> {
          if (c < 0x20 || c > 0x7e) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  /** True when every character of {@code s} is printable ASCII other than {@code "} and {@code \\}. */
  private static boolean isPlain(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
        return false;
      }
    }
    return true;
  }

  public static String quote(String s) {
    StringBuilder out = new StringBuilder(s.length() + 2);
    append(out, s);
    return out.toString();
  }
}
