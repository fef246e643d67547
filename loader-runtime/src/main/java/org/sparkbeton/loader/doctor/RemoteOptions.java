package org.sparkbeton.loader.doctor;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.loader.LoaderBuilder;
import org.sparkbeton.loader.store.DatasetStore;
import org.sparkbeton.loader.store.DatasetStoreProvider;
import org.sparkbeton.loader.store.RangedDataset;
import org.sparkbeton.loader.store.ShardCache;
import org.sparkbeton.loader.store.StagingConfig;
import org.sparkbeton.loader.store.StagingListener;

/**
 * A remote dataset for {@code beton doctor} and {@code beton bench} ({@code hdfs://}, {@code s3a://}, ...): its URI,
 * the provider that opens its store, and the staging the loader runs with.
 *
 * @param cacheDir the loader's shard cache directory
 * @param cacheBytes the cache budget, or -1 for the loader's default (90% of the cache disk's free space plus what the
 *     cache holds)
 * @param downloads shards downloaded at once
 */
public record RemoteOptions(URI uri, DatasetStoreProvider provider, Path cacheDir, long cacheBytes, int downloads) {
  public RemoteOptions {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(cacheDir, "cacheDir");
    if (cacheBytes == 0 || cacheBytes < -1) {
      throw new IllegalArgumentException("--cache-bytes must be positive, got " + cacheBytes);
    }
    if (downloads < 1) {
      throw new IllegalArgumentException("--downloads must be >= 1, got " + downloads);
    }
  }

  /** With the loader's defaults: the default budget, {@value StagingConfig#DEFAULT_DOWNLOADS} downloads. */
  public static RemoteOptions of(URI uri, DatasetStoreProvider provider, Path cacheDir) {
    return new RemoteOptions(uri, provider, cacheDir, -1, StagingConfig.DEFAULT_DOWNLOADS);
  }

  public RemoteOptions withCacheBytes(long bytes) {
    return new RemoteOptions(uri, provider, cacheDir, bytes, downloads);
  }

  public RemoteOptions withDownloads(int n) {
    return new RemoteOptions(uri, provider, cacheDir, cacheBytes, n);
  }

  DatasetStore open() throws IOException {
    return provider.open(uri);
  }

  /** The loader over the dataset, staged as these options say, reporting to {@code listener}. */
  LoaderBuilder builder(StagingListener listener) {
    LoaderBuilder b = Loader.builder(uri, provider).cacheDir(cacheDir).downloads(downloads).stagingListener(listener);
    return cacheBytes > 0 ? b.cacheBytes(cacheBytes) : b;
  }

  /** The budget the loader will use: as given, else the cache directory's default (ShardCache.defaultBudget). */
  long budget(long datasetBytes) {
    if (cacheBytes > 0) {
      return cacheBytes;
    }
    try {
      return ShardCache.defaultBudget(cacheDir);
    } catch (IOException e) {
      return datasetBytes;
    }
  }

  /** Refuses, before measuring, a budget the loader would refuse: smaller than the largest shard. */
  void checkBudget(RangedDataset ds) {
    ShardEntry largest = ds.entries().get(0);
    for (ShardEntry e : ds.entries()) {
      largest = e.bytes() > largest.bytes() ? e : largest;
    }
    if (cacheBytes > 0 && largest.bytes() > cacheBytes) {
      throw new IllegalArgumentException("--cache-bytes " + cacheBytes + " cannot hold shard " + largest.path()
          + " of " + uri + " (" + largest.bytes() + " bytes); give at least " + largest.bytes() + ", the largest shard"
          + " (about three shards let one download while two are read)");
    }
  }

  long usableBytes() {
    try {
      return Files.getFileStore(cacheDir).getUsableSpace();
    } catch (IOException e) {
      return -1;
    }
  }
}
