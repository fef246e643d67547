package org.sparkbeton.loader.store;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
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

  /** Bytes of a cache directory held by loaders of this process, and by other processes, when room could not be made. */
  record Held(long here, long elsewhere) {
    long total() {
      return here + elsewhere;
    }
  }

  /** Why shard {@code name} found no room: loaders of this process hold it and made no progress for {@code stallMillis}. */
  static String noRoomStalled(Path dir, String name, long bytes, long budget, Held held, long stallMillis) {
    return noRoom(dir, name, bytes, budget, held, "loaders of this process hold " + held.here() + " bytes of it, and"
        + " have released or downloaded no shard for " + seconds(stallMillis) + ": the room is not coming (a loader"
        + " paused mid-epoch by the thread that now waits, e.g. a training loop that runs a validation loader between"
        + " its batches, releases nothing)");
  }

  /** Why shard {@code name} found no room after waiting {@code waitMillis} for it. */
  static String noRoomAfterWaiting(Path dir, String name, long bytes, long budget, Held held, long waitMillis) {
    return noRoom(dir, name, bytes, budget, held, "after " + seconds(waitMillis) + ", loaders still hold "
        + held.total() + " bytes of it (" + held.here() + " in this process, " + held.elsewhere() + " in other"
        + " processes on this node)" + (held.elsewhere() > 0 ? "; a loader of RANDOM or QUASI_RANDOM over a dataset"
        + " larger than the budget holds a shard window, taken from the whole budget unless distributed(rank,"
        + " worldSize) gives it a rank's share or order(ShardWindowOrder.window(k)) sets it, so loaders of several"
        + " processes that are not ranks of one job need their windows set to share it" : ""));
  }

  private static String noRoom(Path dir, String name, long bytes, long budget, Held held, String why) {
    return "No room for shard " + name + " (" + bytes + " bytes) in the shard cache " + dir + ": its budget of "
        + budget + " bytes covers the whole directory, every dataset and process sharing it, and " + why + ". Give"
        + " every loader that shares the directory the same cacheBytes, at least " + (held.total() + bytes)
        + " (what is held now plus this shard), or leave cacheBytes unset in all of them (the default is the disk's:"
        + " " + percent() + " of its free space plus what the cache holds); or give each loader its own cacheDir, or"
        + " have each read fewer shards at once (ShardWindowOrder.window)";
  }

  private static String seconds(long millis) {
    return millis % 1000 == 0 ? millis / 1000 + " s" : String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
  }

  private static String percent() {
    return Math.round(ShardCache.DISK_SHARE * 100) + "%";
  }
}
