package org.sparkbeton.spark;

import java.io.IOException;
import org.apache.hadoop.fs.UnsupportedFileSystemException;

/** One line for a path the driver could not look at, with what to do when the cause is a common setup mistake. */
final class FileSystemMessages {
  private FileSystemMessages() {}

  static String cannotCheck(String path, IOException e) {
    String message = "Cannot check " + path + ": " + e.getMessage();
    if (e instanceof UnsupportedFileSystemException && (path.startsWith("s3:") || path.startsWith("s3n:"))) {
      message += " (Hadoop reads Amazon S3 as s3a://bucket/path, with org.apache.hadoop:hadoop-aws on the classpath)";
    }
    return message;
  }
}
