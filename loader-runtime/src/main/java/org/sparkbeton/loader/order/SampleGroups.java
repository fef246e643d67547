package org.sparkbeton.loader.order;

import java.util.SplittableRandom;
import java.util.function.IntUnaryOperator;

/**
 * Samples grouped by a key (a shard, a data page), for the orders that shuffle within groups and then the groups
 * ({@link ShardWindowOrder}, {@link QuasiRandomOrder}). The keys that hold samples become groups 0..G-1 in key
 * order; a sample whose key is {@link #OWN_GROUP} forms a group of its own after those, in index order. Within a
 * group, samples keep their order in {@code indices}.
 */
final class SampleGroups {
  /** The key of a sample that forms a group of its own. */
  static final int OWN_GROUP = PageMap.NO_PAGE;

  private final int[] start; // CSR: group g holds members[start[g] .. start[g+1])
  private final int[] members;

  /** Groups {@code indices} by {@code keyOf}, whose keys are in [0, {@code keys}) or {@link #OWN_GROUP}. */
  SampleGroups(int[] indices, int keys, IntUnaryOperator keyOf) {
    int own = 0;
    int[] count = new int[keys + 1];
    for (int s : indices) {
      int k = keyOf.applyAsInt(s);
      if (k == OWN_GROUP) {
        own++;
      } else {
        count[k + 1]++;
      }
    }
    // compact the keys that hold samples into groups 0..G-1, then one group per sample of its own
    int[] groupOfKey = new int[keys];
    int groups = 0;
    for (int k = 0; k < keys; k++) {
      groupOfKey[k] = count[k + 1] > 0 ? groups++ : -1;
    }
    int totalGroups = groups + own;
    int[] start = new int[totalGroups + 1];
    for (int k = 0; k < keys; k++) {
      if (groupOfKey[k] >= 0) {
        start[groupOfKey[k] + 1] = count[k + 1];
      }
    }
    for (int g = groups; g < totalGroups; g++) {
      start[g + 1] = 1;
    }
    for (int g = 0; g < totalGroups; g++) {
      start[g + 1] += start[g];
    }
    int[] fill = new int[totalGroups];
    int[] out = new int[indices.length];
    int nextOwn = groups;
    for (int s : indices) {
      int k = keyOf.applyAsInt(s);
      int g = k == OWN_GROUP ? nextOwn++ : groupOfKey[k];
      out[start[g] + fill[g]++] = s;
    }
    this.start = start;
    this.members = out;
  }

  /** How many groups. */
  int count() {
    return start.length - 1;
  }

  /** Where group {@code g} starts in {@link #shuffledMembers}; {@code start(g + 1)} is where it ends. */
  int start(int g) {
    return start[g];
  }

  /** The samples, group after group, each group shuffled with {@code rng} (group 0 first). */
  int[] shuffledMembers(SplittableRandom rng) {
    int[] pool = members.clone();
    for (int g = 0; g < count(); g++) {
      RandomOrder.shuffle(pool, start[g], start[g + 1], rng);
    }
    return pool;
  }

  /** The groups 0..count()-1 in an order shuffled with {@code rng}. */
  int[] shuffledOrder(SplittableRandom rng) {
    int[] order = new int[count()];
    for (int g = 0; g < order.length; g++) {
      order[g] = g;
    }
    RandomOrder.shuffle(order, 0, order.length, rng);
    return order;
  }
}
