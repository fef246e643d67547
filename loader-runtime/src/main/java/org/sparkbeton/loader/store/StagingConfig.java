package org.sparkbeton.loader.store;

import java.nio.file.Path;
import java.util.Objects;

/**
 * How a remote dataset is staged: the node-local cache directory, its byte budget for the whole directory
 * (-1: {@link ShardCache#defaultBudget}, 90% of the free space of its disk plus what the cache holds),
 * concurrent downloads, retries of a failed read before the loader gives up, and a listener.
 */
public record StagingConfig(Path dir, long bytes, int downloads, int retries, StagingListener listener) {
  public static final int DEFAULT_DOWNLOADS = 4;
  public static final int DEFAULT_RETRIES = 3;

  public StagingConfig {
    Objects.requireNonNull(dir, "cache directory");
    Objects.requireNonNull(listener, "listener");
    if (bytes == 0 || bytes < -1) {
      throw new IllegalArgumentException("Cache budget must be positive (or -1 for the default), got " + bytes);
    }
    if (downloads < 1) {
      throw new IllegalArgumentException("Concurrent downloads must be at least 1, got " + downloads);
    }
    if (retries < 0) {
      throw new IllegalArgumentException("Download retries must be >= 0, got " + retries);
    }
  }

  /** {@code <java.io.tmpdir>/beton-shard-cache}, default budget, 4 downloads, 3 retries, no listener. */
  public static StagingConfig defaults() {
    return new StagingConfig(Path.of(System.getProperty("java.io.tmpdir"), "beton-shard-cache"), -1,
        DEFAULT_DOWNLOADS, DEFAULT_RETRIES, StagingListener.NONE);
  }

  public StagingConfig withDir(Path d) {
    return new StagingConfig(d, bytes, downloads, retries, listener);
  }

  public StagingConfig withBytes(long b) {
    return new StagingConfig(dir, b, downloads, retries, listener);
  }

  public StagingConfig withDownloads(int n) {
    return new StagingConfig(dir, bytes, n, retries, listener);
  }

  public StagingConfig withRetries(int n) {
    return new StagingConfig(dir, bytes, downloads, n, listener);
  }

  public StagingConfig withListener(StagingListener l) {
    return new StagingConfig(dir, bytes, downloads, retries, l);
  }
}
