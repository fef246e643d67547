package org.sparkbeton.loader.store;

import java.io.IOException;

/**
 * Events of a remote dataset's staging, for logs, metrics and tests. Called from the loader's download
 * threads (several at once): implementations must be thread-safe and quick.
 */
public interface StagingListener {
  /** Does nothing. */
  StagingListener NONE = new StagingListener() {};

  /** {@code shard} was already complete in the cache (staged earlier, by this or another process). */
  default void cached(String shard) {}

  /** {@code bytes} of {@code shard}'s {@code total} are in the cache; called after each chunk a download writes. */
  default void progress(String shard, long bytes, long total) {}

  /** A read from the store failed; the download resumes from the bytes it has after a pause. */
  default void retrying(String shard, int attempt, IOException cause) {}

  /**
   * {@code shard} is complete and verified; {@code fetched} bytes came from the store in this download,
   * after {@code resumedFrom} bytes left in the cache by an earlier, interrupted one.
   */
  default void downloaded(String shard, long fetched, long resumedFrom) {}

  /**
   * {@code shard}, which a compaction merged into {@code from} and deleted after the loader opened the dataset, was
   * rebuilt from {@code fetched} bytes of {@code from}, complete and verified against its own checksum.
   */
  default void rebuilt(String shard, String from, long fetched) {}
}
