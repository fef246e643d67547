package org.sparkbeton.format.dataset;

import java.util.Map;
import java.util.Objects;

/**
 * One shard of a dataset: a complete {@code .beton} file at {@code path} relative to the dataset
 * directory, holding {@code samples} samples in {@code bytes} bytes, with its checksum, the
 * min/max of Int and Float fields by field name (fields without statistics are simply absent), and
 * the CRC32C of each of its pages, which readers check as they read (null in manifests written before
 * page checksums: such a shard is read unchecked).
 */
public record ShardEntry(String path, long samples, long bytes, ShardChecksum checksum, Map<String, ColumnStats> stats,
    PageChecksums pageChecksums) implements java.io.Serializable {
  public ShardEntry {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(checksum, "checksum");
    checkRelativePath(path);
    if (samples < 0) {
      throw new IllegalArgumentException("Shard '" + path + "' has a negative sample count " + samples);
    }
    if (bytes < 0) {
      throw new IllegalArgumentException("Shard '" + path + "' has a negative byte size " + bytes);
    }
    stats = stats == null ? Map.of() : JsonText.unmodifiable(stats);
    if (pageChecksums != null && pageChecksums.fileLength() != bytes) {
      throw new IllegalArgumentException("Shard '" + path + "' is " + bytes + " bytes but its page checksums describe "
          + pageChecksums.fileLength());
    }
  }

  /** A shard without page checksums. */
  public ShardEntry(String path, long samples, long bytes, ShardChecksum checksum, Map<String, ColumnStats> stats) {
    this(path, samples, bytes, checksum, stats, null);
  }

  /** This entry with page checksums. */
  public ShardEntry withPageChecksums(PageChecksums pages) {
    return new ShardEntry(path, samples, bytes, checksum, stats, pages);
  }

  /** Stats of one field, or null when the manifest has none for it. */
  public ColumnStats stats(String field) {
    return stats.get(field);
  }

  /**
   * A shard path is relative, uses '/' separators, and stays inside the dataset directory: no
   * leading '/', no '\', no URI scheme, no empty, '.' or '..' segments.
   */
  static void checkRelativePath(String path) {
    String why = null;
    if (path.isEmpty()) {
      why = "is empty";
    } else if (path.startsWith("/")) {
      why = "is absolute";
    } else if (path.indexOf('\\') >= 0) {
      why = "contains '\\'";
    } else if (path.indexOf(':') >= 0) {
      why = "contains ':' (a URI scheme or drive letter)";
    } else {
      for (String seg : path.split("/", -1)) {
        if (seg.isEmpty() || seg.equals(".") || seg.equals("..")) {
          why = "has an empty, '.' or '..' segment";
          break;
        }
      }
    }
    if (why != null) {
      throw new IllegalArgumentException("Shard path '" + path + "' " + why
          + "; shard paths are relative to the dataset directory");
    }
  }
}
