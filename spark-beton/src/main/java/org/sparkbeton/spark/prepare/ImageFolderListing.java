package org.sparkbeton.spark.prepare;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.SerializableConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparkbeton.format.io.LocalPaths;

/**
 * The images of an ImageFolder tree as torchvision's {@code ImageFolder} finds them: every file with an image
 * extension (any case) anywhere under a class folder, in nested folders too ({@code class/sub/x.jpg}), labelled by
 * its class folder, and empty files included (they are bad input for the write to report, where Spark's
 * {@code binaryFile} source drops them unseen). Names starting with {@code .} or {@code _} are skipped at every
 * level, as Spark's file sources skip them. A few class folders are listed by the driver, many in parallel by Spark
 * tasks, one per class folder, as Spark lists a tree (a local folder through java.nio, at a fraction of the cost of
 * Hadoop's statuses); rows are {@code (path, label)}, the path qualified ({@code file:/...}, {@code hdfs://...}).
 */
public final class ImageFolderListing {
  private static final Logger LOG = LoggerFactory.getLogger(ImageFolderListing.class);
  /** The extensions read, as a glob (for messages). */
  static final String IMAGE_GLOB = "*.{jpg,jpeg,png,bmp,gif,tif,tiff,webp} (any case)";
  private static final List<String> EXTENSIONS = List.of(".jpg", ".jpeg", ".png", ".bmp", ".gif", ".tif", ".tiff",
      ".webp");
  /** Folders nested deeper than this under a class folder are refused (a symbolic link loop, most likely). */
  static final int MAX_DEPTH = 32;
  static final StructType SCHEMA = new StructType().add("path", DataTypes.StringType, false)
      .add("label", DataTypes.IntegerType, false);

  private ImageFolderListing() {}

  /**
   * Whether the driver lists {@code classes} class folders itself: as Spark's file sources do, up to
   * {@code spark.sql.sources.parallelPartitionDiscovery.threshold} folders (32 unless set), where a listing job
   * would cost more than the listing (a fresh JVM's first Spark jobs take seconds); more are listed by tasks.
   */
  static boolean listsOnDriver(SparkSession spark, int classes) {
    return classes <= Integer.parseInt(spark.conf().get(PARALLEL_LISTING_THRESHOLD, "32"));
  }

  static final String PARALLEL_LISTING_THRESHOLD = "spark.sql.sources.parallelPartitionDiscovery.threshold";

  /**
   * Images the driver lists at most before it leaves the listing to tasks: its rows (~200 bytes each) and the
   * write tasks' slices of them stay a few tens of MB of a driver's heap, whose default on a cluster is 1 GiB.
   */
  static final int DRIVER_LISTING_MAX_IMAGES = 200_000;

  /**
   * Every image of the class folders {@code classes} (label = index) of {@code root}, listed by this JVM: rows
   * {@code (path, label)} in label order, each class's paths sorted, as the tasks of
   * {@link #list(SparkSession, String, List)} list them; {@code null} once more than {@code maxImages} are found
   * (the rest is not listed).
   */
  static List<Row> listHere(SparkSession spark, String root, List<String> classes, int maxImages)
      throws IOException {
    Path qualified = qualifiedRoot(spark, root);
    FileSystem fs = qualified.getFileSystem(spark.sparkContext().hadoopConfiguration());
    List<Row> rows = new ArrayList<>();
    try {
      for (int i = 0; i < classes.size(); i++) {
        for (String p : images(fs, new Path(qualified, classes.get(i)))) {
          rows.add(RowFactory.create(p, i));
        }
        if (rows.size() > maxImages) {
          return null;
        }
      }
    } catch (UncheckedIOException e) {
      throw e.getCause(); // a folder nested too deep: the walk's own error, as a task would report it
    }
    return rows;
  }

  /** {@code root} qualified by its file system ({@code file:/...}, {@code hdfs://...}), as the rows' paths are. */
  private static Path qualifiedRoot(SparkSession spark, String root) throws IOException {
    Path path = new Path(root);
    return path.getFileSystem(spark.sparkContext().hadoopConfiguration()).makeQualified(path);
  }

  /** Every image of the class folders {@code classes} (label = index) of {@code root}, listed by Spark tasks. */
  static Dataset<Row> list(SparkSession spark, String root, List<String> classes) throws IOException {
    Path qualified = qualifiedRoot(spark, root);
    List<Row> folders = new ArrayList<>();
    for (int i = 0; i < classes.size(); i++) {
      folders.add(RowFactory.create(new Path(qualified, classes.get(i)).toString(), i));
    }
    int slices = Math.max(1, Math.min(classes.size(), spark.sparkContext().defaultParallelism() * 4));
    return spark.createDataFrame(folders, SCHEMA).repartition(slices)
        .flatMap(new ListClassFolder(new SerializableConfiguration(spark.sparkContext().hadoopConfiguration())),
            Encoders.row(SCHEMA));
  }

  /**
   * The images under {@code dir} at any depth, as qualified path strings, sorted; names starting with {@code .} or
   * {@code _} skipped at every level. A local folder is walked through java.nio, others through their Hadoop file
   * system: the same paths in the same order, and the same errors.
   */
  public static List<String> images(FileSystem fs, Path dir) throws IOException {
    return images(fs, dir, fs instanceof LocalFileSystem || fs instanceof RawLocalFileSystem);
  }

  /** {@link #images(FileSystem, Path)}, walked through java.nio ({@code nio}, local file systems only) or Hadoop. */
  static List<String> images(FileSystem fs, Path dir, boolean nio) throws IOException {
    List<String> out = new ArrayList<>();
    if (nio) {
      walkLocal(dir, localFile(fs, dir), 0, out);
    } else {
      walk(fs, dir, 0, out);
    }
    out.sort(CodePointOrder.INSTANCE);
    return out;
  }

  private static java.nio.file.Path localFile(FileSystem fs, Path dir) {
    Path qualified = fs.makeQualified(dir);
    return (fs instanceof LocalFileSystem local ? local.pathToFile(qualified)
        : ((RawLocalFileSystem) fs).pathToFile(qualified)).toPath();
  }

  private static void checkDepth(Path dir, int depth) {
    if (depth > MAX_DEPTH) {
      throw new UncheckedIOException(new IOException("Folder " + dir + " is nested " + depth + " levels deep in its"
          + " class folder, more than " + MAX_DEPTH + "; is there a symbolic link loop?"));
    }
  }

  /**
   * Hadoop's walk: {@code listStatus} builds a status per entry, which on the local file system costs four
   * {@code stat} calls and a path qualified again per file (9% of the writer benchmark's wall time for 5,000 files,
   * with the executors idle).
   */
  private static void walk(FileSystem fs, Path dir, int depth, List<String> out) throws IOException {
    checkDepth(dir, depth);
    FileStatus[] entries;
    try {
      entries = fs.listStatus(dir);
    } catch (FileNotFoundException e) {
      throw e;
    } catch (IOException e) {
      throw new IOException("Cannot list folder " + dir + ": " + e, e);
    }
    for (FileStatus s : entries) {
      String name = s.getPath().getName();
      if (name.startsWith(".") || name.startsWith("_")) {
        continue;
      }
      if (s.isDirectory()) {
        walk(fs, s.getPath(), depth + 1, out);
      } else if (isImage(name)) {
        out.add(s.getPath().toString());
      }
    }
  }

  /**
   * The local walk: one {@code stat} per entry that is not skipped by its name, the paths built as Hadoop's local
   * {@code listStatus} builds them ({@code new Path(dir, new Path(null, null, name))}, so the same strings), symbolic
   * links followed, entries that vanish while listed (or dangling links) left out, as Hadoop leaves them out; image
   * names that are dangling links are logged as a WARN.
   */
  private static void walkLocal(Path dir, java.nio.file.Path local, int depth, List<String> out) throws IOException {
    checkDepth(dir, depth);
    List<java.nio.file.Path> listed = new ArrayList<>();
    try (DirectoryStream<java.nio.file.Path> entries = Files.newDirectoryStream(local)) {
      entries.forEach(listed::add);
    } catch (NoSuchFileException e) {
      throw new FileNotFoundException("File " + dir + " does not exist" + LocalPaths.nameCharsetHint());
    } catch (NotDirectoryException e) {
      // Hadoop lists a file as itself
      if (isImage(dir.getName())) {
        out.add(dir.toString());
      }
      return;
    } catch (IOException e) {
      throw new IOException("Cannot list folder " + dir + ": " + e, e);
    }
    List<String> names = new ArrayList<>(listed.size());
    for (java.nio.file.Path e : listed) {
      String name = e.getFileName().toString();
      if (!namesItAgain(local, name, e)) {
        // the name's bytes are not in this JVM's file-name charset: the string cannot name the file again, and the
        // entry would be dropped as vanished
        throw new IOException("Cannot read the name of an entry of folder " + dir + " (it reads as '" + name + "')"
            + LocalPaths.nameCharsetHint());
      }
      names.add(name);
    }
    names.removeIf(name -> name.startsWith(".") || name.startsWith("_"));
    byte[] kinds = kinds(local, names);
    String prefix = dir.toString().endsWith("/") ? dir.toString() : dir + "/";
    List<String> dangling = new ArrayList<>();
    for (int i = 0; i < kinds.length; i++) {
      String name = names.get(i);
      if (kinds[i] == GONE && isImage(name) && Files.isSymbolicLink(local.resolve(name))) {
        dangling.add(name);
      } else if (kinds[i] == DIRECTORY) {
        walkLocal(new Path(dir, new Path(null, null, name)), local.resolve(name), depth + 1, out);
      } else if (kinds[i] == FILE && isImage(name)) {
        // the string Hadoop's Path would build, without its two URI parses per file where the name needs no escaping
        out.add(plainName(name) ? prefix + name : new Path(dir, new Path(null, null, name)).toString());
      }
    }
    if (!dangling.isEmpty()) {
      // no image to read, as Hadoop's listing leaves them out too; but said, since a tree of links whose targets
      // are not mounted here would otherwise shrink without a word
      LOG.warn("Left out {} image name(s) in {} that are symbolic links to nothing: {}", dangling.size(), dir,
          String.join(", ", dangling.subList(0, Math.min(5, dangling.size()))) + (dangling.size() > 5 ? ", ..." : ""));
    }
  }

  /** Whether {@code name}, the string a listing gave for {@code entry} of {@code folder}, names it again. */
  private static boolean namesItAgain(java.nio.file.Path folder, String name, java.nio.file.Path entry) {
    try {
      return entry.equals(folder.resolve(name));
    } catch (java.nio.file.InvalidPathException e) { // a replacement character the charset cannot encode
      return false;
    }
  }

  private static final byte GONE = 0;
  private static final byte FILE = 1;
  private static final byte DIRECTORY = 2;
  /** Entries of a folder from which their stat calls are shared among the common pool's threads and this one. */
  static final int PARALLEL_STATS = 512;

  /**
   * What each of {@code names} in {@code folder} is (symbolic links followed): one {@code stat} each, which is most of
   * a large folder's listing (5,000 files: 16-30 ms here); a large folder's are shared with the common pool, since a
   * driver lists before any task runs, with the cores idle (in the tasks that list class folders, the pool adds at
   * most one thread per core but one, for a moment). Entries that vanish (or dangle) are {@link #GONE}.
   */
  private static byte[] kinds(java.nio.file.Path folder, List<String> names) throws IOException {
    byte[] kinds = new byte[names.size()];
    IntStream all = IntStream.range(0, kinds.length);
    try {
      (kinds.length >= PARALLEL_STATS ? all.parallel() : all).forEach(i -> {
        try {
          BasicFileAttributes a = Files.readAttributes(folder.resolve(names.get(i)), BasicFileAttributes.class);
          kinds[i] = a.isDirectory() ? DIRECTORY : FILE;
        } catch (NoSuchFileException e) {
          kinds[i] = GONE;
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    return kinds;
  }

  /** Whether a file name is a path segment that Hadoop's {@code Path} keeps as it is: letters, digits, . _ - */
  static boolean plainName(String name) {
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-')) {
        return false;
      }
    }
    return !name.isEmpty();
  }

  static boolean isImage(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    for (String e : EXTENSIONS) {
      if (lower.endsWith(e)) {
        return true;
      }
    }
    return false;
  }

  /** The files of one class folder, at any depth, sorted by path. */
  static final class ListClassFolder implements FlatMapFunction<Row, Row> {
    private static final long serialVersionUID = 1L;
    private final SerializableConfiguration conf;

    ListClassFolder(SerializableConfiguration conf) {
      this.conf = conf;
    }

    @Override
    public Iterator<Row> call(Row folder) throws IOException {
      Path dir = new Path(folder.getString(0));
      int label = folder.getInt(1);
      List<String> paths = images(dir.getFileSystem(conf.value()), dir);
      List<Row> rows = new ArrayList<>(paths.size());
      for (String p : paths) {
        rows.add(RowFactory.create(p, label));
      }
      return rows.iterator();
    }
  }
}
