package org.sparkbeton.format.dataset;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.fields.NumpyDtype;

/**
 * The definition of a dataset: a directory of shard files, each a complete standalone {@code .beton},
 * plus this manifest, stored as {@value #FILE_NAME} and written <em>last</em> by the driver. Only
 * the shards listed here belong to the dataset; any other file in the directory is an orphan of a
 * failed attempt and readers ignore it. Immutable.
 *
 * <p>JSON form (UTF-8; every key shown is required unless marked optional; unknown keys are
 * rejected, so a typo never passes silently):
 * <pre>{@code
 * {
 *   "format": "beton-dataset",              // always this string
 *   "format_version": 2,                    // 1 (no checksums of pages or content) is read too; others rejected
 *   "created_by": "spark-beton 0.1.0",      // free text: the program that wrote it
 *   "total_samples": 5000,                  // must equal the sum of the shards' samples
 *   "fields": [                             // descriptor order of every shard
 *     {"name": "image", "type_id": 2},
 *     {"name": "label", "type_id": 1},
 *     {"name": "emb", "type_id": 4, "dtype": "<f4", "shape": [3, 4]}   // dtype+shape only for 4 and 6
 *   ],
 *   "shards": [
 *     {"path": "part-00000-a1b2.beton",     // relative, '/'-separated, inside the directory
 *      "samples": 2500, "bytes": 33554432,
 *      "checksum": {"algorithm": "sha256", "value": "<64 hex>"},   // or "crc32c" with 8 hex digits
 *      "stats": {                           // optional; Int and Float fields only
 *        "label": {"min": 0, "max": 9},
 *        "weight": {"min": 0.5, "max": 2.0, "has_nan": false}},  // Float bounds ignore NaN;
 *                                           // "Infinity"/"-Infinity" as strings; min/max null if none
 *      "page_checksums": {                  // optional (version 2): see PageChecksums
 *        "algorithm": "crc32c", "page_size": 8388608,
 *        "metadata_start": 3147, "data_start": 63147, "allocation_table_start": 33551000,
 *        "values": "<8 hex digits per unit, in file order>"}}
 *   ],
 *   "recipe": {"page_size": "8388608"},     // free-form string map: how the dataset was written
 *   "manifest_checksum": {"algorithm": "sha256", "value": "<64 hex>"}   // version 2: see below
 * }
 * }</pre>
 *
 * <p><b>The manifest's own checksum.</b> {@code manifest_checksum} is the SHA-256 of the manifest's content: the
 * UTF-8 text {@link #toJson()} writes for it without that key (two-space indent, keys in the order shown). A
 * reader parses the text, writes its content again the same way and compares, so whitespace may change but any
 * edit of a value, a key or an order is refused: a manifest edited or damaged after it was written never answers
 * a {@code count()} or prunes a filter. Version 1 manifests, written before it, have none and are read
 * unchecked ({@link #hasContentChecksum()}).
 */
public final class DatasetManifest {
  public static final String FILE_NAME = "_manifest.json";
  public static final String FORMAT = "beton-dataset";
  public static final int FORMAT_VERSION = 2;
  /** The version written before page and content checksums; still read. */
  public static final int FORMAT_VERSION_UNCHECKED = 1;
  static final String CHECKSUM_KEY = "manifest_checksum";

  private final List<ManifestField> fields;
  private final List<ShardEntry> shards;
  private final long totalSamples;
  private final Map<String, String> recipe;
  private final String createdBy;
  private final boolean contentChecksum;

  public DatasetManifest(List<ManifestField> fields, List<ShardEntry> shards, Map<String, String> recipe, String createdBy) {
    this(fields, shards, recipe, createdBy, true);
  }

  private DatasetManifest(List<ManifestField> fields, List<ShardEntry> shards, Map<String, String> recipe,
      String createdBy, boolean contentChecksum) {
    this.contentChecksum = contentChecksum;
    this.fields = List.copyOf(Objects.requireNonNull(fields, "fields"));
    this.shards = List.copyOf(Objects.requireNonNull(shards, "shards"));
    this.recipe = JsonText.unmodifiable(recipe == null ? Map.of() : recipe);
    this.createdBy = Objects.requireNonNull(createdBy, "createdBy");
    if (this.fields.isEmpty()) {
      throw new IllegalArgumentException("A dataset needs at least one field");
    }
    Map<String, ManifestField> byName = new LinkedHashMap<>();
    for (ManifestField f : this.fields) {
      if (byName.put(f.name(), f) != null) {
        throw new IllegalArgumentException("Field name '" + f.name() + "' appears twice");
      }
    }
    Set<String> paths = new HashSet<>();
    long total = 0;
    for (ShardEntry s : this.shards) {
      if (!paths.add(s.path())) {
        throw new IllegalArgumentException("Shard '" + s.path() + "' is listed twice");
      }
      for (Map.Entry<String, ColumnStats> e : s.stats().entrySet()) {
        ManifestField f = byName.get(e.getKey());
        if (f == null || (f.typeId() != FieldTypes.INT && f.typeId() != FieldTypes.FLOAT)) {
          throw new IllegalArgumentException("Shard '" + s.path() + "' has statistics for '" + e.getKey()
              + "', which is not an Int or Float field of this dataset");
        }
        Number min = e.getValue().min();
        if (min != null && (f.typeId() == FieldTypes.INT) != (min instanceof Long)) {
          throw new IllegalArgumentException("Shard '" + s.path() + "' statistics for " + f + " must be "
              + (f.typeId() == FieldTypes.INT ? "integers" : "floating point"));
        }
      }
      total = Math.addExact(total, s.samples());
    }
    this.totalSamples = total;
  }

  public List<ManifestField> fields() { return fields; }
  public List<ShardEntry> shards() { return shards; }
  /** Sum of the shards' sample counts. */
  public long totalSamples() { return totalSamples; }
  public Map<String, String> recipe() { return recipe; }
  public String createdBy() { return createdBy; }

  /**
   * True unless this manifest was read from a version 1 file, which carries no checksum of its content (a manifest
   * made in this process is written with one): its counts and statistics are then taken on trust.
   */
  public boolean hasContentChecksum() { return contentChecksum; }

  /** True when every shard has page checksums, so a reader can check every byte it reads. */
  public boolean hasPageChecksums() {
    return shards.stream().allMatch(s -> s.pageChecksums() != null);
  }

  // ---------------------------------------------------------------- JSON

  /** The manifest as written: its content, then {@code manifest_checksum}. */
  public String toJson() {
    Map<String, Object> root = content();
    root.put(CHECKSUM_KEY, checksumJson(JsonText.write(root)));
    return JsonText.write(root);
  }

  private static Map<String, Object> checksumJson(String content) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("algorithm", ShardChecksum.SHA256);
    m.put("value", sha256(content));
    return m;
  }

  private static String sha256(String text) {
    try {
      return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
          .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK always has SHA-256", e);
    }
  }

  /** Everything but the checksum of the content, as JSON values in the order written. */
  private Map<String, Object> content() {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("format", FORMAT);
    root.put("format_version", (long) FORMAT_VERSION);
    root.put("created_by", createdBy);
    root.put("total_samples", totalSamples);
    List<Object> fs = new ArrayList<>();
    for (ManifestField f : fields) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", f.name());
      m.put("type_id", (long) f.typeId());
      if (f.dtype() != null) {
        m.put("dtype", f.dtype());
        List<Object> shape = new ArrayList<>();
        for (long d : f.shape()) {
          shape.add(d);
        }
        m.put("shape", shape);
      }
      fs.add(m);
    }
    root.put("fields", fs);
    List<Object> ss = new ArrayList<>();
    for (ShardEntry s : shards) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("path", s.path());
      m.put("samples", s.samples());
      m.put("bytes", s.bytes());
      Map<String, Object> checksum = new LinkedHashMap<>(); // a fixed order: the content checksum covers it
      checksum.put("algorithm", s.checksum().algorithm());
      checksum.put("value", s.checksum().value());
      m.put("checksum", checksum);
      if (!s.stats().isEmpty()) {
        Map<String, Object> stats = new LinkedHashMap<>();
        s.stats().forEach((name, st) -> stats.put(name, statsJson(st)));
        m.put("stats", stats);
      }
      if (s.pageChecksums() != null) {
        m.put("page_checksums", pagesJson(s.pageChecksums()));
      }
      ss.add(m);
    }
    root.put("shards", ss);
    root.put("recipe", new LinkedHashMap<>(recipe));
    return root;
  }

  private static Map<String, Object> pagesJson(PageChecksums p) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("algorithm", PageChecksums.ALGORITHM);
    m.put("page_size", p.pageSize());
    m.put("metadata_start", p.metadataStart());
    m.put("data_start", p.dataStart());
    m.put("allocation_table_start", p.allocationTableStart());
    m.put("values", p.valuesHex());
    return m;
  }

  private static Map<String, Object> statsJson(ColumnStats st) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("min", boundJson(st.min()));
    m.put("max", boundJson(st.max()));
    if (st.min() instanceof Double || st.hasNan()) {
      m.put("has_nan", st.hasNan());
    }
    return m;
  }

  private static Object boundJson(Number n) {
    if (n instanceof Double d && d.isInfinite()) {
      return d > 0 ? "Infinity" : "-Infinity";
    }
    return n;
  }

  /**
   * Parses and validates a manifest.
   *
   * @throws ManifestFormatException on malformed JSON (with the character offset) or invalid contents
   *     (with the JSON path of the offending value)
   */
  public static DatasetManifest parse(String json) {
    Object root = JsonText.parse(json);
    Node r = new Node("$", root);
    String format = r.get("format").string();
    if (!format.equals(FORMAT)) {
      throw new ManifestFormatException("$.format", "expected \"" + FORMAT + "\", got \"" + format + "\"");
    }
    long version = r.get("format_version").integer();
    if (version != FORMAT_VERSION && version != FORMAT_VERSION_UNCHECKED) {
      throw new ManifestFormatException("$.format_version", "version " + version
          + " is not supported by this reader, which reads versions " + FORMAT_VERSION_UNCHECKED + " and "
          + FORMAT_VERSION);
    }
    boolean checked = version == FORMAT_VERSION;
    if (checked) {
      r.object("format", "format_version", "created_by", "total_samples", "fields", "shards", "recipe", CHECKSUM_KEY);
    } else {
      r.object("format", "format_version", "created_by", "total_samples", "fields", "shards", "recipe");
    }
    List<ManifestField> fields = new ArrayList<>();
    Map<String, Integer> types = new LinkedHashMap<>();
    for (Node f : r.get("fields").list()) {
      f.object("name", "type_id", "?dtype", "?shape");
      String name = f.get("name").string();
      long type = f.get("type_id").integer();
      if (type < 0 || type > 255 || (FieldTypes.builtIn((int) type) == null && type != FieldTypes.CUSTOM)) {
        throw new ManifestFormatException(f.get("type_id").path, "unknown type id " + type);
      }
      String dtype = f.has("dtype") ? f.get("dtype").string() : null;
      long[] shape = null;
      if (f.has("shape")) {
        List<Node> dims = f.get("shape").list();
        shape = new long[dims.size()];
        for (int i = 0; i < shape.length; i++) {
          shape[i] = dims.get(i).integer();
          if (shape[i] < 1) {
            throw new ManifestFormatException(dims.get(i).path, "dimensions must be positive, got " + shape[i]);
          }
        }
        if (shape.length == 0) {
          throw new ManifestFormatException(f.get("shape").path, "a shape needs at least one dimension");
        }
      }
      if (dtype != null) {
        try {
          NumpyDtype.of(dtype);
        } catch (IllegalArgumentException e) {
          throw new ManifestFormatException(f.get("dtype").path, e.getMessage());
        }
      }
      try {
        fields.add(new ManifestField(name, (int) type, dtype, shape));
      } catch (IllegalArgumentException e) {
        throw new ManifestFormatException(f.path, e.getMessage());
      }
      types.put(name, (int) type);
    }
    List<ShardEntry> shards = new ArrayList<>();
    for (Node s : r.get("shards").list()) {
      if (checked) {
        s.object("path", "samples", "bytes", "checksum", "?stats", "?page_checksums");
      } else {
        s.object("path", "samples", "bytes", "checksum", "?stats");
      }
      Node c = s.get("checksum").object("algorithm", "value");
      Map<String, ColumnStats> stats = new LinkedHashMap<>();
      if (s.has("stats")) {
        Node st = s.get("stats");
        for (String name : st.keys()) {
          Integer type = types.get(name);
          if (type == null || (type != FieldTypes.INT && type != FieldTypes.FLOAT)) {
            throw new ManifestFormatException(st.path + "." + name, "statistics are only kept for Int and Float fields"
                + " of the dataset, and '" + name + "' is " + (type == null ? "not a field" : FieldTypes.name(type)));
          }
          stats.put(name, columnStats(st.get(name), type == FieldTypes.FLOAT));
        }
      }
      try {
        ShardChecksum checksum = new ShardChecksum(c.get("algorithm").string(), c.get("value").string());
        long bytes = nonNegative(s.get("bytes"));
        PageChecksums pages = s.has("page_checksums") ? pageChecksums(s.get("page_checksums"), bytes) : null;
        shards.add(new ShardEntry(s.get("path").string(), nonNegative(s.get("samples")), bytes, checksum, stats,
            pages));
      } catch (ManifestFormatException e) {
        throw e;
      } catch (IllegalArgumentException e) {
        throw new ManifestFormatException(s.path, e.getMessage());
      }
    }
    Map<String, String> recipe = new LinkedHashMap<>();
    Node rec = r.get("recipe");
    for (String k : rec.keys()) {
      recipe.put(k, rec.get(k).string());
    }
    DatasetManifest manifest;
    try {
      manifest = new DatasetManifest(fields, shards, recipe, r.get("created_by").string(), checked);
    } catch (ManifestFormatException e) {
      throw e;
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw new ManifestFormatException("$", e.getMessage());
    }
    long declared = r.get("total_samples").integer();
    if (declared != manifest.totalSamples()) {
      throw new ManifestFormatException("$.total_samples", "says " + declared + " but the shards hold "
          + manifest.totalSamples() + " samples");
    }
    if (checked) {
      Node c = r.get(CHECKSUM_KEY).object("algorithm", "value");
      String algorithm = c.get("algorithm").string();
      if (!algorithm.equals(ShardChecksum.SHA256)) {
        throw new ManifestFormatException(c.get("algorithm").path, "expected \"sha256\", got \"" + algorithm + "\"");
      }
      String expected = sha256(JsonText.write(manifest.content()));
      String stated = c.get("value").string();
      if (!expected.equals(stated.toLowerCase(java.util.Locale.ROOT))) {
        throw new ManifestFormatException(c.path, "the manifest's content does not match its checksum (its SHA-256 is "
            + expected + ", the manifest says " + stated + "): it was edited or damaged after it was written, so"
            + " neither its shards nor its counts and statistics can be trusted. Restore it from a copy, or"
            + " rewrite the dataset");
      }
    }
    return manifest;
  }

  private static PageChecksums pageChecksums(Node n, long bytes) {
    n.object("algorithm", "page_size", "metadata_start", "data_start", "allocation_table_start", "values");
    String algorithm = n.get("algorithm").string();
    if (!algorithm.equals(PageChecksums.ALGORITHM)) {
      throw new ManifestFormatException(n.get("algorithm").path, "expected \"crc32c\", got \"" + algorithm + "\"");
    }
    try {
      return new PageChecksums(n.get("page_size").integer(), n.get("metadata_start").integer(),
          n.get("data_start").integer(), n.get("allocation_table_start").integer(), bytes,
          PageChecksums.parseValues(n.get("values").string()));
    } catch (ManifestFormatException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw new ManifestFormatException(n.path, e.getMessage());
    }
  }

  private static long nonNegative(Node n) {
    long v = n.integer();
    if (v < 0) {
      throw new ManifestFormatException(n.path, "must not be negative, got " + v);
    }
    return v;
  }

  private static ColumnStats columnStats(Node n, boolean floating) {
    n.object("min", "max", "?has_nan");
    boolean nan = n.has("has_nan") && n.get("has_nan").bool();
    Node min = n.get("min");
    Node max = n.get("max");
    if (min.value == null || max.value == null) {
      if (min.value != max.value) {
        throw new ManifestFormatException(n.path, "min and max must both be null or both be numbers");
      }
      return new ColumnStats(null, null, nan);
    }
    try {
      return floating ? ColumnStats.ofDoubles(min.dbl(), max.dbl(), nan) : new ColumnStats(min.integer(), max.integer(), nan);
    } catch (ManifestFormatException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw new ManifestFormatException(n.path, e.getMessage());
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DatasetManifest m && m.fields.equals(fields) && m.shards.equals(shards)
        && m.recipe.equals(recipe) && m.createdBy.equals(createdBy);
  }

  @Override
  public int hashCode() {
    return Objects.hash(fields, shards, recipe, createdBy);
  }

  @Override
  public String toString() {
    return "DatasetManifest(" + fields.size() + " fields, " + shards.size() + " shards, " + totalSamples + " samples)";
  }

  /** A parsed JSON value with its path, for typed access with precise error messages. */
  private static final class Node {
    final String path;
    final Object value;

    Node(String path, Object value) {
      this.path = path;
      this.value = value;
    }

    /** Checks this is an object with exactly the given keys ({@code ?key} = optional). */
    Node object(String... keys) {
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

    Node get(String key) {
      Map<?, ?> m = map();
      if (!m.containsKey(key)) {
        throw new ManifestFormatException(path, "missing required key \"" + key + "\"");
      }
      return new Node(path + "." + key, m.get(key));
    }

    List<String> keys() {
      List<String> out = new ArrayList<>();
      map().keySet().forEach(k -> out.add((String) k));
      return out;
    }

    List<Node> list() {
      if (!(value instanceof List<?> l)) {
        throw new ManifestFormatException(path, "expected an array, got " + kind(value));
      }
      List<Node> out = new ArrayList<>();
      for (int i = 0; i < l.size(); i++) {
        out.add(new Node(path + "[" + i + "]", l.get(i)));
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
}
