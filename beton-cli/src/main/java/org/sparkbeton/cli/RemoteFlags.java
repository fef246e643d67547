package org.sparkbeton.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The flags of {@code doctor} and {@code bench} for remote datasets ({@code hdfs://}, {@code s3a://}, any Hadoop
 * FileSystem): the loader's shard cache and the Hadoop configuration.
 */
final class RemoteFlags {
  @Option(names = "--cache-dir", paramLabel = "DIR",
      description = "Remote datasets: the shard cache directory (default: a temporary directory, deleted at exit).")
  Path cacheDir;

  @Option(names = "--cache-bytes", paramLabel = "SIZE",
      description = "Remote datasets: the shard cache budget, e.g. 50G (default: the dataset's size, at most 90%% of"
          + " the cache directory's free disk).")
  String cacheBytes;

  @Option(names = "--downloads", paramLabel = "N",
      description = "Remote datasets: shards downloaded at once (default 4).")
  Integer downloads;

  @Option(names = "-D", paramLabel = "KEY=VALUE",
      description = "Remote datasets: a Hadoop configuration property (e.g. -D fs.s3a.endpoint=http://host:9000);"
          + " repeatable, applied last.")
  Map<String, String> hadoop;

  @Option(names = "--hadoop-conf", paramLabel = "FILE",
      description = "Remote datasets: a Hadoop configuration file (core-site.xml format) added to the default"
          + " configuration (core-site.xml on the classpath, then $HADOOP_CONF_DIR's core-site.xml and"
          + " hdfs-site.xml); repeatable.")
  List<Path> hadoopConf;

  /** The flags given, for the refusal on a local dataset; empty when none. */
  String given() {
    StringBuilder b = new StringBuilder();
    append(b, cacheDir != null, "--cache-dir");
    append(b, cacheBytes != null, "--cache-bytes");
    append(b, downloads != null, "--downloads");
    append(b, hadoop != null && !hadoop.isEmpty(), "-D");
    append(b, hadoopConf != null && !hadoopConf.isEmpty(), "--hadoop-conf");
    return b.toString();
  }

  private static void append(StringBuilder b, boolean given, String flag) {
    if (given) {
      b.append(b.length() == 0 ? "" : ", ").append(flag);
    }
  }
}
