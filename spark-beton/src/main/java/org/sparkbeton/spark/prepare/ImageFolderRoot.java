package org.sparkbeton.spark.prepare;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.sparkbeton.format.Counts;
import org.sparkbeton.format.io.LocalPaths;

/**
 * The top level of an ImageFolder tree: its class folders, sorted (a sample's label is its folder's index here), and
 * what lies beside them, counted as left out: files directly under the root (images there belong to no class, as in
 * torchvision's {@code ImageFolder}; a user who mixed a few in among the class folders lost them without a word
 * before) and hidden names.
 *
 * @param classes the class folder names, in label order
 * @param leftOut the files and hidden folders directly under the root
 */
record ImageFolderRoot(List<String> classes, LeftOutFiles leftOut) {

  /**
   * Where a path without a scheme was looked for when the default file system is not the local one (fs.defaultFS
   * of a cluster's configuration, say HDFS): an operator's local folder was said not to exist, without a word of where
   * it had been looked for.
   */
  static String defaultFileSystemHint(FileSystem fs, Path path, String given) {
    if (path.toUri().getScheme() != null || "file".equals(fs.getUri().getScheme())) {
      return "";
    }
    return " on " + fs.makeQualified(path) + " (a path without a scheme is on the default file system, fs.defaultFS"
        + " = " + fs.getUri() + "; for a local folder write file://" + (given.startsWith("/") ? given
            : java.nio.file.Path.of(given).toAbsolutePath()) + ")";
  }

  /** The top level of {@code input}; refuses one that does not exist or holds no class folder. */
  static ImageFolderRoot of(Configuration conf, String input) throws IOException {
    Path root = new Path(input);
    FileSystem fs = root.getFileSystem(conf);
    FileStatus top;
    try {
      top = fs.getFileStatus(root);
    } catch (java.io.FileNotFoundException e) {
      throw new IllegalArgumentException("Input " + input + " does not exist" + defaultFileSystemHint(fs, root, input)
          + LocalPaths.tildeHint(input) + (input.startsWith("/") || input.startsWith("file:")
              ? LocalPaths.nameCharsetHint() : ""));
    }
    if (!top.isDirectory()) {
      throw new IllegalArgumentException("Input " + input + " is a file; the input is an ImageFolder, a folder with"
          + " one folder of images per class (<input>/<class>/<image>), whose names become the labels");
    }
    ImageFolderListing.requireReadableNames(fs, root);
    List<String> classes = new ArrayList<>();
    LeftOutFiles leftOut = new LeftOutFiles();
    for (FileStatus s : fs.listStatus(root)) {
      String name = s.getPath().getName();
      if (ImageFolderListing.isHidden(name)) {
        leftOut.hidden(s.isDirectory());
      } else if (s.isDirectory()) {
        classes.add(name);
      } else if (ImageFolderListing.isImage(name)) {
        leftOut.imageOutsideClassFolders();
      } else {
        leftOut.notAnImage(name);
      }
    }
    if (classes.isEmpty()) {
      long loose = leftOut.imagesOutsideClassFolders();
      throw new IllegalArgumentException("Input " + input + " has no class folders; expected <input>/<class>/<image>"
          + (loose == 0 ? "" : " (it holds " + Counts.of(loose, "image")
          + " directly: an ImageFolder's label is its image's class folder, so put them in one folder per class)"));
    }
    classes.sort(CodePointOrder.INSTANCE);
    return new ImageFolderRoot(List.copyOf(classes), leftOut);
  }
}
