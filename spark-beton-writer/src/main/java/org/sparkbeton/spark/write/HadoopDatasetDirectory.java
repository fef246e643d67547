package org.sparkbeton.spark.write;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.sparkbeton.format.dataset.Orphans;

/** A dataset directory on a Hadoop file system, as {@link Orphans} lists and cleans it. */
record HadoopDatasetDirectory(FileSystem fs, Path dir) implements Orphans.Directory {
  @Override
  public List<Orphans.FileInfo> files(String sub) throws IOException {
    List<Orphans.FileInfo> out = new ArrayList<>();
    String prefix = sub.isEmpty() ? "" : sub + "/";
    FileStatus[] statuses;
    try {
      statuses = fs.listStatus(sub.isEmpty() ? dir : new Path(dir, sub));
    } catch (FileNotFoundException e) {
      return out;
    }
    for (FileStatus f : statuses) {
      if (f.isFile()) {
        out.add(new Orphans.FileInfo(prefix + f.getPath().getName(), f.getLen(), f.getModificationTime()));
      }
    }
    return out;
  }

  @Override
  public boolean delete(String path) throws IOException {
    return fs.delete(new Path(dir, path), false);
  }
}
