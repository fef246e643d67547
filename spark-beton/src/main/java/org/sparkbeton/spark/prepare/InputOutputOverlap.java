package org.sparkbeton.spark.prepare;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayDeque;
import java.util.Deque;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * Refuses an output inside the input (or the input itself), and an input inside the output. The dataset directory
 * inside the ImageFolder would be a class folder of its own (with no images), shifting the labels of the classes after
 * it for the next run or any other reader of the tree; an input inside the output would have the dataset's folder hold
 * its own images. Local paths are compared as the file system resolves them (symbolic links followed, through the
 * output's nearest existing folder, since the output need not exist yet): {@code --output link/ds} with {@code link}
 * a link to the input is inside it. Other file systems have no links to follow: their qualified paths are compared.
 */
final class InputOutputOverlap {
  private InputOutputOverlap() {}

  static void refuse(Configuration conf, String input, String output) throws IOException {
    String in = resolved(conf, input);
    String out = resolved(conf, output);
    if (within(out, in)) {
      throw new IllegalArgumentException("Output " + output + " is inside the input " + input + ": it would be a class"
          + " folder of the ImageFolder (a class of its own, shifting the labels of the classes after it); write the"
          + " dataset outside " + input);
    }
    if (within(in, out)) {
      throw new IllegalArgumentException("Input " + input + " is inside the output " + output + ": the dataset's"
          + " folder would hold its own images; write the dataset outside " + input + " and the folders above it");
    }
  }

  /** Whether {@code path} is {@code folder} or below it (both resolved, without a trailing slash). */
  private static boolean within(String path, String folder) {
    return path.equals(folder) || path.startsWith(folder + "/");
  }

  /**
   * {@code path} qualified; a local one as the file system resolves it: its nearest existing ancestor's real path
   * (links followed) with the names below it that do not exist yet.
   */
  static String resolved(Configuration conf, String path) throws IOException {
    Path p = new Path(path);
    Path qualified = p.getFileSystem(conf).makeQualified(p);
    if (!"file".equals(qualified.toUri().getScheme())) {
      String s = qualified.toString();
      return s.endsWith("/") && s.length() > 1 ? s.substring(0, s.length() - 1) : s;
    }
    java.nio.file.Path existing = Paths.get(qualified.toUri().getPath()).normalize();
    Deque<String> missing = new ArrayDeque<>();
    while (existing.getParent() != null && !Files.exists(existing)) {
      missing.push(existing.getFileName().toString());
      existing = existing.getParent();
    }
    java.nio.file.Path real = existing.toRealPath();
    for (String name : missing) {
      real = real.resolve(name);
    }
    return real.toString();
  }
}
