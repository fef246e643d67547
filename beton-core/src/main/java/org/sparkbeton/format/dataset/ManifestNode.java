package org.sparkbeton.format.dataset;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A parsed JSON value of a manifest with its path, for typed access with precise error messages. The path
 * ({@code $.shards[12].checksum}) is built only when a message needs it: a 1,000-shard manifest has tens of
 * thousands of nodes, whose paths no reader of a good manifest ever sees.
 */
final class ManifestNode {
  private final ManifestNode parent; // null for the root
  private final String key; // this node's key in its parent object, or null for an element of an array
  private final int index; // this node's index in its parent array
  final Object value;

  /** The root: the whole manifest, path {@code $}. */
  ManifestNode(Object value) {
    this(null, null, -1, value);
  }

  private ManifestNode(ManifestNode parent, String key, int index, Object value) {
    this.parent = parent;
    this.key = key;
    this.index = index;
    this.value = value;
  }

  /** The JSON path of this value, for messages. */
  String path() {
    if (parent == null) {
      return "$";
    }
    return parent.path() + (key != null ? "." + key : "[" + index + "]");
  }

  /** Checks this is an object with exactly the given keys ({@code ?key} = optional). */
  ManifestNode object(String... keys) {
    Map<?, ?> m = map();
    int present = 0;
    for (String k : keys) {
      present += m.containsKey(k.startsWith("?") ? k.substring(1) : k) ? 1 : 0;
    }
    if (present != m.size()) { // a key none of these names: say which (the set only on this path)
      Set<String> allowed = new LinkedHashSet<>();
      for (String k : keys) {
        allowed.add(k.startsWith("?") ? k.substring(1) : k);
      }
      for (Object k : m.keySet()) {
        if (!allowed.contains(k)) {
          throw new ManifestFormatException(path(), "unknown key \"" + k + "\"; expected " + allowed);
        }
      }
    }
    for (String k : keys) {
      if (!k.startsWith("?") && !m.containsKey(k)) {
        throw new ManifestFormatException(path(), "missing required key \"" + k + "\"");
      }
    }
    return this;
  }

  private Map<?, ?> map() {
    if (!(value instanceof Map<?, ?> m)) {
      throw new ManifestFormatException(path(), "expected an object, got " + kind(value));
    }
    return m;
  }

  boolean has(String key) {
    return map().containsKey(key);
  }

  ManifestNode get(String key) {
    Map<?, ?> m = map();
    if (!m.containsKey(key)) {
      throw new ManifestFormatException(path(), "missing required key \"" + key + "\"");
    }
    return new ManifestNode(this, key, -1, m.get(key));
  }

  List<String> keys() {
    List<String> out = new ArrayList<>();
    map().keySet().forEach(k -> out.add((String) k));
    return out;
  }

  List<ManifestNode> list() {
    if (!(value instanceof List<?> l)) {
      throw new ManifestFormatException(path(), "expected an array, got " + kind(value));
    }
    List<ManifestNode> out = new ArrayList<>();
    for (int i = 0; i < l.size(); i++) {
      out.add(new ManifestNode(this, null, i, l.get(i)));
    }
    return out;
  }

  String string() {
    if (!(value instanceof String s)) {
      throw new ManifestFormatException(path(), "expected a string, got " + kind(value));
    }
    return s;
  }

  long integer() {
    if (!(value instanceof Long l)) {
      throw new ManifestFormatException(path(), "expected an integer, got " + kind(value));
    }
    return l;
  }

  boolean bool() {
    if (!(value instanceof Boolean b)) {
      throw new ManifestFormatException(path(), "expected true or false, got " + kind(value));
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
    throw new ManifestFormatException(path(), "expected a number, \"Infinity\" or \"-Infinity\", got " + kind(value));
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
