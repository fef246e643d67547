package org.sparkbeton.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Option;

/**
 * The Hadoop configuration of a command that reads a remote dataset ({@code hdfs://}, {@code s3a://}, any Hadoop
 * FileSystem): {@code inspect}'s, and {@code doctor}'s and {@code bench}'s through {@link RemoteFlags}.
 */
final class HadoopFlags {
  @Option(names = "-D", paramLabel = "KEY=VALUE",
      description = "Remote datasets: a Hadoop configuration property (e.g. -D fs.s3a.endpoint=http://host:9000);"
          + " repeatable, applied last.")
  Map<String, String> hadoop;

  @Option(names = "--hadoop-conf", paramLabel = "FILE",
      description = "Remote datasets: a Hadoop configuration file (core-site.xml format) added to the default"
          + " configuration (core-site.xml on the classpath, then $HADOOP_CONF_DIR's core-site.xml and"
          + " hdfs-site.xml); repeatable.")
  List<Path> hadoopConf;

  /** Appends the flags given to {@code b} (comma-separated), for the refusal of remote flags on a local dataset. */
  void given(StringBuilder b) {
    RemoteFlags.append(b, hadoop != null && !hadoop.isEmpty(), "-D");
    RemoteFlags.append(b, hadoopConf != null && !hadoopConf.isEmpty(), "--hadoop-conf");
  }

  /** Refuses these flags where a command was given local files or directories only ({@code local}). */
  void refuseFor(List<String> local) {
    StringBuilder given = new StringBuilder();
    given(given);
    if (given.length() > 0) {
      throw new CliException(given + ": for remote datasets (hdfs://, s3a://, ...); " + String.join(", ", local)
          + (local.size() == 1 ? " is" : " are") + " read in place");
    }
  }

  /**
   * Hadoop's default configuration (core-default.xml and a core-site.xml on the classpath), then
   * {@code $HADOOP_CONF_DIR}'s core-site.xml and hdfs-site.xml, then each {@code --hadoop-conf} file, then each
   * {@code -D key=value}.
   */
  Configuration configuration() {
    Configuration conf = new Configuration();
    String confDir = System.getenv("HADOOP_CONF_DIR");
    if (confDir != null && !confDir.isBlank()) {
      for (String name : new String[] {"core-site.xml", "hdfs-site.xml"}) {
        Path f = Path.of(confDir, name);
        if (Files.isRegularFile(f)) {
          conf.addResource(new org.apache.hadoop.fs.Path(f.toUri()));
        }
      }
    }
    if (hadoopConf != null) {
      for (Path f : hadoopConf) {
        if (!Files.isRegularFile(f)) {
          throw new CliException("--hadoop-conf " + f + ": no such file");
        }
        conf.addResource(new org.apache.hadoop.fs.Path(f.toAbsolutePath().toUri()));
      }
    }
    if (hadoop != null) {
      for (Map.Entry<String, String> e : hadoop.entrySet()) {
        conf.set(e.getKey(), e.getValue());
      }
    }
    return conf;
  }

  /**
   * What to add to a failure that is Hadoop's "Incomplete HDFS URI, no host": {@code hdfs:///path}, as a cluster's
   * tools write it, takes the namenode from the configuration, which this command reads from -D, --hadoop-conf and
   * $HADOOP_CONF_DIR only; empty for any other message.
   */
  static String namenodeHint(String message) {
    return message.contains("Incomplete HDFS URI") ? " (hdfs:///path takes its namenode from fs.defaultFS: give -D"
        + " fs.defaultFS=hdfs://<namenode>:<port>, --hadoop-conf <core-site.xml> or HADOOP_CONF_DIR, or write"
        + " hdfs://<namenode>:<port>/path)" : "";
  }
}
