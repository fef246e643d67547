package org.sparkbeton.loader.doctor;

import java.util.ArrayList;
import java.util.List;
import org.sparkbeton.loader.doctor.Diagnosis.Reads;
import org.sparkbeton.loader.doctor.Diagnosis.Remote;

/**
 * Storage for a remote dataset: shards are downloaded into the loader's cache, so what storage feeds is the store's
 * read throughput with the loader's concurrent downloads over the shards' bytes per sample. A cache that holds the
 * dataset downloads it in the first epoch only; a smaller one downloads the share that does not fit again each
 * epoch (the shard window visits the shards in a fresh random order). The remedies: a cache that holds the dataset
 * ({@code cacheBytes}), more concurrent downloads (measured at twice as many), or a local copy.
 */
final class RemoteModel {
  private RemoteModel() {}

  static double bytesPerSample(DatasetFacts facts, Remote r) {
    return (double) r.datasetBytes() / facts.samples();
  }

  static Reads reads(DatasetFacts facts, Remote r) {
    double staging = r.stagingPerSecond();
    String feeds = "staging feeds " + Units.rate(staging) + " (" + Units.bandwidth(r.bytesPerSecond()) + " from the"
        + " store with " + downloads(r.downloads()) + ")";
    if (r.fits()) {
      return new Reads("the shard cache (" + Units.bytes(r.budget()) + " in " + r.cacheDir() + ") holds the dataset ("
          + Units.bytes(r.datasetBytes()) + "): shards are downloaded in the first epoch only; " + feeds, -1, 0,
          Double.POSITIVE_INFINITY, staging);
    }
    double miss = miss(r);
    return new Reads(Units.percent(miss) + " of the shards downloaded again each epoch: the dataset ("
        + Units.bytes(r.datasetBytes()) + ") does not fit the shard cache budget of " + Units.bytes(r.budget())
        + " (random orders read it through a shard window); " + feeds, -1, miss, staging / miss, staging);
  }

  static double miss(Remote r) {
    return Math.max(0, Math.min(1, 1 - (double) r.budget() / r.datasetBytes()));
  }

  static List<Prescriber.Candidate> candidates(Remote r, Reads reads) {
    List<Prescriber.Candidate> out = new ArrayList<>();
    if (!r.fits()) {
      long size = (r.datasetBytes() + (1L << 20) - 1) >> 20 << 20;
      String room = r.usableBytes() < 0 ? "" : "; " + r.cacheDir() + " has " + Units.bytes(r.usableBytes())
          + " usable" + (r.usableBytes() < size ? ", less than the dataset: put the cache on a larger disk"
              + " (.cacheDir, --cache-dir)" : "");
      out.add(new Prescriber.Candidate("cache_bytes", "a shard cache that holds the dataset (" + Units.bytes(size)
          + ")", ".cacheBytes(" + ReadModel.javaSize(size) + ") (beton doctor --cache-bytes "
          + ReadModel.sizeFlag(size) + ")", Double.NaN, Double.POSITIVE_INFINITY, "shards downloaded in the first"
          + " epoch only instead of " + Units.percent(miss(r)) + " of them each epoch" + room));
    }
    if (!Double.isInfinite(reads.steadyLimit())) {
      double gain = r.moreBytesPerSecond() / r.bytesPerSecond();
      out.add(new Prescriber.Candidate("more_downloads", downloads(r.moreDownloads()) + " at once instead of "
          + r.downloads(), ".downloads(" + r.moreDownloads() + ") (beton doctor --downloads " + r.moreDownloads() + ")",
          Double.NaN, reads.steadyLimit() * gain, "the store read " + Units.bandwidth(r.bytesPerSecond()) + " with "
              + downloads(r.downloads()) + " and " + Units.bandwidth(r.moreBytesPerSecond()) + " with "
              + r.moreDownloads() + ", measured"));
      out.add(new Prescriber.Candidate("local_copy", "a local copy of the dataset (" + Units.bytes(r.datasetBytes())
          + ")", "hadoop fs -copyToLocal " + r.uri() + " /local/disk/dataset, then name the copy", Double.NaN,
          Double.POSITIVE_INFINITY, "the loader reads a local copy in place: no downloads"));
    }
    return out;
  }

  /**
   * Storage in the first epoch, when the cache is cold: "not your bottleneck" when staging outruns what the CPUs
   * deliver, else how long the first epoch waits and what would shorten it.
   */
  static String firstEpoch(Remote r, double cpu) {
    double staging = r.stagingPerSecond();
    if (staging >= cpu) {
      return "storage is not your bottleneck: staging feeds " + Units.rate(staging) + " (" + Units.bandwidth(
          r.bytesPerSecond()) + " with " + downloads(r.downloads()) + "), " + Units.times(staging / cpu) + " the "
          + Units.rate(cpu) + " the CPUs deliver, so even the first epoch (a cold cache) does not wait for downloads";
    }
    return "the first epoch (a cold cache) waits for downloads: staging feeds " + Units.rate(staging) + " ("
        + Units.bandwidth(r.bytesPerSecond()) + " with " + downloads(r.downloads()) + ") of the " + Units.rate(cpu)
        + " the CPUs deliver; " + downloads(r.moreDownloads()) + " read " + Units.bandwidth(r.moreBytesPerSecond())
        + " (--downloads " + r.moreDownloads() + ", .downloads(" + r.moreDownloads() + ")), a local copy needs none"
        + (r.fits() ? "; later epochs read the cache" : "");
  }

  static String downloads(int n) {
    return n == 1 ? "1 download" : n + " downloads";
  }
}
