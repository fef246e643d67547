package org.sparkbeton.cli;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A remote path on the command line ({@code hdfs://}, {@code s3a://}, any Hadoop FileSystem), looked up once: its file
 * system, configured from the command's Hadoop flags, and its status. What does not exist, or cannot be reached, is
 * one line.
 */
record RemotePath(String arg, FileSystem fs, Path path, FileStatus status) {
  static RemotePath of(String arg, HadoopFlags flags) {
    URI uri = DatasetArgument.remoteUri(arg);
    Path path = new Path(uri);
    try {
      FileSystem fs = path.getFileSystem(DatasetArgument.remoteConfiguration(arg, uri, flags));
      try {
        return new RemotePath(arg, fs, path, fs.getFileStatus(path));
      } catch (FileNotFoundException e) {
        throw new CliException(arg + ": no such file or directory");
      }
    } catch (IOException e) {
      throw new CliException(arg + ": " + RemoteManifest.firstLine(e));
    }
  }
}
