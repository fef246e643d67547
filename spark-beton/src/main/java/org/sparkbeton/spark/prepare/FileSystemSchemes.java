package org.sparkbeton.spark.prepare;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Refuses an {@code --input} or {@code --output} whose scheme no Hadoop FileSystem on the class path serves, saying
 * what to add: Spark's own words were {@code ClassNotFoundException: Class org.apache.hadoop.fs.s3a.S3AFileSystem
 * not found} once the job had started.
 */
final class FileSystemSchemes {
  private FileSystemSchemes() {}

  static void require(Configuration conf, String flag, String path) {
    String scheme = new Path(path).toUri().getScheme();
    if (scheme == null) {
      return; // the default file system
    }
    try {
      FileSystem.getFileSystemClass(scheme, conf);
    } catch (IOException | RuntimeException | LinkageError e) {
      // LinkageError: hadoop-aws without the AWS SDK it needs (NoClassDefFoundError) refuses the same way
      throw new IllegalArgumentException(flag + " " + path + ": no Hadoop FileSystem for scheme '" + scheme
          + "' on the class path (" + what(scheme) + "; under spark-submit, --packages "
          + (scheme.equals("s3a") ? "org.apache.hadoop:hadoop-aws:3.3.4" : "with its coordinates") + ")");
    }
  }

  private static String what(String scheme) {
    return switch (scheme) {
      case "s3a" -> "s3a:// needs hadoop-aws 3.3.4 and the AWS SDK bundle it was built with,"
          + " aws-java-sdk-bundle 1.12.262: add them with BETON_CLASSPATH=/path/hadoop-aws-3.3.4.jar:/path/"
          + "aws-java-sdk-bundle-1.12.262.jar";
      case "s3", "s3n" -> "Hadoop reads S3 as s3a://; for " + scheme + ":// give s3a://";
      default -> "add the jar of the FileSystem that serves " + scheme + ":// (hadoop-azure for abfs://, the GCS"
          + " connector for gs://) with BETON_CLASSPATH";
    };
  }
}
