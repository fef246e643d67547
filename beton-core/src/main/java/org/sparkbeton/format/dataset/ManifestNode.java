package org.sparkbeton.format.dataset;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A parsed JSON value of a manifest with its path, for typed access with precise error messages. */
final class ManifestNode {
  final String path;
  final Object value;

  ManifestNode(String path, Object value) {
    this.path = path;
    this.value = value;
  }

  /** Checks this is an object with exactly the given keys ({@code ?key} = optional). */
  ManifestNode object(String... keys) {
    Map<?, ?> m = map();
    Set<String> allowed = new LinkedHashSet<>();
    for (String k : keys) {
      allowed.add(k.startsWith("?") ? k.substring(1) : k);
    }
    for (Object k : m.keySet()) {
      if (!allowed.contains(k)) {
        throw new ManifestFormatException(path, "unknown key \"" + k + "\"; expected " + allowed);
      }
    }
    for (String k : keys) {
      if (!k.startsWith("?") && !m.containsKey(k)) {
        throw new ManifestFormatException(path, "missing required key \"" + k + "\"");
      }
    }
    return this;
  }

  private Map<?, ?> map() {
    if (!(value instanceof Map<?, ?> m)) {
      throw new ManifestFormatException(path, "expected an object, got " + kind(value));
    }
    return m;
  }

  boolean has(String key) {
    return map().containsKey(key);
  }

  ManifestNode get(String key) {
    Map<?, ?> m = map();
    if (!m.containsKey(key)) {
      throw new ManifestFormatException(path, "missing required key \"" + key + "\"");
    }
    return new ManifestNode(path + "." + key, m.get(key));
  }

  List<String> keys() {
    List<String> out = new ArrayList<>();
    map().keySet().forEach(k -> out.add((String) k));
    return out;
  }

  List<ManifestNode> list() {
    if (!(value instanceof List<?> l)) {
      throw new ManifestFormatException(path, "expected an array, got " + kind(value));
    }
    List<ManifestNode> out = new ArrayList<>();
    for (int i = 0; i < l.size(); i++) {
      out.add(new ManifestNode(path + "[" + i + "]", l.get(i)));
    }
    return out;
  }

  String string() {
    if (!(value instanceof String s)) {
      throw new ManifestFormatException(path, "expected a string, got " + kind(value));
    }
    return s;
  }

  long integer() {
    if (!(value instanceof Long l)) {
      throw new ManifestFormatException(path, "expected an integer, got " + kind(value));
    }
    return l;
  }

  boolean bool() {
    if (!(value instanceof Boolean b)) {
      throw new ManifestFormatException(path, "expected true or false, got " + kind(value));
    }
    return b;
  }

  double dbl() {
    if (value instanceof Long l) {
      return l;
    }
    if (value instanceof Double d) {
      return d;
    }
    if ("Infinity".equals(value)) {
      return Double.POSITIVE_INFINITY;
    }
    if ("-Infinity".equals(value)) {
      return Double.NEGATIVE_INFINITY;
    }
    throw new ManifestFormatException(path, "expected a number, \"Infinity\" or \"-Infinity\", got " + kind(value));
  }

  private static String kind(Object v) {
    if (v == null) {
      return "null";
    }
    if (v instanceof String s) {
      return "the string \"" + s + "\"";
    }
    if (v instanceof Map) {
      return "an object";
    }
    if (v instanceof List) {
      return "an array";
    }
    if (v instanceof Boolean) {
      return v.toString();
    }
    return "the number " + v;
  }
}
