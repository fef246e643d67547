package org.sparkbeton.format.dump;

/** Minimal JSON text output with Python's {@code json.dumps} conventions (ASCII only, ", " and ": "). */
final class Json {
  private Json() {}

  static void string(StringBuilder out, String s) {
    out.append('"');
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

  static void number(StringBuilder out, double v) {
    if (Double.isNaN(v)) {
      out.append("NaN");
    } else if (Double.isInfinite(v)) {
      out.append(v > 0 ? "Infinity" : "-Infinity");
    } else {
      out.append(v);
    }
  }

  static String hex(byte[] bytes) {
    StringBuilder sb = new StringBuilder(bytes.length * 2);
    for (byte b : bytes) {
      sb.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
    }
    return sb.toString();
  }
}
