package org.sparkbeton.spark.prepare;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.SerializableConfiguration;

/**
 * The images of an ImageFolder tree as torchvision's {@code ImageFolder} finds them: every file with an image
 * extension (any case) anywhere under a class folder, in nested folders too ({@code class/sub/x.jpg}), labelled by
 * its class folder, and empty files included (they are bad input for the write to report, where Spark's
 * {@code binaryFile} source drops them unseen). Names starting with {@code .} or {@code _} are skipped at every
 * level, as Spark's file sources skip them. The class folders are listed in parallel by Spark tasks, one per class
 * folder, as Spark lists a large tree; rows are {@code (path, label)}, the path qualified
 * ({@code file:/...}, {@code hdfs://...}).
 */
final class ImageFolderListing {
  /** The extensions read, as a glob (for messages). */
  static final String IMAGE_GLOB = "*.{jpg,jpeg,png,bmp,gif,tif,tiff,webp} (any case)";
  private static final List<String> EXTENSIONS = List.of(".jpg", ".jpeg", ".png", ".bmp", ".gif", ".tif", ".tiff",
      ".webp");
  /** Folders nested deeper than this under a class folder are refused (a symbolic link loop, most likely). */
  static final int MAX_DEPTH = 32;
  static final StructType SCHEMA = new StructType().add("path", DataTypes.StringType, false)
      .add("label", DataTypes.IntegerType, false);

  private ImageFolderListing() {}

  /** Every image of the class folders {@code classes} (label = index) of {@code root}, listed by Spark tasks. */
  static Dataset<Row> list(SparkSession spark, String root, List<String> classes) throws IOException {
    Path rootPath = new Path(root);
    FileSystem fs = rootPath.getFileSystem(spark.sparkContext().hadoopConfiguration());
    Path qualified = fs.makeQualified(rootPath);
    List<Row> folders = new ArrayList<>();
    for (int i = 0; i < classes.size(); i++) {
      folders.add(RowFactory.create(new Path(qualified, classes.get(i)).toString(), i));
    }
    int slices = Math.max(1, Math.min(classes.size(), spark.sparkContext().defaultParallelism() * 4));
    return spark.createDataFrame(folders, SCHEMA).repartition(slices)
        .flatMap(new ListClassFolder(new SerializableConfiguration(spark.sparkContext().hadoopConfiguration())),
            Encoders.row(SCHEMA));
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
      List<String> paths = new ArrayList<>();
      walk(dir.getFileSystem(conf.value()), dir, 0, paths);
      paths.sort(null);
      List<Row> rows = new ArrayList<>(paths.size());
      for (String p : paths) {
        rows.add(RowFactory.create(p, label));
      }
      return rows.iterator();
    }

    private static void walk(FileSystem fs, Path dir, int depth, List<String> out) throws IOException {
      if (depth > MAX_DEPTH) {
        throw new UncheckedIOException(new IOException("Folder " + dir + " is nested " + depth + " levels deep in its"
            + " class folder, more than " + MAX_DEPTH + "; is there a symbolic link loop?"));
      }
      for (FileStatus s : fs.listStatus(dir)) {
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
  }
}
