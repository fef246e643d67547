package org.sparkbeton.loader.hadoop;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.loader.store.DatasetStore;

/**
 * A dataset directory on any Hadoop {@link FileSystem} ({@code hdfs://}, {@code s3a://}, {@code abfs://},
 * {@code gs://}, {@code file://}, ...), for loader-runtime's shard cache. It uses its own FileSystem
 * instance ({@link FileSystem#newInstance}), so closing it never closes one the application shares through
 * Hadoop's FileSystem cache.
 */
public final class HadoopDatasetStore implements DatasetStore {
  private final URI uri;
  private final FileSystem fs;
  private final Path root;

  private HadoopDatasetStore(URI uri, FileSystem fs) {
    this.uri = uri;
    this.fs = fs;
    this.root = new Path(uri);
  }

  /** A store over the dataset directory {@code uri}, with {@code conf} (credentials, endpoints, ...). */
  public static HadoopDatasetStore open(URI uri, Configuration conf) throws IOException {
    return new HadoopDatasetStore(uri, FileSystem.newInstance(uri, conf));
  }

  @Override
  public URI uri() {
    return uri;
  }

  @Override
  public byte[] readManifest() throws IOException {
    try (FSDataInputStream in = fs.open(new Path(root, DatasetManifest.FILE_NAME))) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw notADatasetDirectory(e);
    }
  }

  /**
   * Why the manifest cannot be read, in the dataset's terms: HDFS refuses a path through a file with an
   * AccessControlException ("is not a directory") that reads like a permission problem, so a failure is checked
   * against what {@code uri} is. A failure that is not about the directory (credentials, the network) is kept.
   */
  private IOException notADatasetDirectory(IOException e) {
    FileStatus status = null;
    try {
      status = fs.getFileStatus(root);
    } catch (FileNotFoundException missing) {
      // nothing there: no manifest, as below
    } catch (IOException other) {
      if (unknownStore(e) || unknownStore(other)) {
        // S3A's NoSuchBucket reads "No such file or directory: s3a://bucket/x/_manifest.json" on the open
        return new IOException(uri + ": the store has no bucket '" + uri.getHost() + "' (or these credentials and"
            + " this endpoint do not reach it): " + other.getMessage(), e);
      }
      e.addSuppressed(other);
      return e;
    }
    if (status != null && status.isFile()) {
      return new IOException(uri + " is a file, not a dataset directory: a remote dataset is a directory with a "
          + DatasetManifest.FILE_NAME + " and its shards (as Spark's format(\"beton\") writes them), whose manifest"
          + " holds the checksums the loader verifies the downloads against. Give the directory; or copy a single"
          + " .beton file to local disk and read it with Loader.builder(Path)", e);
    }
    if (status == null || e instanceof FileNotFoundException) {
      return new IOException(uri + " has no " + DatasetManifest.FILE_NAME + ": not a dataset directory", e);
    }
    return e;
  }

  /** S3A's (and ABFS's) exception for a bucket or container that does not exist, named without hadoop-aws. */
  private static boolean unknownStore(IOException e) {
    return e.getClass().getSimpleName().equals("UnknownStoreException");
  }

  @Override
  public void readFully(String shard, long position, byte[] dst) throws IOException {
    try (FSDataInputStream in = openShard(shard)) {
      in.readFully(position, dst);
    }
  }

  @Override
  public InputStream open(String shard, long offset) throws IOException {
    FSDataInputStream in = openShard(shard);
    try {
      in.seek(offset);
      return in;
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
  }

  /**
   * A shard the manifest the loader opened lists. One that is gone was deleted since (an overwrite, or a compaction's
   * cleanup once its keepReplacedFor had passed): the loader then rebuilds it from the dataset as it is now where
   * that holds the same samples, or says why it cannot.
   */
  private FSDataInputStream openShard(String shard) throws IOException {
    try {
      return fs.open(new Path(root, shard));
    } catch (FileNotFoundException e) {
      FileNotFoundException gone = new FileNotFoundException("Shard " + shard + " of " + uri + " is gone: the"
          + " manifest lists it, and the store has no such file");
      gone.initCause(e);
      throw gone;
    }
  }

  @Override
  public void close() throws IOException {
    fs.close();
  }
}
