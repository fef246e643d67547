package org.sparkbeton.loader.store;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;

/**
 * Where a dataset directory lives when it is not on local disk: HDFS, S3, any Hadoop FileSystem
 * ({@code HadoopDatasetStore} in loader-hadoop), or a local directory read as if it were remote
 * ({@link LocalDirectoryStore}). The loader reads the manifest and each shard's metadata through it,
 * then streams whole shards into its local cache ({@link ShardCache}); decoding always reads the
 * local copy. Shards are named by their manifest path, relative to {@link #uri()}.
 *
 * <p>Implementations must be safe for concurrent use: several downloads run at once.
 */
public interface DatasetStore extends Closeable {

  /** The dataset directory, for messages and to tell stores apart: e.g. {@code s3a://bucket/train}. */
  URI uri();

  /** The bytes of the dataset's {@code _manifest.json}; a missing manifest throws naming the store. */
  byte[] readManifest() throws IOException;

  /** Reads {@code dst.length} bytes of {@code shard} at {@code position} (metadata reads), or throws. */
  void readFully(String shard, long position, byte[] dst) throws IOException;

  /**
   * The bytes of {@code shard} from {@code offset} to its end (a download; after a failure the loader
   * reopens at the first byte it does not have yet).
   */
  InputStream open(String shard, long offset) throws IOException;

  @Override
  default void close() throws IOException {}
}
