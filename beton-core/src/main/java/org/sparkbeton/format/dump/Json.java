package org.sparkbeton.format.dump;

/** Minimal JSON text output with Python's {@code json.dumps} conventions (ASCII only, ", " and ": "). */
final class Json {
  private Json() {}

  static void string(StringBuilder out, String s) {
    org.sparkbeton.format.JsonStrings.append(out, s);
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
