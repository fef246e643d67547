package org.sparkbeton.format.dataset;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small, strict JSON (RFC 8259) reader and writer: the dataset manifest's, and the one reader of every other JSON
 * text the project takes (JSON fields read back as strings, Spark's lists of paths and columns), as beton-core
 * depends on the JDK only. Objects become insertion-ordered {@link Map}s, arrays {@link List}s, integers that
 * fit {@code long} become {@link Long}, other numbers {@link Double}, plus {@link String},
 * {@link Boolean} and {@code null}. Strict: no comments, no trailing commas, no NaN, no duplicate
 * keys, no leading zeros, nothing after the value; every error names the character offset.
 */
public final class JsonText {
  private static final int MAX_DEPTH = 64;

  private final String text;
  private final char[] chars; // the text's characters: a string without escapes is copied out in one piece
  private int pos;
  private int depth;

  private JsonText(String text) {
    this.text = text;
    this.chars = text.toCharArray();
  }

  /**
   * The string a JSON text holds when the text is one string literal (whitespace around it allowed), else null:
   * {@code "caf\u00e9"} gives {@code café}; an object, a list, a number, two literals or a malformed one give null.
   */
  public static String string(String text) {
    int first = firstNonSpace(text);
    if (first == text.length() || text.charAt(first) != '"') {
      return null; // not a string: no parse
    }
    try {
      return parse(text) instanceof String s ? s : null;
    } catch (ManifestFormatException malformed) {
      return null;
    }
  }

  /**
   * Whether {@code text} is one JSON object or list (whitespace around it allowed), well formed: {@code {"a": 1}} and
   * {@code [1, 2]} are; a string, a number, {@code true} and {@code {"a": } are not.
   */
  public static boolean isObjectOrList(String text) {
    int first = firstNonSpace(text);
    if (first == text.length() || (text.charAt(first) != '{' && text.charAt(first) != '[')) {
      return false; // no parse
    }
    try {
      parse(text);
      return true;
    } catch (ManifestFormatException malformed) {
      return false;
    }
  }

  /** The index of the first character of {@code text} that is not whitespace, or its length. */
  private static int firstNonSpace(String text) {
    int first = 0;
    while (first < text.length() && Character.isWhitespace(text.charAt(first))) {
      first++;
    }
    return first;
  }

  /** The strings of a JSON list of strings ({@code ["a","b"]}); anything else is an IllegalArgumentException. */
  public static List<String> stringList(String text) {
    Object value;
    try {
      value = parse(text);
    } catch (ManifestFormatException malformed) {
      throw new IllegalArgumentException("Not a JSON list of strings: " + text, malformed);
    }
    if (!(value instanceof List<?> items) || !items.stream().allMatch(String.class::isInstance)) {
      throw new IllegalArgumentException("Not a JSON list of strings: " + text);
    }
    return items.stream().map(String.class::cast).toList();
  }

  /**
   * The one JSON value {@code text} holds, as this class gives values (a {@link Map}, a {@link List}, a {@link Long},
   * a {@link Double}, a {@link String}, a {@link Boolean} or null); malformed text is an IllegalArgumentException
   * naming the offset.
   */
  public static Object value(String text) {
    return parse(text);
  }

  /** The members of a JSON object ({@code {"a": 1}}), in order; anything else is an IllegalArgumentException. */
  public static Map<String, Object> object(String text) {
    Object value;
    try {
      value = parse(text);
    } catch (ManifestFormatException malformed) {
      throw new IllegalArgumentException("Not a JSON object: " + text, malformed);
    }
    if (!(value instanceof Map<?, ?> members)) {
      throw new IllegalArgumentException("Not a JSON object: " + text);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    members.forEach((k, v) -> out.put((String) k, v));
    return out;
  }

  /** Parses one JSON value that spans the whole text. */
  static Object parse(String text) {
    if (text == null) {
      throw new ManifestFormatException("manifest text is null", 0);
    }
    JsonText p = new JsonText(text);
    p.skipWhitespace();
    Object value = p.value();
    p.skipWhitespace();
    if (p.pos != text.length()) {
      throw p.error("unexpected " + p.describeHere() + " after the end of the JSON value");
    }
    return value;
  }

  private Object value() {
    if (pos >= text.length()) {
      throw error("unexpected end of input, expected a value");
    }
    char c = text.charAt(pos);
    switch (c) {
      case '{': return object();
      case '[': return array();
      case '"': return string();
      case 't': literal("true"); return Boolean.TRUE;
      case 'f': literal("false"); return Boolean.FALSE;
      case 'n': literal("null"); return null;
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          return number();
        }
        throw error("unexpected " + describeHere() + ", expected a value");
    }
  }

  private Map<String, Object> object() {
    enter();
    pos++;
    Map<String, Object> out = new LinkedHashMap<>();
    skipWhitespace();
    if (peek() == '}') {
      pos++;
      depth--;
      return out;
    }
    while (true) {
      skipWhitespace();
      if (peek() != '"') {
        throw error("unexpected " + describeHere() + ", expected a string key");
      }
      int keyAt = pos;
      String key = string();
      skipWhitespace();
      expect(':');
      skipWhitespace();
      Object v = value();
      int before = out.size();
      out.put(key, v);
      if (out.size() == before) { // one lookup: a key seen before does not grow the map
        throw new ManifestFormatException("duplicate key \"" + key + "\"", keyAt);
      }
      skipWhitespace();
      char c = peek();
      if (c == ',') {
        pos++;
      } else if (c == '}') {
        pos++;
        depth--;
        return out;
      } else {
        throw error("unexpected " + describeHere() + ", expected ',' or '}'");
      }
    }
  }

  private List<Object> array() {
    enter();
    pos++;
    List<Object> out = new ArrayList<>();
    skipWhitespace();
    if (peek() == ']') {
      pos++;
      depth--;
      return out;
    }
    while (true) {
      skipWhitespace();
      out.add(value());
      skipWhitespace();
      char c = peek();
      if (c == ',') {
        pos++;
      } else if (c == ']') {
        pos++;
        depth--;
        return out;
      } else {
        throw error("unexpected " + describeHere() + ", expected ',' or ']'");
      }
    }
  }

  private void enter() {
    if (++depth > MAX_DEPTH) {
      throw error("nesting deeper than " + MAX_DEPTH + " levels");
    }
  }

  private String string() {
    pos++; // opening quote
    int start = pos;
    for (int i = start; i < chars.length; i++) { // most strings: no escape, taken in one piece
      char c = chars[i];
      if (c == '"') {
        pos = i + 1;
        return new String(chars, start, i - start);
      }
      if (c == '\\' || c < 0x20) {
        break;
      }
    }
    StringBuilder sb = new StringBuilder();
    while (true) {
      if (pos >= chars.length) {
        throw error("unterminated string");
      }
      char c = chars[pos];
      if (c == '"') {
        pos++;
        return sb.toString();
      }
      if (c < 0x20) {
        throw error("control character U+" + String.format("%04X", (int) c) + " inside a string must be escaped");
      }
      if (c != '\\') {
        sb.append(c);
        pos++;
        continue;
      }
      if (pos + 1 >= text.length()) {
        throw error("unterminated escape sequence");
      }
      char e = text.charAt(pos + 1);
      switch (e) {
        case '"' -> sb.append('"');
        case '\\' -> sb.append('\\');
        case '/' -> sb.append('/');
        case 'b' -> sb.append('\b');
        case 'f' -> sb.append('\f');
        case 'n' -> sb.append('\n');
        case 'r' -> sb.append('\r');
        case 't' -> sb.append('\t');
        case 'u' -> {
          if (pos + 6 > text.length()) {
            throw error("truncated \\u escape");
          }
          int code = 0;
          for (int i = pos + 2; i < pos + 6; i++) {
            int d = Character.digit(text.charAt(i), 16);
            if (d < 0) {
              throw new ManifestFormatException("invalid hex digit '" + text.charAt(i) + "' in \\u escape", i);
            }
            code = code * 16 + d;
          }
          sb.append((char) code);
          pos += 4;
        }
        default -> throw error("invalid escape sequence \\" + e);
      }
      pos += 2;
    }
  }

  private Object number() {
    int start = pos;
    if (peek() == '-') {
      pos++;
    }
    if (peek() == '0') {
      pos++;
      if (isDigit(peek())) {
        throw error("leading zeros are not allowed in numbers");
      }
    } else if (isDigit(peek())) {
      digits();
    } else {
      throw error("unexpected " + describeHere() + " in a number, expected a digit");
    }
    boolean integral = true;
    if (peek() == '.') {
      integral = false;
      pos++;
      if (!isDigit(peek())) {
        throw error("expected a digit after the decimal point");
      }
      digits();
    }
    if (peek() == 'e' || peek() == 'E') {
      integral = false;
      pos++;
      if (peek() == '+' || peek() == '-') {
        pos++;
      }
      if (!isDigit(peek())) {
        throw error("expected a digit in the exponent");
      }
      digits();
    }
    if (integral && pos - start <= 18) { // at most 18 digits (or 17 and a sign): no overflow
      long v = 0;
      for (int i = chars[start] == '-' ? start + 1 : start; i < pos; i++) {
        v = v * 10 + (chars[i] - '0');
      }
      return chars[start] == '-' ? -v : v;
    }
    String s = text.substring(start, pos);
    if (integral) {
      try {
        return Long.parseLong(s);
      } catch (NumberFormatException tooBig) {
        throw new ManifestFormatException("integer " + s + " does not fit a signed 64-bit value", start);
      }
    }
    return Double.parseDouble(s);
  }

  private void digits() {
    while (isDigit(peek())) {
      pos++;
    }
  }

  /** JSON's digits are ASCII only (Character.isDigit would take other scripts' digits too). */
  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private void literal(String word) {
    if (!text.startsWith(word, pos)) {
      throw error("unexpected " + describeHere() + ", expected a value");
    }
    pos += word.length();
  }

  private void expect(char c) {
    if (peek() != c) {
      throw error("unexpected " + describeHere() + ", expected '" + c + "'");
    }
    pos++;
  }

  private char peek() {
    return pos < chars.length ? chars[pos] : '\0';
  }

  private void skipWhitespace() {
    while (pos < chars.length) {
      char c = chars[pos];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      pos++;
    }
  }

  private String describeHere() {
    if (pos >= text.length()) {
      return "end of input";
    }
    char c = text.charAt(pos);
    return c >= 0x20 && c < 0x7f ? "'" + c + "'" : String.format("character U+%04X", (int) c);
  }

  private ManifestFormatException error(String problem) {
    return new ManifestFormatException(problem, pos);
  }

  // ---------------------------------------------------------------- writing

  /** Writes {@code value} as indented JSON (two spaces), keys in map order. */
  static String write(Object value) {
    StringBuilder out = new StringBuilder();
    write(out, value, 0);
    return out.append('\n').toString();
  }

  private static void write(StringBuilder out, Object value, int indent) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof String s) {
      string(out, s);
    } else if (value instanceof Boolean || value instanceof Long || value instanceof Integer) {
      out.append(value);
    } else if (value instanceof Double d) {
      if (d.isNaN() || d.isInfinite()) {
        throw new IllegalArgumentException("JSON cannot hold " + d);
      }
      out.append(d);
    } else if (value instanceof Map<?, ?> m) {
      if (m.isEmpty()) {
        out.append("{}");
        return;
      }
      out.append("{\n");
      int i = 0;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        indent(out, indent + 1);
        string(out, (String) e.getKey());
        out.append(": ");
        write(out, e.getValue(), indent + 1);
        out.append(++i < m.size() ? ",\n" : "\n");
      }
      indent(out, indent);
      out.append('}');
    } else if (value instanceof List<?> l) {
      boolean flat = l.stream().noneMatch(v -> v instanceof Map || v instanceof List);
      if (flat) {
        out.append('[');
        for (int i = 0; i < l.size(); i++) {
          out.append(i > 0 ? ", " : "");
          write(out, l.get(i), indent);
        }
        out.append(']');
        return;
      }
      out.append("[\n");
      for (int i = 0; i < l.size(); i++) {
        indent(out, indent + 1);
        write(out, l.get(i), indent + 1);
        out.append(i + 1 < l.size() ? ",\n" : "\n");
      }
      indent(out, indent);
      out.append(']');
    } else {
      throw new IllegalArgumentException("cannot write " + value.getClass().getName() + " as JSON");
    }
  }

  private static void indent(StringBuilder out, int n) {
    out.append("  ".repeat(n));
  }

  static void string(StringBuilder out, String s) {
    org.sparkbeton.format.JsonStrings.append(out, s);
  }

  static <K, V> Map<K, V> unmodifiable(Map<K, V> m) {
    return Collections.unmodifiableMap(new LinkedHashMap<>(m));
  }
}
