package org.sparkbeton.loader.doctor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.sparkbeton.format.Counts;
import org.sparkbeton.loader.doctor.Diagnosis.Reads;
import org.sparkbeton.loader.doctor.Diagnosis.Storage;
import org.sparkbeton.loader.io.PageReadModel;
import org.sparkbeton.loader.io.Shards;
import org.sparkbeton.loader.order.OrderContext;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.order.PageMap;

/**
 * How often an order and a cache make training read storage, and what storage can then feed. The PROCESS cache's
 * page reads are computed from two epochs of the order ({@link PageReadModel}: the first from a cold cache, the
 * second steady). The OS page cache is modelled from the memory available: a dataset that fits is read in the
 * first epoch only; one that does not is read in the proportion that does not fit, each epoch (random access to
 * a cache of that size). Reads through a loader source have no page cache at all. Storage limits assume reads are
 * bandwidth-bound: smaller images read proportionally faster.
 */
final class ReadModel {
  /** The PROCESS budget suggested when the memory available is unknown. */
  static final long DEFAULT_BUDGET = 4L << 30;

  private final DatasetFacts facts;
  private final Shards shards;
  private final int batch;
  private final long seed;
  private PageMap pages;

  ReadModel(DatasetFacts facts, Shards shards, int batch, long seed) {
    this.facts = facts;
    this.shards = shards;
    this.batch = batch;
    this.seed = seed;
  }

  /** Refuses a PROCESS budget that cannot hold one batch's pages with this order, in the command's terms. */
  void check(OrderOption order, CacheChoice cache) {
    if (cache.isProcess()) {
      try {
        pageReads(order, cache.processBytes());
      } catch (IllegalArgumentException e) {
        // the command has no page-buffer flag: with quasi_random already, more budget is the one way
        throw new IllegalArgumentException("--cache " + cache + " with --order " + flag(order) + " and batch " + batch
            + ": " + e.getMessage() + "; raise the budget" + (order == OrderOption.QUASI_RANDOM
                ? " (QUASI_RANDOM's page buffer, 2 x batch pages, is more than the cache holds)"
                : " or use --order quasi_random"));
      }
    }
  }

  Reads reads(OrderOption order, CacheChoice cache, Storage storage, boolean readThrough) {
    if (cache.isProcess()) {
      long[] r = pageReads(order, cache.processBytes());
      double first = (double) r[0] / perEpoch();
      double steady = (double) r[1] / perEpoch();
      long slots = Math.min(cache.processBytes() / facts.pageSize(), facts.pages());
      String description = Units.number(steady) + " page reads per sample with order " + flag(order)
          + " and a PROCESS cache of " + Units.bytes(slots * facts.pageSize()) + " (" + Counts.of(slots, "page") + " of "
          + Units.bytes(facts.pageSize()) + ")" + (slots >= facts.pages()
              ? ", which holds every page: they are read in the first epoch only (" + Units.number(first)
                  + " per sample)" : "");
      return new Reads(description, steady, Math.min(1, steady), limit(storage.pagesPerSecond(), steady),
          limit(storage.pagesPerSecond(), first));
    }
    if (readThrough) {
      return new Reads("every image read from storage each epoch (cache mode OS through the loader's source: no"
          + " page cache)", -1, 1, storage.payloadsPerSecond(), storage.payloadsPerSecond());
    }
    if (facts.fitsInMemory()) {
      return new Reads("the OS page cache can hold the dataset (" + Units.bytes(facts.fileBytes()) + " of "
          + Units.bytes(facts.memoryAvailable()) + " available): storage is read in the first epoch only, at up to "
          + Units.rate(storage.payloadsPerSecond()), -1, 0, Double.POSITIVE_INFINITY, storage.payloadsPerSecond());
    }
    double miss = facts.memoryAvailable() > 0 ? 1 - (double) facts.memoryAvailable() / facts.fileBytes() : 1;
    return new Reads(Units.percent(miss) + " of the images read from storage each epoch (" + Units.bytes(
        facts.fileBytes()) + " do not fit in the " + Units.bytes(Math.max(0, facts.memoryAvailable()))
        + " of memory available to the page cache)", -1, miss, storage.payloadsPerSecond() / miss,
        storage.payloadsPerSecond());
  }

  /** QUASI_RANDOM with a PROCESS cache, and a local copy, when storage can bound training. */
  List<Prescriber.Candidate> storageCandidates(OrderOption order, CacheChoice cache, Storage storage, Reads reads,
      boolean readThrough, double cpu) {
    List<Prescriber.Candidate> out = new ArrayList<>();
    if (Double.isInfinite(reads.steadyLimit())) {
      return out;
    }
    long memory = facts.memoryAvailable() > 0 ? facts.memoryAvailable() : DEFAULT_BUDGET * 2;
    long budget = facts.pageBytes() <= memory / 2 ? facts.pageBytes()
        : Math.max(facts.pageSize(), memory / 2 / facts.pageSize() * facts.pageSize());
    boolean already = order == OrderOption.QUASI_RANDOM && cache.isProcess() && cache.processBytes() >= budget;
    if (!already) {
      try {
        long[] r = pageReads(OrderOption.QUASI_RANDOM, budget);
        double steady = (double) r[1] / perEpoch();
        String now = cache.isProcess() ? Units.number(reads.pageReadsPerSample()) + " page reads"
            : readThrough ? "a payload read for every image" : Units.percent(reads.missFraction()) + " of payloads read";
        out.add(new Prescriber.Candidate("quasi_random_process", "QUASI_RANDOM with a " + Units.bytes(budget)
            + " process cache", ".order(OrderOption.QUASI_RANDOM).processCache(" + javaSize(budget) + ") (beton doctor --order"
            + " quasi_random --cache process:" + sizeFlag(budget) + ")", Double.NaN,
            limit(storage.pagesPerSecond(), steady), Units.number(steady) + " page reads per sample"
                + (budget >= facts.pageBytes() ? " after the first epoch (the cache holds the whole dataset)" : "")
                + " instead of " + now + ", computed from the epochs' order; whole pages read at "
                + Units.bandwidth(storage.pageBytesPerSecond())));
      } catch (IllegalArgumentException e) {
        // a budget too small for one batch of QUASI_RANDOM: no such candidate
      }
    }
    if (readThrough || facts.networkFileSystem()) {
      out.add(new Prescriber.Candidate("local_copy", "a local copy of the dataset (" + Units.bytes(facts.fileBytes())
          + ")", "copy it to a local disk" + (facts.fitsInMemory() ? " or to /dev/shm (" + Units.bytes(
              facts.memoryAvailable()) + " of memory available)" : "") + " and open the copy", Double.NaN,
          Double.POSITIVE_INFINITY, "to feed the " + Units.rate(cpu) + " the CPUs deliver, the copy must read "
              + Units.bandwidth(cpu * facts.meanPayload()) + " (" + (readThrough ? "the loader reads through a source"
              : "the files are on " + facts.fileSystem()) + ")"));
    }
    return out;
  }

  private int perEpoch() {
    return (int) (facts.samples() / batch * batch);
  }

  /** Pages read in epochs 0 and 1 with {@code order} and a PROCESS cache of {@code budget} bytes. */
  private long[] pageReads(OrderOption order, long budget) {
    if (pages == null) {
      pages = shards.pageMap();
    }
    int[] all = new int[(int) facts.samples()];
    Arrays.setAll(all, i -> i);
    var traversal = order.create(new OrderContext(all, seed, batch, () -> pages));
    List<int[]> epochs = List.of(Arrays.copyOf(traversal.globalOrder(0), perEpoch()),
        Arrays.copyOf(traversal.globalOrder(1), perEpoch()));
    int slots = (int) Math.max(1, Math.min(Integer.MAX_VALUE, budget / facts.pageSize()));
    return PageReadModel.reads(pages, slots, batch, epochs);
  }

  private static double limit(double pagesPerSecond, double pagesPerSample) {
    return pagesPerSample == 0 ? Double.POSITIVE_INFINITY : pagesPerSecond / pagesPerSample;
  }

  static String flag(OrderOption order) {
    return order.name().toLowerCase(java.util.Locale.ROOT);
  }

  /** A size as Java code writes it: {@code 4L << 30}, {@code 96L << 20}, or bytes. */
  static String javaSize(long bytes) {
    if (bytes % (1L << 30) == 0) {
      return (bytes >> 30) + "L << 30";
    }
    return bytes % (1L << 20) == 0 ? (bytes >> 20) + "L << 20" : bytes + "L";
  }

  /** A size as the command line takes it: {@code 4G}, {@code 96M}, or bytes. */
  static String sizeFlag(long bytes) {
    if (bytes % (1L << 30) == 0) {
      return (bytes >> 30) + "G";
    }
    return bytes % (1L << 20) == 0 ? (bytes >> 20) + "M" : Long.toString(bytes);
  }
}
