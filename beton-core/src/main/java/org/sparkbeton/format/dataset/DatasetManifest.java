package org.sparkbeton.format.dataset;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.sparkbeton.format.FieldTypes;

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
  /** How {@link #toJson()} writes the start of the checksum member after the content, and the content's end. */
  private static final String WRITTEN_CHECKSUM_MEMBER = ",\n  \"" + CHECKSUM_KEY + "\": ";
  private static final String WRITTEN_CONTENT_END = "\n}\n";

  private final List<ManifestField> fields;
  private final List<ShardEntry> shards;
  private final long totalSamples;
  private final Map<String, String> recipe;
  private final String createdBy;
  private final boolean contentChecksum;

  public DatasetManifest(List<ManifestField> fields, List<ShardEntry> shards, Map<String, String> recipe, String createdBy) {
    this(fields, shards, recipe, createdBy, true);
  }

  /** {@code contentChecksum}: false for a version 1 manifest read from its file (see {@link ManifestParser}). */
  DatasetManifest(List<ManifestField> fields, List<ShardEntry> shards, Map<String, String> recipe,
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

  /** A shard of this manifest and the dataset-wide index of its first sample (the samples of the shards before it). */
  public record PlacedShard(ShardEntry shard, long firstSample) {
  }

  /**
   * The one shard that holds the dataset's samples {@code [from, to)} (indices over all shards in their order), or
   * null where they lie in several shards or past the end. A compaction keeps every sample's index, so this finds
   * the samples of a shard it replaced in the shard that replaced it.
   */
  public PlacedShard shardHolding(long from, long to) {
    long at = 0;
    for (ShardEntry s : shards) {
      if (at <= from && to <= at + s.samples()) {
        return new PlacedShard(s, at);
      }
      at += s.samples();
      if (at > from) {
        return null;
      }
    }
    return null;
  }

  /** True when every shard has page checksums, so a reader can check every byte it reads. */
  public boolean hasPageChecksums() {
    return shards.stream().allMatch(s -> s.pageChecksums() != null);
  }

  // ---------------------------------------------------------------- JSON

  /** The manifest as written: its content, then {@code manifest_checksum}. */
  public String toJson() {
    Map<String, Object> root = content();
    Map<String, Object> checksum = new LinkedHashMap<>();
    checksum.put("algorithm", ShardChecksum.SHA256);
    checksum.put("value", sha256(JsonText.write(root)));
    root.put(CHECKSUM_KEY, checksum);
    return JsonText.write(root);
  }

  /** The SHA-256 (lowercase hex) of the content {@link #toJson()} writes before {@code manifest_checksum}. */
  String contentSha256() {
    return sha256(JsonText.write(content()));
  }

  /**
   * The SHA-256 of the content text of {@code json} as {@link #toJson()} writes it (the text before its checksum
   * member, closed as the content alone is), or null when {@code json} has no such member. Where the manifest is
   * the text {@link #toJson()} wrote, as a manifest read from its dataset is, this is its checksum: a reader checks
   * it without writing the content again (45-60 ms for a 1,000-shard manifest even with the code compiled, more in
   * a fresh JVM). Where the text was re-indented it differs, and the reader writes the content again
   * ({@link #contentSha256()}). A match cannot let an edit through: the text hashed is the whole content as the
   * parser read it (no key may follow the checksum member: the parser refuses duplicate and unknown keys), and
   * only that exact text has the stated hash.
   */
  static String writtenContentSha256(String json) {
    int at = json.lastIndexOf(WRITTEN_CHECKSUM_MEMBER);
    return at < 0 ? null : sha256(json.substring(0, at) + WRITTEN_CONTENT_END);
  }

  /**
   * Parses and validates a manifest (see {@link ManifestParser}).
   *
   * @throws ManifestFormatException on malformed JSON (with the character offset) or invalid contents
   *     (with the JSON path of the offending value)
   */
  public static DatasetManifest parse(String json) {
    return ManifestParser.parse(json);
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
}
