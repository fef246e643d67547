package org.sparkbeton.loader.store;

import java.util.function.IntToLongFunction;
import org.sparkbeton.loader.order.OrderOption;

/**
 * The shards one epoch of a remote dataset needs, batch by batch, as {@link ShardStager} works them out: a
 * shard is needed from its first batch to its last. Says why an epoch needs more than the budget at once, and
 * what would make it fit, in the terms of the order that produced it.
 */
final class EpochShards {
  private final int epoch;
  private final int[] order;
  private final int batchSize;
  private final int[] batchStart;
  private final int[] batchShards;
  private final int[] first;
  private final int[] last;

  /**
   * Batch b reads shards {@code batchShards[batchStart[b] .. batchStart[b + 1])}; shard s is needed from batch
   * {@code first[s]} to {@code last[s]} (-1: not this epoch).
   */
  EpochShards(int epoch, int[] order, int batchSize, int[] batchStart, int[] batchShards, int[] first, int[] last) {
    this.epoch = epoch;
    this.order = order;
    this.batchSize = batchSize;
    this.batchStart = batchStart;
    this.batchShards = batchShards;
    this.first = first;
    this.last = last;
  }

  /** The bytes of the shards needed at each batch (staged or staging while it is decoded). */
  long[] liveBytes(IntToLongFunction shardBytes) {
    int batches = batchStart.length - 1;
    long[] delta = new long[batches + 1];
    for (int s = 0; s < first.length; s++) {
      if (first[s] >= 0) {
        delta[first[s]] += shardBytes.applyAsLong(s);
        delta[last[s] + 1] -= shardBytes.applyAsLong(s);
      }
    }
    long[] live = new long[batches];
    long now = 0;
    for (int b = 0; b < batches; b++) {
      now += delta[b];
      live[b] = now;
    }
    return live;
  }

  /** Why batch {@code b} needs {@code live[b]} bytes, more than {@code budget}, and what would fit. */
  String tooWide(int b, long[] live, long budget, RemoteDataset dataset) {
    long peak = 0;
    for (long l : live) {
      peak = Math.max(peak, l);
    }
    int count = 0;
    int kept = 0;
    int longest = -1;
    for (int s = 0; s < first.length; s++) {
      if (first[s] >= 0 && first[s] <= b && last[s] >= b) {
        count++;
        if (first[s] < b && last[s] > b && !reads(b, s)) {
          kept++;
          longest = longest < 0 || last[s] - first[s] > last[longest] - first[longest] ? s : longest;
        }
      }
    }
    String inUse = dataset.orderInUse();
    StringBuilder m = new StringBuilder("Epoch " + epoch + " of " + dataset.uri() + " needs " + count + " shards ("
        + live[b] + " bytes) in the cache at once at batch " + b + ", more than its budget of " + budget + " bytes: ");
    boolean strided = strided(b, inUse);
    m.append(batchReads(b, strided));
    if (kept > 0) {
      m.append("; ").append(kept).append(kept == 1 ? " more is" : " more are").append(" read before batch ").append(b)
          .append(" and again after it, and stay staged in between (").append(dataset.shardName(longest))
          .append(" from batch ").append(first[longest]).append(" to batch ").append(last[longest])
          .append("): an index that comes twice (indices() with repeats, or the samples distributed(rank, worldSize)"
              + " repeats so that every rank gets as many) keeps its shard from its first use to its last");
    }
    m.append(". Raise cacheBytes to at least ").append(peak).append(" (the most this epoch needs at once)");
    m.append(alternatives(inUse, strided));
    return m.toString();
  }

  private boolean reads(int b, int s) {
    for (int k = batchStart[b]; k < batchStart[b + 1]; k++) {
      if (batchShards[k] == s) {
        return true;
      }
    }
    return false;
  }

  /** Whether batch {@code b} of a SEQUENTIAL epoch skips samples between its first and its last. */
  private boolean strided(int b, String inUse) {
    int from = b * batchSize;
    int to = Math.min(order.length, from + batchSize);
    return OrderOption.SEQUENTIAL.name().equals(inUse) && to - from > 1 && max(b) - min(b) + 1 > to - from;
  }

  private int min(int b) {
    int lo = Integer.MAX_VALUE;
    for (int i = b * batchSize; i < Math.min(order.length, (b + 1) * batchSize); i++) {
      lo = Math.min(lo, order[i]);
    }
    return lo;
  }

  private int max(int b) {
    int hi = Integer.MIN_VALUE;
    for (int i = b * batchSize; i < Math.min(order.length, (b + 1) * batchSize); i++) {
      hi = Math.max(hi, order[i]);
    }
    return hi;
  }

  /** Which shards batch {@code b} itself reads, and why so many when its samples are strided. */
  private String batchReads(int b, boolean strided) {
    int samples = Math.min(order.length, (b + 1) * batchSize) - b * batchSize;
    int width = batchStart[b + 1] - batchStart[b];
    String reads = "batch " + b + " alone reads " + width + (width == 1 ? " shard" : " shards") + " (its " + samples
        + " samples lie between sample " + min(b) + " and sample " + max(b) + " of the dataset";
    if (strided) {
      reads += ": SEQUENTIAL with distributed(rank, worldSize) deals the samples to the ranks in turn, so each rank's"
          + " batch of batchSize samples spans worldSize * batchSize samples and their shards (indices() that skip"
          + " samples spread a batch the same way)";
    }
    return reads + ")";
  }

  /** Other ways to fit, never the order already in use. */
  private static String alternatives(String inUse, boolean strided) {
    if (OrderOption.SEQUENTIAL.name().equals(inUse)) {
      return strided ? ", lower batchSize, or read through ShardWindowOrder.window(k), which deals each rank contiguous"
          + " runs of whole shards" : ", or lower batchSize";
    }
    if (inUse != null && inUse.startsWith("ShardWindowOrder")) {
      return ", or read through a smaller ShardWindowOrder.window(k)";
    }
    return ", or use an order that reads few shards at a time (ShardWindowOrder.window(k); SEQUENTIAL too, when not"
        + " distributed)";
  }
}
