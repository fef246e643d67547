package org.sparkbeton.cli;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.sparkbeton.format.dataset.DatasetManifest;

/**
 * The manifest of a remote dataset directory ({@code hdfs://}, {@code s3a://}, any Hadoop FileSystem), read through
 * Hadoop: {@code beton inspect} of a dataset where Spark wrote it, one small file read, no shard downloaded.
 */
final class RemoteManifest {
  private RemoteManifest() {}

  /** The manifest of the dataset directory {@code arg} names; what is not one is refused, saying what it is. */
  static DatasetManifest read(String arg, HadoopFlags flags) {
    URI uri = DatasetArgument.remoteUri(arg);
    Configuration conf = DatasetArgument.remoteConfiguration(arg, uri, flags);
    Path dir = new Path(uri);
    Path file = new Path(dir, DatasetManifest.FILE_NAME);
    String json;
    try {
      FileSystem fs = dir.getFileSystem(conf);
      FileStatus status;
      try {
        status = fs.getFileStatus(dir);
      } catch (FileNotFoundException e) {
        throw new CliException(arg + ": no such file or directory");
      }
      if (status.isFile()) {
        throw new CliException(arg + " is a file: of a remote dataset `beton inspect` reads the directory's"
            + " manifest; for a .beton file's layout, copy it here first (`hadoop fs -get " + arg + "`)");
      }
      try (InputStream in = fs.open(file)) {
        json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } catch (FileNotFoundException e) {
        throw new CliException(arg + " has no " + DatasetManifest.FILE_NAME + ": not a dataset directory (nothing"
            + " was written there, or only a write that failed)");
      }
    } catch (IOException e) {
      // a remote exception's message carries the server's stack trace after its first line
      throw new CliException(arg + ": cannot read " + file + ": " + String.valueOf(e.getMessage()).lines()
          .findFirst().orElse(e.getClass().getSimpleName()));
    }
    try {
      return DatasetManifest.parse(json);
    } catch (IllegalArgumentException e) {
      throw new CliException(file + ": " + e.getMessage());
    }
  }
}
