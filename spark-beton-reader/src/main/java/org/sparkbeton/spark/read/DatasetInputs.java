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
import org.sparkbeton.format.dataset.RecordedColumnTypes;
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

  /**
   * A file whose content these inputs were resolved from (a dataset's manifest, a {@code .beton} file read by its
   * header), as it was then: a change of either number means the file was replaced.
   */
  record FileVersion(String path, long length, long modificationTime) {
    static FileVersion of(FileStatus status) {
      return new FileVersion(status.getPath().toString(), status.getLen(), status.getModificationTime());
    }

    /** Whether the file is gone or replaced since: one status call. */
    boolean changed(Configuration conf) throws IOException {
      Path p = new Path(path);
      try {
        FileStatus now = p.getFileSystem(conf).getFileStatus(p);
        return now.getLen() != length || now.getModificationTime() != modificationTime;
      } catch (java.io.FileNotFoundException gone) {
        return true;
      }
    }
  }

  private final String root;
  private final List<ManifestField> fields;
  private final List<Shard> shards;
  private final DatasetManifest manifest;
  /** The manifest's recipe; for datasets read together, the column types that hold them all. */
  private final Map<String, String> recipe;
  /** The paths given to {@link #resolve(List, Configuration)}, resolved again by {@link #current}. */
  private final List<String> pathTexts;
  private final List<FileVersion> versions;

  /** Inputs resolved from one path or a glob's match; {@link #resolvedFrom} names what a user gave. */
  private DatasetInputs(String root, List<ManifestField> fields, List<Shard> shards, DatasetManifest manifest,
      List<FileVersion> versions) {
    this(root, fields, shards, manifest, manifest == null ? Map.of() : manifest.recipe(), versions, List.of(root));
  }

  private DatasetInputs(String root, List<ManifestField> fields, List<Shard> shards, DatasetManifest manifest,
      Map<String, String> recipe, List<FileVersion> versions, List<String> pathTexts) {
    this.root = root;
    this.fields = List.copyOf(fields);
    this.shards = List.copyOf(shards);
    this.manifest = manifest;
    this.recipe = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(recipe));
    this.versions = List.copyOf(versions);
    this.pathTexts = List.copyOf(pathTexts);
  }

  private DatasetInputs resolvedFrom(List<String> texts) {
    return new DatasetInputs(root, fields, shards, manifest, recipe, versions, texts);
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

  /** The manifest of a dataset directory, or null for files, globs and several paths. */
  public DatasetManifest manifest() { return manifest; }

  /**
   * The recipe of a dataset directory's manifest; for several datasets read together (paths, a glob) the column
   * types that hold them all ({@link RecordedColumnTypes#joined}); empty for a file.
   */
  public Map<String, String> recipe() {
    return recipe;
  }

  /**
   * Fails unless {@code now}, this dataset read again, records the column types this one does
   * ({@link RecordedColumnTypes}): an overwrite, or an append of wider values ({@code bigint} rows appended to
   * {@code int} ones), changed them, and a query planned with the old schema would read values it cannot hold.
   *
   * @param reading what is reading, for the message: "this DataFrame", "this stream"
   * @param again how to read the dataset as it is now
   */
  public void requireSameColumnTypes(DatasetInputs now, String reading, String again) {
    Map<String, String> before = RecordedColumnTypes.of(recipe());
    Map<String, String> after = RecordedColumnTypes.of(now.recipe());
    if (!before.equals(after)) {
      throw new IllegalStateException("The dataset " + root + " changed after " + reading + " read it: the column types"
          + " its manifest records are now " + (after.isEmpty() ? "none" : after) + ", they were "
          + (before.isEmpty() ? "none" : before) + " (a write replaced it, or appended rows of wider types). "
          + again);
    }
  }

  /**
   * Whether every shard comes from a manifest, so that its sample count and min/max statistics are checked facts:
   * one dataset directory, or several (named, or matched by a glob).
   */
  public boolean everyShardListed() {
    for (Shard s : shards) {
      if (!s.listedInManifest()) {
        return false;
      }
    }
    return !shards.isEmpty() || manifest != null;
  }

  /**
   * Several paths read as one table, in the order given: each a dataset directory, a file or a glob, all with the same
   * fields; a shard named twice (the same dataset given twice) is refused rather than read twice.
   */
  public static DatasetInputs resolve(List<String> pathTexts, Configuration conf) {
    if (pathTexts.size() == 1) {
      return resolve(pathTexts.get(0), conf);
    }
    List<DatasetInputs> parts = new ArrayList<>();
    for (String p : pathTexts) {
      parts.add(resolve(p, conf));
    }
    return union(String.join(", ", pathTexts), parts).resolvedFrom(pathTexts);
  }

  public static DatasetInputs resolve(String pathText, Configuration conf) {
    return resolveOne(pathText, conf).resolvedFrom(List.of(pathText));
  }

  /**
   * These inputs if every manifest and file they were resolved from is unchanged (same length, same modification
   * time: one status call each), else the paths resolved again as they are now. A DataFrame keeps the table of its
   * {@code load()}; through this each query reads the dataset as it is when the query is planned, not the shards
   * of a manifest that an overwrite has since replaced. A glob's matches are those of the first resolve; a new
   * match needs a new {@code load()}.
   */
  public DatasetInputs current(Configuration conf) {
    try {
      for (FileVersion v : versions) {
        if (v.changed(conf)) {
          return resolve(pathTexts, conf);
        }
      }
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot check " + root + " for changes: " + e.getMessage(), e);
    }
  }

  private static DatasetInputs resolveOne(String pathText, Configuration conf) {
    try {
      Path path = new Path(pathText);
      FileSystem fs = path.getFileSystem(conf);
      // a path that exists as written is read as written, glob characters and all: save("ds[1]") then load("ds[1]")
      // reads what the write made, not ds1
      if (isGlob(pathText) && !fs.exists(path)) {
        FileStatus[] matches = fs.globStatus(path);
        if (matches == null || matches.length == 0) {
          throw new IllegalArgumentException("Path " + pathText + " matches no files");
        }
        Arrays.sort(matches, Comparator.comparing(s -> s.getPath().toString()));
        List<DatasetInputs> parts = new ArrayList<>();
        for (FileStatus st : matches) {
          // a directory is a dataset, read through its manifest; a file is a .beton file
          parts.add(st.isDirectory() ? fromManifest(fs, st.getPath(), conf) : fromFile(st, conf));
        }
        return parts.size() == 1 ? parts.get(0) : union(pathText, parts);
      }
      if (!fs.exists(path)) {
        throw new IllegalArgumentException("Path does not exist: " + pathText + LocalPaths.tildeHint(pathText));
      }
      FileStatus status = fs.getFileStatus(path);
      if (status.isDirectory()) {
        return fromManifest(fs, status.getPath(), conf);
      }
      return fromFile(status, conf);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list " + pathText + ": " + e.getMessage(), e);
    }
  }

  /** One .beton file; a dataset's manifest given instead names its directory. */
  private static DatasetInputs fromFile(FileStatus status, Configuration conf) throws IOException {
    Path file = status.getPath();
    if (file.getName().equals(DatasetManifest.FILE_NAME)) {
      throw new IllegalArgumentException(file + " is the manifest of a dataset: load its directory, "
          + file.getParent());
    }
    FileInfo info = FileInfo.read(file, conf);
    return new DatasetInputs(file.toString(), info.fields(),
        List.of(new Shard(file.toString(), info.numSamples(), info.length(), Map.of(), false)), null,
        List.of(FileVersion.of(status)));
  }

  /** {@code parts} as one table: the same fields in each, no shard twice. */
  private static DatasetInputs union(String root, List<DatasetInputs> parts) {
    List<Shard> shards = new ArrayList<>();
    List<FileVersion> versions = new ArrayList<>();
    Map<String, String> owner = new java.util.HashMap<>();
    DatasetInputs first = parts.get(0);
    for (DatasetInputs part : parts) {
      versions.addAll(part.versions);
      if (!part.fields().equals(first.fields())) {
        throw new IllegalArgumentException("The datasets and files of " + root + " have different fields: "
            + first.root() + " has " + first.fields() + " but " + part.root() + " has " + part.fields());
      }
      for (Shard s : part.shards()) {
        String before = owner.putIfAbsent(s.path(), part.root());
        if (before != null) {
          throw new IllegalArgumentException("Shard " + s.path() + " is named twice in " + root + " (by " + before
              + " and " + part.root() + "): it would be read twice");
        }
        shards.add(s);
      }
    }
    Map<String, String> types = RecordedColumnTypes.joined(parts.stream().map(DatasetInputs::recipe).toList(),
        parts.stream().map(DatasetInputs::root).toList());
    return new DatasetInputs(root, first.fields(), shards, null, types, versions, List.of(root));
  }

  private static DatasetInputs fromManifest(FileSystem fs, Path dir, Configuration conf) throws IOException {
    Path manifestPath = new Path(dir, DatasetManifest.FILE_NAME);
    FileStatus manifestStatus;
    try {
      manifestStatus = fs.getFileStatus(manifestPath);
    } catch (java.io.FileNotFoundException none) {
      throw new IllegalArgumentException("Directory " + dir + " has no " + DatasetManifest.FILE_NAME
          + ": a beton dataset directory is defined by its manifest, written last when a write commits, so this"
          + " directory holds no committed dataset. Load a .beton file or a glob such as " + dir + "/*.beton instead",
          none);
    }
    DatasetManifest manifest = readManifest(fs, dir);
    warnIfUnchecked(manifestPath, manifest);
    List<Shard> shards = new ArrayList<>();
    String dirText = dir.toString();
    for (ShardEntry s : manifest.shards()) {
      shards.add(new Shard(childPath(dir, dirText, s.path()), s.samples(), s.bytes(), s.stats(), true,
          s.pageChecksums()));
    }
    return new DatasetInputs(dir.toString(), manifest.fields(), shards, manifest,
        List.of(FileVersion.of(manifestStatus)));
  }

  /**
   * The manifest of the dataset directory {@code dir}, parsed (an invalid one named by its path), a shard that would
   * lie outside the directory refused ({@link #refuseEscapingShards}).
   */
  static DatasetManifest readManifest(FileSystem fs, Path dir) throws IOException {
    Path manifestPath = new Path(dir, DatasetManifest.FILE_NAME);
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
    return manifest;
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
