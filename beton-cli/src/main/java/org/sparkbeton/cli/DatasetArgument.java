package org.sparkbeton.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import org.apache.hadoop.conf.Configuration;
import org.sparkbeton.codec.ImageDecodeException;
import org.sparkbeton.codec.jpeg.JpegException;
import org.sparkbeton.format.BetonFormatException;
import org.sparkbeton.format.ByteSizes;
import org.sparkbeton.format.io.HadoopJavaSupport;
import org.sparkbeton.loader.LoaderFailedException;
import org.sparkbeton.loader.doctor.RemoteOptions;
import org.sparkbeton.loader.hadoop.HadoopDatasetStoreProvider;
import org.sparkbeton.loader.hadoop.S3aRetries;

/**
 * The DATASET of {@code doctor} and {@code bench}: a local .beton file or dataset directory, or a remote dataset
 * directory ({@code hdfs://}, {@code s3a://}, any Hadoop FileSystem URI) read through loader-hadoop's store.
 */
final class DatasetArgument {
  private DatasetArgument() {}

  /** A local path, or a remote dataset with its staging; closing deletes a temporary shard cache. */
  static final class Dataset implements AutoCloseable {
    final Path path;
    final RemoteOptions remote;
    private final Path temporaryCache;
    private final Thread cleanup;

    private Dataset(Path path, RemoteOptions remote, Path temporaryCache) {
      this.path = path;
      this.remote = remote;
      this.temporaryCache = temporaryCache;
      this.cleanup = temporaryCache == null ? null : new Thread(() -> deleteQuietly(temporaryCache));
      if (cleanup != null) {
        Runtime.getRuntime().addShutdownHook(cleanup); // deleted at exit, Ctrl-C included
      }
    }

    /**
     * Runs a measurement of this dataset ({@code doctor}'s diagnosis, {@code bench}'s run): a failure caused by the
     * data, or an I/O error of a remote dataset, becomes one user-facing line ({@link #userFacing},
     * {@link #remoteFailure}); a local I/O error is rethrown as it is.
     */
    <T> T measure(Measurement<T> measurement) throws IOException {
      try {
        return measurement.run();
      } catch (RuntimeException e) {
        throw userFacing(e);
      } catch (IOException e) {
        if (remote != null) {
          throw remoteFailure(this, e);
        }
        throw e;
      }
    }

    @Override
    public void close() {
      if (temporaryCache != null) {
        deleteQuietly(temporaryCache);
        try {
          Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException exiting) {
          // the hook runs anyway
        }
      }
    }
  }

  /** What {@link Dataset#measure} runs. */
  @FunctionalInterface
  interface Measurement<T> {
    T run() throws IOException;
  }

  /** The dataset {@code arg} names; remote flags on a local dataset, or a scheme nothing reads, are refused. */
  static Dataset open(String arg, RemoteFlags flags) {
    Path path = LocalPathArgument.localPath(arg);
    return path != null ? local(path, flags) : remote(arg, remoteUri(arg), flags);
  }

  /** {@code arg}, a URI of a scheme other than {@code file:}, parsed; refused where it is no valid URI. */
  static URI remoteUri(String arg) {
    URI uri;
    try {
      uri = new URI(arg);
    } catch (java.net.URISyntaxException e) {
      throw new CliException(arg + ": not a valid URI (" + e.getMessage() + ")");
    }
    if (uri.getHost() == null && uri.getAuthority() != null) {
      throw new CliException(arg + ": not a valid URI (no host in '" + uri.getAuthority() + "')");
    }
    return uri;
  }

  /**
   * The Hadoop configuration for the remote dataset {@code uri} ({@code arg} as given), once this Java can run Hadoop
   * and a Hadoop FileSystem serves the URI's scheme; refused, saying why, where not. S3A's retries left at Hadoop's
   * defaults are bounded ({@link S3aRetries}): a store that is down kept a command silent for minutes.
   */
  static Configuration remoteConfiguration(String arg, URI uri, HadoopFlags flags) {
    HadoopJavaSupport.refusal().ifPresent(why -> {
      throw new CliException(arg + ": " + why + "; local files and dataset directories read on this Java (copy"
          + " the dataset here first, e.g. `hadoop fs -get " + arg + "`)");
    });
    Configuration conf = flags.configuration();
    if (!new HadoopDatasetStoreProvider(conf).supports(uri)) {
      throw new CliException(arg + ": no Hadoop FileSystem for scheme '" + uri.getScheme() + "'"
          + (uri.getScheme().equals("s3a") ? " (s3a:// needs hadoop-aws 3.3.4, the AWS SDK bundle and commons-lang3 on"
              + " the classpath: BETON_CLASSPATH; see beton-cli/README.md)" : " on the classpath")
          + "; the loader reads local files and dataset directories, and hdfs:// and other Hadoop file systems");
    }
    return S3aRetries.bounded(conf);
  }

  private static Dataset local(Path path, RemoteFlags flags) {
    String given = flags.given();
    if (!given.isEmpty()) {
      throw new CliException(given + ": for remote datasets (hdfs://, s3a://, ...); " + path
          + " is read in place");
    }
    if (!Files.exists(path)) {
      throw new CliException(path + ": no such file or directory");
    }
    if (!Files.isReadable(path)) {
      throw new CliException(path + ": permission denied");
    }
    return new Dataset(path, null, null);
  }

  private static Dataset remote(String arg, URI uri, RemoteFlags flags) {
    HadoopDatasetStoreProvider provider = new HadoopDatasetStoreProvider(
        remoteConfiguration(arg, uri, flags.hadoopFlags));
    long bytes = -1;
    if (flags.cacheBytes != null) {
      try {
        bytes = ByteSizes.parse(flags.cacheBytes);
      } catch (IllegalArgumentException e) {
        throw new CliException("--cache-bytes " + flags.cacheBytes + ": " + e.getMessage());
      }
      if (bytes <= 0) {
        throw new CliException("--cache-bytes must be positive, got " + flags.cacheBytes);
      }
    }
    if (flags.downloads != null && flags.downloads < 1) {
      throw new CliException("--downloads must be >= 1, got " + flags.downloads);
    }
    Path dir = flags.cacheDir;
    Path temporary = null;
    try {
      if (dir == null) {
        dir = temporary = Files.createTempDirectory("beton-shard-cache-");
      } else {
        Files.createDirectories(dir);
      }
    } catch (IOException e) {
      throw new CliException("--cache-dir " + dir + ": cannot create it (" + BetonCli.userMessage(e) + ")");
    }
    RemoteOptions remote = RemoteOptions.of(uri, provider, dir).withCacheBytes(bytes);
    if (flags.downloads != null) {
      remote = remote.withDownloads(flags.downloads);
    }
    return new Dataset(null, remote, temporary);
  }

  /**
   * A failure inside the loader caused by the data (a corrupt image or file) is the user's to fix: one line, with
   * the loader's message naming the batch and sample. So is a remote store that cannot be read (an unreachable
   * namenode, a missing manifest): one line naming the dataset.
   */
  static RuntimeException userFacing(RuntimeException e) {
    if (e instanceof LoaderFailedException l) {
      return l.isDataError() ? new CliException(BetonCli.userMessage(l)) : l; // not the data's fault: a bug
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof JpegException || t instanceof ImageDecodeException || t instanceof BetonFormatException) {
        return new CliException(e.getMessage());
      }
    }
    return e;
  }

  /** An I/O error of a remote dataset, in one line that names it. */
  static CliException remoteFailure(Dataset d, IOException e) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().replace('\n', ' ');
    String uri = d.remote.uri().toString();
    return new CliException(message.contains(uri) ? message : uri + ": cannot read the dataset: " + message);
  }

  private static void deleteQuietly(Path dir) {
    try {
      if (!Files.exists(dir)) {
        return;
      }
      Files.walkFileTree(dir, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
          Files.deleteIfExists(file);
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
          Files.deleteIfExists(d);
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException | UncheckedIOException e) {
      // best effort: a temporary directory
    }
  }
}
