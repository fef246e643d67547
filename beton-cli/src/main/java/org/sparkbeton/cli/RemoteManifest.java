package org.sparkbeton.cli;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.sparkbeton.format.dataset.DatasetManifest;

/**
 * A remote dataset directory ({@code hdfs://}, {@code s3a://}, any Hadoop FileSystem) and its manifest, read through
 * Hadoop where Spark wrote it: {@code beton inspect} reads the manifest alone, {@code beton verify} each listed shard
 * in turn ({@link #download}).
 */
record RemoteManifest(String arg, FileSystem fs, Path dir, DatasetManifest manifest) {

  /** The dataset directory {@code arg} names, with its manifest; what is not one is refused, saying what it is. */
  static RemoteManifest read(String arg, HadoopFlags flags) {
    RemotePath remote = RemotePath.of(arg, flags);
    if (remote.status().isFile()) {
      throw new CliException(arg + " is a file, not a dataset directory");
    }
    Path file = new Path(remote.path(), DatasetManifest.FILE_NAME);
    String json;
    try (InputStream in = remote.fs().open(file)) {
      json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (FileNotFoundException e) {
      throw new CliException(arg + " has no " + DatasetManifest.FILE_NAME + ": not a dataset directory (nothing"
          + " was written there, or only a write that failed)");
    } catch (IOException e) {
      throw new CliException(arg + ": cannot read " + file + ": " + firstLine(e));
    }
    try {
      return new RemoteManifest(arg, remote.fs(), remote.path(), DatasetManifest.parse(json));
    } catch (IllegalArgumentException e) {
      throw new Unreadable(file + ": " + e.getMessage());
    }
  }

  /** A manifest that is there but cannot be parsed or trusted (malformed, edited after it was written). */
  static final class Unreadable extends CliException {
    private static final long serialVersionUID = 1L;

    Unreadable(String message) {
      super(message);
    }
  }

  /** Where the shard the manifest lists as {@code path} lies, for messages. */
  String shardName(String path) {
    return new Path(dir, path).toString();
  }

  /**
   * Copies the listed shard {@code path} to {@code local}; false where the store has no such file. A path that would
   * leave the dataset directory ({@code ..}, absolute) is refused, as the local verifier refuses a link out of it.
   */
  boolean download(String path, java.nio.file.Path local) throws IOException {
    if (path.startsWith("/") || path.contains(":") || java.util.Arrays.asList(path.split("/")).contains("..")) {
      throw new IllegalArgumentException("shard " + path + " lies outside the dataset directory " + dir
          + "; a dataset's shards must lie inside its directory");
    }
    try (InputStream in = fs.open(new Path(dir, path))) {
      Files.copy(in, local, StandardCopyOption.REPLACE_EXISTING);
      return true;
    } catch (FileNotFoundException e) {
      return false;
    }
  }

  /** A remote exception's message carries the server's stack trace after its first line. */
  static String firstLine(IOException e) {
    return String.valueOf(e.getMessage()).lines().findFirst().orElse(e.getClass().getSimpleName());
  }
}
