package org.sparkbeton.spark.read;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.BetonFormat;
import org.sparkbeton.format.BetonFormatException;
import org.sparkbeton.format.FieldDescriptor;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.Header;
import org.sparkbeton.format.dataset.ColumnStats;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.DatasetVerifier;
import org.sparkbeton.format.dataset.ManifestField;
import org.sparkbeton.format.dataset.PageChecksums;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.fields.NdArrayField;
import org.sparkbeton.format.io.BetonSource;
import org.sparkbeton.format.io.LocalPaths;

/**
 * What {@code load(path)} reads, resolved on the driver: a dataset directory (through its
 * {@value DatasetManifest#FILE_NAME}; files it does not list are ignored), a single {@code .beton}
 * file, or a glob of files whose fields must be identical. Single files are described by their
 * header and descriptors only (24 + 1041 bytes per field), never their data.
 */
public final class DatasetInputs {
  /**
   * One file to read.
   *
   * @param bytes size the manifest promises, or the file's size for files read without a manifest
   * @param stats min/max per field from the manifest; empty without one
   * @param pages the page checksums from the manifest; null without them
   */
  public record Shard(String path, long samples, long bytes, Map<String, ColumnStats> stats, boolean listedInManifest,
      PageChecksums pages) {
    /** A file read without page checksums. */
    public Shard(String path, long samples, long bytes, Map<String, ColumnStats> stats, boolean listedInManifest) {
      this(path, samples, bytes, stats, listedInManifest, null);
    }
  }

  private static final Logger LOG = LoggerFactory.getLogger(DatasetInputs.class);
  /** Manifests already warned about in this JVM: a warning per query would drown the log. */
  private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

  private final String root;
  private final List<ManifestField> fields;
  private final List<Shard> shards;
  private final DatasetManifest manifest;

  DatasetInputs(String root, List<ManifestField> fields, List<Shard> shards, DatasetManifest manifest) {
    this.root = root;
    this.fields = List.copyOf(fields);
    this.shards = List.copyOf(shards);
    this.manifest = manifest;
  }

  public String root() { return root; }
  public List<ManifestField> fields() { return fields; }
  public List<Shard> shards() { return shards; }
  /** Samples of every shard together. */
  public long totalSamples() {
    long total = 0;
    for (Shard s : shards) {
      total += s.samples();
    }
    return total;
  }

  /** The manifest of a dataset directory, or null for files and globs. */
  public DatasetManifest manifest() { return manifest; }

  public static DatasetInputs resolve(String pathText, Configuration conf) {
    try {
      Path path = new Path(pathText);
      FileSystem fs = path.getFileSystem(conf);
      if (isGlob(pathText)) {
        FileStatus[] matches = fs.globStatus(path);
        if (matches == null || matches.length == 0) {
          throw new IllegalArgumentException("Path " + pathText + " matches no files");
        }
        Arrays.sort(matches, Comparator.comparing(s -> s.getPath().toString()));
        List<Shard> shards = new ArrayList<>();
        List<ManifestField> fields = null;
        String first = null;
        for (FileStatus st : matches) {
          if (!st.isFile()) {
            throw new IllegalArgumentException("Glob " + pathText + " matches " + st.getPath()
                + ", which is not a file; a glob must match .beton files (load a dataset directory by its path)");
          }
          FileInfo info = FileInfo.read(st.getPath(), conf);
          if (fields == null) {
            fields = info.fields();
            first = st.getPath().toString();
          } else if (!fields.equals(info.fields())) {
            throw new IllegalArgumentException("Files matched by " + pathText + " have different fields: " + first
                + " has " + fields + " but " + st.getPath() + " has " + info.fields());
          }
          shards.add(new Shard(st.getPath().toString(), info.numSamples(), info.length(), Map.of(), false));
        }
        return new DatasetInputs(pathText, fields, shards, null);
      }
      if (!fs.exists(path)) {
        throw new IllegalArgumentException("Path does not exist: " + pathText);
      }
      FileStatus status = fs.getFileStatus(path);
      if (status.isDirectory()) {
        return fromManifest(fs, status.getPath(), conf);
      }
      FileInfo info = FileInfo.read(status.getPath(), conf);
      return new DatasetInputs(pathText, info.fields(),
          List.of(new Shard(status.getPath().toString(), info.numSamples(), info.length(), Map.of(), false)), null);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list " + pathText + ": " + e.getMessage(), e);
    }
  }

  private static DatasetInputs fromManifest(FileSystem fs, Path dir, Configuration conf) throws IOException {
    Path manifestPath = new Path(dir, DatasetManifest.FILE_NAME);
    if (!fs.exists(manifestPath)) {
      throw new IllegalArgumentException("Directory " + dir + " has no " + DatasetManifest.FILE_NAME
          + ": a beton dataset directory is defined by its manifest, written last when a write commits, so this"
          + " directory holds no committed dataset. Load a .beton file or a glob such as " + dir + "/*.beton instead");
    }
    String text;
    try (FSDataInputStream in = fs.open(manifestPath)) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    DatasetManifest manifest;
    try {
      manifest = DatasetManifest.parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(manifestPath + ": " + e.getMessage(), e);
    }
    refuseEscapingShards(fs, dir, manifest);
    warnIfUnchecked(manifestPath, manifest);
    List<Shard> shards = new ArrayList<>();
    String dirText = dir.toString();
    for (ShardEntry s : manifest.shards()) {
      shards.add(new Shard(childPath(dir, dirText, s.path()), s.samples(), s.bytes(), s.stats(), true,
          s.pageChecksums()));
    }
    return new DatasetInputs(dir.toString(), manifest.fields(), shards, manifest);
  }

  /**
   * {@code new Path(dir, name).toString()}, joined as text when {@code name} is a plain file name (letters, digits,
   * {@code . _ -}, as every writer names its shards), where Hadoop's URI resolution gives the same string: a
   * thousand shards resolve in a fraction of the time. Any other name goes through {@link Path}.
   */
  static String childPath(Path dir, String dirText, String name) {
    if (!isPlainName(name) || dirText.endsWith("/")) {
      return new Path(dir, name).toString();
    }
    return dirText + "/" + name;
  }

  private static boolean isPlainName(String name) {
    if (name.isEmpty() || name.charAt(0) == '.') {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_'
          || c == '-';
      if (!plain) {
        return false;
      }
    }
    return true;
  }

  /**
   * Refuses a manifest listing a shard whose real path (symbolic links followed) lies outside the dataset
   * directory. Only local file systems have links here: HDFS clients do not follow them unless configured to, and
   * object stores have none. A shard that does not exist is left to the read, which reports it.
   */
  private static void refuseEscapingShards(FileSystem fs, Path dir, DatasetManifest manifest) throws IOException {
    if (!"file".equals(fs.getUri().getScheme())) {
      return;
    }
    java.nio.file.Path local = LocalPaths.of(fs.makeQualified(dir).toUri());
    for (ShardEntry s : manifest.shards()) {
      try {
        DatasetVerifier.shardFile(local, s.path());
      } catch (java.nio.file.NoSuchFileException missing) {
        // reported by the read that needs it (or skipped with ignoreCorruptFiles)
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("Dataset " + dir + ": " + e.getMessage(), e);
      }
    }
  }

  /** Says once per manifest what cannot be checked: a version 1 manifest, or shards without page checksums. */
  private static void warnIfUnchecked(Path manifestPath, DatasetManifest manifest) {
    long unchecked = manifest.shards().stream().filter(s -> s.pageChecksums() == null).count();
    if ((manifest.hasContentChecksum() && unchecked == 0) || !WARNED.add(manifestPath.toString())) {
      return;
    }
    if (!manifest.hasContentChecksum()) {
      LOG.warn("beton: {} was written before manifests carried checksums (format_version 1): its sample counts and"
          + " min/max are trusted unchecked when answering count() and pruning filters, and its shards are read"
          + " without page checks. Rewrite the dataset with this version to have both checked", manifestPath);
    } else {
      LOG.warn("beton: {} of the {} shards listed by {} have no page checksums (appended before checksums existed):"
          + " they are read unchecked", unchecked, manifest.shards().size(), manifestPath);
    }
  }

  static boolean isGlob(String path) {
    for (char c : new char[] {'*', '?', '[', '{'}) {
      if (path.indexOf(c) >= 0) {
        return true;
      }
    }
    return false;
  }

  /** A file's fields and sample count, from its header and descriptors alone. */
  record FileInfo(List<ManifestField> fields, long numSamples, long length) {
    static FileInfo read(Path path, Configuration conf) throws IOException {
      try (BetonSource source = new HadoopBetonSource(path, conf)) {
        return read(source);
      }
    }

    static FileInfo read(BetonSource source) throws IOException {
      String file = source.name();
      long length = source.length();
      if (length < BetonFormat.HEADER_SIZE) {
        throw new BetonFormatException(file, "header", 0,
            "file is " + length + " bytes, shorter than the " + BetonFormat.HEADER_SIZE + "-byte header");
      }
      Header header = Header.parse(source.read(0, BetonFormat.HEADER_SIZE), file);
      long end = BetonFormat.metadataStart(header.numFields());
      if (header.numFields() == 0 || end > length) {
        throw new BetonFormatException(file, "field descriptors", BetonFormat.HEADER_SIZE,
            header.numFields() + " descriptors do not fit in the file's " + length + " bytes");
      }
      ByteBuffer table = source.read(BetonFormat.HEADER_SIZE, header.numFields() * BetonFormat.DESCRIPTOR_SIZE);
      List<ManifestField> fields = new ArrayList<>();
      for (int i = 0; i < header.numFields(); i++) {
        long at = BetonFormat.HEADER_SIZE + (long) i * BetonFormat.DESCRIPTOR_SIZE;
        FieldDescriptor d = FieldDescriptor.parse(table.position(i * BetonFormat.DESCRIPTOR_SIZE), i, at, file);
        int type = d.typeId();
        if (type == FieldTypes.NDARRAY || type == FieldTypes.TORCH_TENSOR) {
          try {
            fields.add(ManifestField.of(new BetonField(d.name(), NdArrayField.fromArguments(type, d.arguments()))));
          } catch (IllegalArgumentException e) {
            throw new BetonFormatException(file, "field descriptor " + i + " arguments", at + 1 + BetonFormat.NAME_SIZE,
                "field '" + d.name() + "': " + e.getMessage(), e);
          }
        } else if (FieldTypes.builtIn(type) != null || type == FieldTypes.CUSTOM) {
          fields.add(ManifestField.of(d.name(), type));
        } else {
          throw new BetonFormatException(file, "field descriptor " + i, at,
              "field '" + d.name() + "' has unknown type id " + type);
        }
      }
      return new FileInfo(fields, header.numSamples(), length);
    }
  }
}
