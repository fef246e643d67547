package org.sparkbeton.cli;

import java.nio.file.Path;
import picocli.CommandLine.Mixin;
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
      description = "Remote datasets: the shard cache budget, e.g. 50G (default: 90%% of the free space of the cache"
          + " directory's disk plus what the cache holds, for every dataset sharing it).")
  String cacheBytes;

  @Option(names = "--downloads", paramLabel = "N",
      description = "Remote datasets: shards downloaded at once (default 4).")
  Integer downloads;

  @Mixin
  HadoopFlags hadoopFlags = new HadoopFlags();

  /** The flags given, for the refusal on a local dataset; empty when none. */
  String given() {
    StringBuilder b = new StringBuilder();
    append(b, cacheDir != null, "--cache-dir");
    append(b, cacheBytes != null, "--cache-bytes");
    append(b, downloads != null, "--downloads");
    hadoopFlags.given(b);
    return b.toString();
  }

  static void append(StringBuilder b, boolean given, String flag) {
    if (given) {
      b.append(b.length() == 0 ? "" : ", ").append(flag);
    }
  }
}
