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

  /**
   * The string a JSON text holds when the text is one string literal (whitespace around it allowed), else null:
   * {@code "caf\u00e9"} gives {@code café}; {@code {"a": 1}}, {@code 3}, {@code "a" "b"} or a malformed literal give
   * null.
   */
  public static String unquote(String text) {
    int start = 0;
    int end = text.length();
    while (start < end && isJsonSpace(text.charAt(start))) {
      start++;
    }
    while (end > start && isJsonSpace(text.charAt(end - 1))) {
      end--;
    }
    if (end - start < 2 || text.charAt(start) != '"' || text.charAt(end - 1) != '"') {
      return null;
    }
    StringBuilder out = null;
    int i = start + 1;
    int last = end - 1; // the closing quote
    while (i < last) {
      char c = text.charAt(i);
      if (c == '"' || c < 0x20) {
        return null; // a quote inside: two literals or more; a control character: not JSON
      }
      if (c != '\\') {
        if (out != null) {
          out.append(c);
        }
        i++;
        continue;
      }
      if (out == null) {
        out = new StringBuilder(last - start).append(text, start + 1, i);
      }
      if (i + 1 >= last) {
        return null; // the closing quote escaped
      }
      char e = text.charAt(i + 1);
      switch (e) {
        case '"', '\\', '/' -> out.append(e);
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'u' -> {
          if (i + 6 > last) {
            return null;
          }
          int code = 0;
          for (int k = i + 2; k < i + 6; k++) {
            int d = Character.digit(text.charAt(k), 16);
            if (d < 0) {
              return null;
            }
            code = code * 16 + d;
          }
          out.append((char) code);
          i += 4;
        }
        default -> {
          return null;
        }
      }
      i += 2;
    }
    return out == null ? text.substring(start + 1, last) : out.toString();
  }

  private static boolean isJsonSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
  }

  public static String quote(String s) {
    StringBuilder out = new StringBuilder(s.length() + 2);
    append(out, s);
    return out.toString();
  }
}
