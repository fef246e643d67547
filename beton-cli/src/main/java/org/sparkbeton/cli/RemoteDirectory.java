package org.sparkbeton.cli;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.Orphans;

/**
 * A remote dataset directory ({@code hdfs://}, {@code s3a://}, any Hadoop FileSystem) as {@link Orphans} lists and
 * cleans it, for {@code beton gc}: the same rules as on local disk and in the Spark writer's cleanup.
 */
record RemoteDirectory(String arg, FileSystem fs, Path dir) implements Orphans.Directory {

  /** The directory {@code arg} names; what is not a directory is refused, saying what it is. */
  static RemoteDirectory open(String arg, HadoopFlags flags) {
    RemotePath remote = RemotePath.of(arg, flags);
    if (!remote.status().isDirectory()) {
      throw new CliException(arg + ": not a directory");
    }
    return new RemoteDirectory(arg, remote.fs(), remote.path());
  }

  /** Its manifest, or null where it has none (a first write that never published). */
  DatasetManifest manifest() throws IOException {
    try (InputStream in = fs.open(new Path(dir, DatasetManifest.FILE_NAME))) {
      return DatasetManifest.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (FileNotFoundException e) {
      return null;
    } catch (IllegalArgumentException e) {
      throw new IOException(new Path(dir, DatasetManifest.FILE_NAME) + ": " + e.getMessage(), e);
    }
  }

  @Override
  public List<Orphans.FileInfo> files(String sub) throws IOException {
    List<Orphans.FileInfo> out = new ArrayList<>();
    FileStatus[] statuses;
    try {
      statuses = fs.listStatus(sub.isEmpty() ? dir : new Path(dir, sub));
    } catch (FileNotFoundException e) {
      return out;
    }
    String prefix = sub.isEmpty() ? "" : sub + "/";
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

  /** Where the file {@code path} of the directory lies, for messages. */
  String name(String path) {
    return new Path(dir, path).toString();
  }
}
