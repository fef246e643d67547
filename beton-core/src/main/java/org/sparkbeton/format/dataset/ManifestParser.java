package org.sparkbeton.format.dataset;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.fields.NumpyDtype;

import static org.sparkbeton.format.dataset.DatasetManifest.CHECKSUM_KEY;
import static org.sparkbeton.format.dataset.DatasetManifest.FORMAT;
import static org.sparkbeton.format.dataset.DatasetManifest.FORMAT_VERSION;
import static org.sparkbeton.format.dataset.DatasetManifest.FORMAT_VERSION_UNCHECKED;

/**
 * Reads a manifest's JSON into a {@link DatasetManifest}, refusing anything its documented form does not allow
 * (unknown keys, wrong types, counts that disagree, a content checksum that does not match), each refusal a
 * {@link ManifestFormatException} naming the JSON path of the offending value.
 */
final class ManifestParser {
  private ManifestParser() {}

  /**
   * See {@link DatasetManifest#parse}. The SHA-256 of the content as written is computed on another thread (the
   * common pool) while this one parses: in a JVM that has just started it costs as much as the parse (~50 ms for
   * a 1,000-shard manifest: the provider's first use and the digest before it is compiled).
   */
  static DatasetManifest parse(String json) {
    CompletableFuture<String> writtenSha256 = CompletableFuture.supplyAsync(
        () -> DatasetManifest.writtenContentSha256(json));
    Object root = JsonText.parse(json);
    ManifestNode r = new ManifestNode(root);
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
    for (ManifestNode f : r.get("fields").list()) {
      f.object("name", "type_id", "?dtype", "?shape");
      String name = f.get("name").string();
      long type = f.get("type_id").integer();
      if (type < 0 || type > 255 || (FieldTypes.builtIn((int) type) == null && type != FieldTypes.CUSTOM)) {
        throw new ManifestFormatException(f.get("type_id").path(), "unknown type id " + type);
      }
      String dtype = f.has("dtype") ? f.get("dtype").string() : null;
      long[] shape = null;
      if (f.has("shape")) {
        List<ManifestNode> dims = f.get("shape").list();
        shape = new long[dims.size()];
        for (int i = 0; i < shape.length; i++) {
          shape[i] = dims.get(i).integer();
          if (shape[i] < 1) {
            throw new ManifestFormatException(dims.get(i).path(), "dimensions must be positive, got " + shape[i]);
          }
        }
        if (shape.length == 0) {
          throw new ManifestFormatException(f.get("shape").path(), "a shape needs at least one dimension");
        }
      }
      if (dtype != null) {
        try {
          NumpyDtype.of(dtype);
        } catch (IllegalArgumentException e) {
          throw new ManifestFormatException(f.get("dtype").path(), e.getMessage());
        }
      }
      try {
        fields.add(new ManifestField(name, (int) type, dtype, shape));
      } catch (IllegalArgumentException e) {
        throw new ManifestFormatException(f.path(), e.getMessage());
      }
      types.put(name, (int) type);
    }
    List<ShardEntry> shards = new ArrayList<>();
    for (ManifestNode s : r.get("shards").list()) {
      if (checked) {
        s.object("path", "samples", "bytes", "checksum", "?stats", "?page_checksums");
      } else {
        s.object("path", "samples", "bytes", "checksum", "?stats");
      }
      ManifestNode c = s.get("checksum").object("algorithm", "value");
      Map<String, ColumnStats> stats = new LinkedHashMap<>();
      if (s.has("stats")) {
        ManifestNode st = s.get("stats");
        for (String name : st.keys()) {
          Integer type = types.get(name);
          if (type == null || (type != FieldTypes.INT && type != FieldTypes.FLOAT)) {
            throw new ManifestFormatException(st.path() + "." + name, "statistics are only kept for Int and Float"
                + " fields of the dataset, and '" + name + "' is " + (type == null ? "not a field" : FieldTypes.name(type)));
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
        throw new ManifestFormatException(s.path(), e.getMessage());
      }
    }
    Map<String, String> recipe = new LinkedHashMap<>();
    ManifestNode rec = r.get("recipe");
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
    // the checksum first: when it fails, "edited after it was written" is the news, and any field that disagrees
    // with another is a consequence (which of the two was changed, the checksum cannot say)
    long declared = r.get("total_samples").integer();
    String totals = declared == manifest.totalSamples() ? null : "total_samples says " + declared + " but its shards"
        + " hold " + manifest.totalSamples() + " samples (the sum of $.shards[*].samples): the total or a shard's count"
        + " was changed";
    if (checked) {
      ManifestNode c = r.get(CHECKSUM_KEY).object("algorithm", "value");
      String algorithm = c.get("algorithm").string();
      if (!algorithm.equals(ShardChecksum.SHA256)) {
        throw new ManifestFormatException(c.get("algorithm").path(), "expected \"sha256\", got \"" + algorithm + "\"");
      }
      String stated = c.get("value").string().toLowerCase(java.util.Locale.ROOT);
      String expected = stated.equals(writtenSha256.join()) ? stated : manifest.contentSha256();
      if (!expected.equals(stated)) {
        throw new ManifestFormatException(c.path(), "the manifest's content does not match its checksum (its SHA-256"
            + " is " + expected + ", the manifest says " + stated + "): it was edited or damaged after it was written, so"
            + " neither its shards nor its counts and statistics can be trusted" + (totals == null ? "" : "; "
                + totals) + ". Restore it from a copy, or rewrite the dataset");
      }
    }
    if (totals != null) {
      throw new ManifestFormatException("$.total_samples", totals.substring("total_samples ".length()));
    }
    return manifest;
  }

  private static PageChecksums pageChecksums(ManifestNode n, long bytes) {
    n.object("algorithm", "page_size", "metadata_start", "data_start", "allocation_table_start", "values");
    String algorithm = n.get("algorithm").string();
    if (!algorithm.equals(PageChecksums.ALGORITHM)) {
      throw new ManifestFormatException(n.get("algorithm").path(), "expected \"crc32c\", got \"" + algorithm + "\"");
    }
    try {
      return new PageChecksums(n.get("page_size").integer(), n.get("metadata_start").integer(),
          n.get("data_start").integer(), n.get("allocation_table_start").integer(), bytes,
          PageChecksums.parseValues(n.get("values").string()));
    } catch (ManifestFormatException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw new ManifestFormatException(n.path(), e.getMessage());
    }
  }

  private static long nonNegative(ManifestNode n) {
    long v = n.integer();
    if (v < 0) {
      throw new ManifestFormatException(n.path(), "must not be negative, got " + v);
    }
    return v;
  }

  private static ColumnStats columnStats(ManifestNode n, boolean floating) {
    n.object("min", "max", "?has_nan");
    boolean nan = n.has("has_nan") && n.get("has_nan").bool();
    ManifestNode min = n.get("min");
    ManifestNode max = n.get("max");
    if (min.value == null || max.value == null) {
      if (min.value != max.value) {
        throw new ManifestFormatException(n.path(), "min and max must both be null or both be numbers");
      }
      return new ColumnStats(null, null, nan);
    }
    try {
      return floating ? ColumnStats.ofDoubles(min.dbl(), max.dbl(), nan) : new ColumnStats(min.integer(), max.integer(), nan);
    } catch (ManifestFormatException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw new ManifestFormatException(n.path(), e.getMessage());
    }
  }
}
