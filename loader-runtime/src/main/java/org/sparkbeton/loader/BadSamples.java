package org.sparkbeton.loader;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A loader's record of bad samples (see {@link BadSamplePolicy}): how many in all and per epoch, and the first
 * {@value #KEPT} with their details. Each is logged as a warning ({@link System.Logger}) with its index, shard and
 * reason; after {@value #LOGGED} the rest are only counted. Thread-safe; {@link Loader#badSamples()} is live.
 */
public final class BadSamples {
  static final int KEPT = 1_000;
  static final int LOGGED = 100;
  private static final System.Logger LOG = System.getLogger(BadSamples.class.getName());

  /**
   * One bad sample met in an epoch.
   *
   * @param sample the sample's index in the loader's index space (all shards)
   * @param shard the file holding it
   * @param sampleInShard its index inside that file
   * @param substitute the sample whose data took its row ({@link BadSamplePolicy#REPLACE}), or -1 when it was
   *     left out ({@link BadSamplePolicy#SKIP})
   * @param reason what was wrong with it
   */
  public record Event(int epoch, int batch, long sample, String shard, long sampleInShard, long substitute,
                      String reason) {
    public boolean skipped() {
      return substitute < 0;
    }
  }

  private final List<Event> kept = new ArrayList<>();
  private final Map<Integer, Long> perEpoch = new TreeMap<>();
  private final BitSet known = new BitSet();
  private long total;
  private long logged;

  /** Bad samples met so far, all epochs (a sample bad in two epochs counts twice). */
  public synchronized long count() {
    return total;
  }

  /** Bad samples met in {@code epoch}. */
  public synchronized long count(int epoch) {
    return perEpoch.getOrDefault(epoch, 0L);
  }

  /** The first {@value #KEPT} events, in the order they were met. */
  public synchronized List<Event> events() {
    return List.copyOf(kept);
  }

  /** The distinct samples found bad so far, ascending. */
  public synchronized int[] samples() {
    return known.stream().toArray();
  }

  synchronized boolean isKnown(int sample) {
    return known.get(sample);
  }

  synchronized void add(Event e) {
    record(e);
    if (logged < LOGGED) {
      logged++;
      String what = e.skipped() ? "skipped" : "replaced by sample " + e.substitute();
      LOG.log(System.Logger.Level.WARNING, "Bad sample {0} ({1}, sample {2} of that file) in epoch {3}, batch {4},"
          + " {5}: {6}", e.sample(), e.shard(), e.sampleInShard(), e.epoch(), e.batch(), what, e.reason());
      if (logged == LOGGED) {
        LOG.log(System.Logger.Level.WARNING, "{0} bad samples logged; further ones are only counted"
            + " (Loader.badSamples())", LOGGED);
      }
    }
  }

  /** Counts samples left out of {@code epoch} unread because an earlier epoch found them bad (logged once, together). */
  synchronized void skippedAsKnown(List<Event> events) {
    for (Event e : events) {
      record(e);
    }
    if (!events.isEmpty()) {
      LOG.log(System.Logger.Level.INFO, "Epoch {0}: {1} samples found bad in earlier epochs are left out",
          events.get(0).epoch(), events.size());
    }
  }

  private void record(Event e) {
    total++;
    perEpoch.merge(e.epoch(), 1L, Long::sum);
    known.set((int) e.sample());
    if (kept.size() < KEPT) {
      kept.add(e);
    }
  }

  @Override
  public synchronized String toString() {
    return total + " bad samples" + (perEpoch.isEmpty() ? "" : " " + perEpoch) + (known.isEmpty() ? ""
        : ", distinct " + Arrays.toString(Arrays.copyOf(samples(), Math.min(10, known.cardinality()))));
  }
}
