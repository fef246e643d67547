package org.sparkbeton.spark.prepare;

import static org.apache.spark.sql.functions.col;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
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
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.SerializableConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparkbeton.format.io.LocalPaths;
import org.sparkbeton.spark.write.Causes;

/**
 * The images of an ImageFolder tree as torchvision's {@code ImageFolder} finds them: every file with an image
 * extension (any case) anywhere under a class folder, in nested folders too ({@code class/sub/x.jpg}), labelled by
 * its class folder, and empty files included (they are bad input for the write to report, where Spark's
 * {@code binaryFile} source drops them unseen). Names starting with {@code .} are skipped at every level (hidden
 * files and folders, {@code .git}, macOS's {@code ._x.jpg} resource forks, which are not images), where torchvision
 * lists them. Names starting with {@code _} are listed, as torchvision lists them: Spark's file sources skip them for
 * its own output ({@code _temporary}, {@code _SUCCESS}), which an image tree does not hold, and a camera names photos
 * so (Nikon's {@code _DSC0001.JPG} for every Adobe RGB shot). What is left out is counted ({@link LeftOutFiles}).
 * A few class folders are listed by the driver, many in parallel by Spark tasks, one per class folder, as Spark lists
 * a tree (a local folder through java.nio, at a fraction of the cost of Hadoop's statuses); rows are
 * {@code (path, label)}, the path qualified ({@code file:/...}, {@code hdfs://...}). A name is never parsed as a
 * path or URI ({@code a:b} is a name, not a scheme).
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
  /**
   * The rows of the listing tasks: an image {@code (path, label, null, null)}, and per class folder one report
   * {@code (null, label, images, leftOut)} ({@link LeftOutFiles#toBytes()}), so that the counts reach the driver
   * as data, once per folder whatever tasks Spark runs again.
   */
  static final StructType TASK_SCHEMA = new StructType().add("path", DataTypes.StringType, true)
      .add("label", DataTypes.IntegerType, false).add("images", DataTypes.LongType, true)
      .add("leftOut", DataTypes.BinaryType, true);

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

  /** The images a listing found, as rows {@code (path, label)}, and what it left out. */
  record ListedHere(List<Row> rows, ListingReport report) {
  }

  /**
   * Every image of the class folders {@code classes} (label = index) of {@code root}, listed by this JVM: rows
   * {@code (path, label)} in label order, each class's paths sorted, as the tasks of
   * {@link #listByTasks(SparkSession, String, List)} list them; {@code null} once more than {@code maxImages} are
   * found (the rest is not listed).
   */
  static ListedHere listHere(SparkSession spark, String root, List<String> classes, int maxImages)
      throws IOException {
    Path qualified = qualifiedRoot(spark, root);
    FileSystem fs = qualified.getFileSystem(spark.sparkContext().hadoopConfiguration());
    List<Row> rows = new ArrayList<>();
    long[] images = new long[classes.size()];
    LeftOutFiles[] leftOut = new LeftOutFiles[classes.size()];
    try {
      for (int i = 0; i < classes.size(); i++) {
        ClassFolder folder = classFolder(fs, child(qualified, classes.get(i)));
        for (String p : folder.images()) {
          rows.add(RowFactory.create(p, i));
        }
        images[i] = folder.images().size();
        leftOut[i] = folder.leftOut();
        if (rows.size() > maxImages) {
          return null;
        }
      }
    } catch (UncheckedIOException e) {
      throw e.getCause(); // a folder nested too deep: the walk's own error, as a task would report it
    }
    return new ListedHere(rows, ListingReport.of(classes, images, leftOut));
  }

  /**
   * The path of the entry {@code name} of {@code dir}, as Hadoop's own listing builds it: {@code new Path(dir,
   * name)} would parse the name as a URI, and refuse {@code a:b} ("Relative path in absolute URI").
   */
  static Path child(Path dir, String name) {
    return new Path(dir, new Path(null, null, name));
  }

  /** {@code root} qualified by its file system ({@code file:/...}, {@code hdfs://...}), as the rows' paths are. */
  private static Path qualifiedRoot(SparkSession spark, String root) throws IOException {
    Path path = new Path(root);
    return path.getFileSystem(spark.sparkContext().hadoopConfiguration()).makeQualified(path);
  }

  /**
   * The images listed by Spark tasks, as rows {@code (path, label)}; the listing they are read from, kept by Spark
   * (for the write: {@code unpersist} it after), and what it left out.
   */
  record ListedByTasks(Dataset<Row> rows, Dataset<Row> persisted, ListingReport report) {
  }

  /**
   * Every image of the class folders {@code classes} (label = index) of {@code root}, listed by Spark tasks: one job,
   * which brings the folders' reports to the driver and keeps the images' rows. A name this JVM cannot read fails it
   * as bad input ({@link UnreadableNameException}), as on the driver.
   */
  static ListedByTasks listByTasks(SparkSession spark, String root, List<String> classes) throws IOException {
    Path qualified = qualifiedRoot(spark, root);
    List<Row> folders = new ArrayList<>();
    for (int i = 0; i < classes.size(); i++) {
      // as a URI: a path string would be parsed again, where a name holding ':' reads as a scheme
      folders.add(RowFactory.create(child(qualified, classes.get(i)).toUri().toString(), i));
    }
    int slices = Math.max(1, Math.min(classes.size(), spark.sparkContext().defaultParallelism() * 4));
    Dataset<Row> listing = spark.createDataFrame(folders, SCHEMA).repartition(slices)
        .flatMap(new ListClassFolder(new SerializableConfiguration(spark.sparkContext().hadoopConfiguration())),
            Encoders.row(TASK_SCHEMA)).persist(StorageLevel.MEMORY_AND_DISK());
    List<Row> reports;
    try {
      reports = listing.where(col("path").isNull()).select("label", "images", "leftOut").collectAsList();
    } catch (Exception e) { // a failed job's SparkException is checked, thrown undeclared by Scala
      listing.unpersist();
      UnreadableNameException unreadable = Causes.first(e, UnreadableNameException.class);
      if (unreadable != null) { // the task's message, without Spark's "Job aborted due to stage failure" around it
        throw new UnreadableNameException(unreadable.getMessage(), e);
      }
      throw e;
    }
    long[] images = new long[classes.size()];
    LeftOutFiles[] leftOut = new LeftOutFiles[classes.size()];
    for (Row r : reports) {
      images[r.getInt(0)] = r.getLong(1);
      leftOut[r.getInt(0)] = LeftOutFiles.fromBytes((byte[]) r.get(2));
    }
    return new ListedByTasks(listing.where(col("path").isNotNull()).select("path", "label"), listing,
        ListingReport.of(classes, images, leftOut));
  }

  /** The images of a class folder, as qualified path strings sorted, and the files its listing left out. */
  record ClassFolder(List<String> images, LeftOutFiles leftOut) {
  }

  /**
   * The images under {@code dir} at any depth, as qualified path strings, sorted; names starting with {@code .}
   * skipped at every level. A local folder is walked through java.nio, others through their Hadoop file system: the
   * same paths in the same order, and the same errors.
   */
  public static List<String> images(FileSystem fs, Path dir) throws IOException {
    return classFolder(fs, dir).images();
  }

  /** The images under {@code dir} ({@link #images(FileSystem, Path)}) and what was left out. */
  static ClassFolder classFolder(FileSystem fs, Path dir) throws IOException {
    return classFolder(fs, dir, fs instanceof LocalFileSystem || fs instanceof RawLocalFileSystem);
  }

  /** {@link #classFolder(FileSystem, Path)}, walked through java.nio ({@code nio}, local file systems only) or Hadoop. */
  static ClassFolder classFolder(FileSystem fs, Path dir, boolean nio) throws IOException {
    List<String> out = new ArrayList<>();
    LeftOutFiles leftOut = new LeftOutFiles();
    if (nio) {
      walkLocal(dir, localFile(fs, dir), 0, out, leftOut);
    } else {
      walk(fs, dir, 0, out, leftOut);
    }
    out.sort(CodePointOrder.INSTANCE);
    return new ClassFolder(out, leftOut);
  }

  /**
   * Refuses a local {@code root} holding an entry whose name this JVM cannot read ({@link UnreadableNameException}):
   * Hadoop's listing of the root drops such an entry without a word, so a class folder named in another charset
   * lost its whole class. Other file systems' names are strings already.
   */
  static void requireReadableNames(FileSystem fs, Path root) throws IOException {
    if (!(fs instanceof LocalFileSystem) && !(fs instanceof RawLocalFileSystem)) {
      return;
    }
    java.nio.file.Path local = localFile(fs, root);
    try (DirectoryStream<java.nio.file.Path> entries = Files.newDirectoryStream(local)) {
      for (java.nio.file.Path e : entries) {
        readableName(root, local, e);
      }
    }
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
  private static void walk(FileSystem fs, Path dir, int depth, List<String> out, LeftOutFiles leftOut)
      throws IOException {
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
      if (isHidden(name)) {
        leftOut.hidden(s.isDirectory());
      } else if (s.isDirectory()) {
        walk(fs, s.getPath(), depth + 1, out, leftOut);
      } else if (isImage(name)) {
        out.add(s.getPath().toString());
      } else {
        leftOut.notAnImage(name);
      }
    }
  }

  /**
   * The local walk: one {@code stat} per entry, the paths built as Hadoop's local {@code listStatus} builds them
   * ({@link #child}, so the same strings), symbolic links followed, entries that vanish while listed (or dangling
   * links) left out, as Hadoop leaves them out; image names that are dangling links are logged as a WARN.
   */
  private static void walkLocal(Path dir, java.nio.file.Path local, int depth, List<String> out,
      LeftOutFiles leftOut) throws IOException {
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
      } else {
        leftOut.notAnImage(dir.getName());
      }
      return;
    } catch (IOException e) {
      throw new IOException("Cannot list folder " + dir + ": " + e, e);
    }
    List<String> names = new ArrayList<>(listed.size());
    for (java.nio.file.Path e : listed) {
      names.add(readableName(dir, local, e)); // else the entry would be dropped as vanished
    }
    // hidden names are looked at too, to count hidden files apart from hidden folders: a stat each, and few
    byte[] kinds = kinds(local, names);
    String prefix = dir.toString().endsWith("/") ? dir.toString() : dir + "/";
    List<String> dangling = new ArrayList<>();
    for (int i = 0; i < kinds.length; i++) {
      String name = names.get(i);
      if (kinds[i] == GONE) {
        if (isImage(name) && !isHidden(name) && Files.isSymbolicLink(local.resolve(name))) {
          dangling.add(name);
          leftOut.danglingLink();
        }
      } else if (isHidden(name)) {
        leftOut.hidden(kinds[i] == DIRECTORY);
      } else if (kinds[i] == DIRECTORY) {
        walkLocal(child(dir, name), local.resolve(name), depth + 1, out, leftOut);
      } else if (isImage(name)) {
        // the string Hadoop's Path would build, without its two URI parses per file where the name needs no escaping
        out.add(plainName(name) ? prefix + name : child(dir, name).toString());
      } else {
        leftOut.notAnImage(name);
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
  /**
   * The name of {@code entry} of the folder {@code dir} (local path {@code local}); refused as bad input when its
   * bytes are not in this JVM's file-name charset, where the string cannot name the file again.
   */
  private static String readableName(Path dir, java.nio.file.Path local, java.nio.file.Path entry) {
    String name = entry.getFileName().toString();
    if (!namesItAgain(local, name, entry)) {
      throw UnreadableNameException.in(dir.toString(), local, name);
    }
    return name;
  }

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

  /**
   * Whether a listing skips {@code name}: it starts with {@code .} (hidden files, {@code .git}, macOS's
   * {@code ._x.jpg}). Not {@code _}: see the class comment.
   */
  static boolean isHidden(String name) {
    return name.startsWith(".");
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

  /**
   * The images of one class folder, at any depth, sorted by path, as rows of {@link #TASK_SCHEMA}, then its report:
   * the image count and what was left out.
   */
  static final class ListClassFolder implements FlatMapFunction<Row, Row> {
    private static final long serialVersionUID = 1L;
    private final SerializableConfiguration conf;

    ListClassFolder(SerializableConfiguration conf) {
      this.conf = conf;
    }

    @Override
    public Iterator<Row> call(Row folder) throws IOException {
      Path dir = new Path(URI.create(folder.getString(0)));
      int label = folder.getInt(1);
      ClassFolder listed = classFolder(dir.getFileSystem(conf.value()), dir);
      List<Row> rows = new ArrayList<>(listed.images().size() + 1);
      for (String p : listed.images()) {
        rows.add(RowFactory.create(p, label, null, null));
      }
      rows.add(RowFactory.create(null, label, (long) listed.images().size(), listed.leftOut().toBytes()));
      return rows.iterator();
    }
  }
}
