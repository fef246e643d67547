package org.sparkbeton.loader.store;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import org.sparkbeton.format.dataset.ShardEntry;

/** What a remote dataset says when the cache's budget or its disk cannot take a shard, with what would. */
final class CacheBudgetErrors {
  private CacheBudgetErrors() {}

  /** Why {@code budget} cannot hold the largest shard, with the least that can: that shard's size. */
  static String tooSmall(URI store, StagingConfig config, ShardCache cache, long budget, ShardEntry largest) {
    String which = config.bytes() > 0 ? "The cache budget of " + budget + " bytes (cacheBytes)"
        : "The default cache budget of " + budget + " bytes (" + percent() + " of the space free on the disk of "
            + cache.directory() + ", plus what the cache holds)";
    String raise = config.bytes() > 0 ? "raise cacheBytes to at least " + largest.bytes()
        : "free space on that disk, or give cacheDir on a disk with at least " + largest.bytes() + " bytes free";
    return which + " cannot hold shard " + largest.path() + " of " + store + " (" + largest.bytes() + " bytes): "
        + raise + ", the largest shard; a budget that holds only it stages one shard at a time, and each batch may"
        + " only read shards that fit the budget together (about three shards let one download while two are read)";
  }

  /**
   * A failed write into the cache, with the budget that let the download start and the disk's free space now: a
   * cacheBytes larger than the disk can give is the usual cause of a full disk, and is named as such.
   */
  static String writeFailed(ShardDownload.CacheWriteException e, StagingConfig config, ShardCache cache, long budget) {
    long usable = -1;
    long held = -1;
    try {
      usable = Files.getFileStore(cache.directory()).getUsableSpace();
      held = cache.usedBytes();
    } catch (IOException ignored) {
      // the numbers are only for the message
    }
    String room = usable < 0 ? "" : "; its disk has " + usable + " bytes free now, and the cache holds " + held;
    String advice;
    if (config.bytes() > 0 && usable >= 0 && config.bytes() > usable + held) {
      advice = ". cacheBytes (" + config.bytes() + ") is more than that disk can give the cache (" + (usable + held)
          + " bytes): lower cacheBytes to fit, free space, or give cacheDir on a larger disk";
    } else if (config.bytes() > 0) {
      advice = ". Free space on that disk or lower cacheBytes, or give cacheDir on a larger disk";
    } else {
      advice = ". The default budget was " + percent() + " of the disk's free space when the loader opened: other"
          + " files have filled it since. Free space, pass a cacheBytes that leaves them room, or give cacheDir on a"
          + " larger disk";
    }
    return e.getMessage() + ". The cache is " + cache.directory() + ", its budget " + budget + " bytes" + room + advice;
  }

  private static String percent() {
    return Math.round(ShardCache.DISK_SHARE * 100) + "%";
  }
}
