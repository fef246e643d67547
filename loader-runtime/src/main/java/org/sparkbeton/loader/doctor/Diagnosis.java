package org.sparkbeton.loader.doctor;

import java.util.List;

/**
 * What {@code beton doctor} measured, which resource bounds training and by how much, the changes ranked by
 * predicted gain and what is not worth changing. {@link DiagnosisText} and {@link DiagnosisJson} print it.
 */
public record Diagnosis(Setup setup, Measured measured, Bound bound, List<Change> changes,
                        List<String> notWorthChanging) {

  /** The resources that can bound training. */
  public enum Resource {
    STORAGE("storage"), DECODE("image decode"), AUGMENT("augmentation"), CONSUMER("the consumer (your training step)");

    private final String words;

    Resource(String words) {
      this.words = words;
    }

    /** For sentences: "storage", "JPEG decode" is said by {@link Bound#resourceWords}. */
    public String words() {
      return words;
    }
  }

  /**
   * What was diagnosed with which settings.
   *
   * @param consumer null when no demand was given (the loader is diagnosed alone)
   * @param codec the JPEG codec the loader decodes with
   * @param cores available processors
   * @param loadAverage the system's load average when the run ended (negative where unknown)
   */
  public record Setup(DatasetFacts dataset, DoctorPipeline pipeline, int threads, int batch, String order,
                      CacheChoice cache, ConsumerDemand consumer, boolean readThrough, String codec, int cores,
                      double loadAverage) {}

  /**
   * Storage read throughput on data not in the page cache (see {@link StorageProbe}).
   *
   * @param pagesPerSecond whole data pages per second, one reader
   * @param payloadsPerSecond single images' payloads per second, at random, on the loader's threads
   */
  public record Storage(String method, boolean uncached, double pagesPerSecond, double pageBytesPerSecond,
                       double payloadsPerSecond, double payloadBytesPerSecond) {}

  /**
   * How often training reads storage with the chosen order and cache, and what storage can then feed.
   *
   * @param description in words, e.g. "0.12 page reads per sample (QUASI_RANDOM, PROCESS cache of 4 GiB)"
   * @param pageReadsPerSample PROCESS cache: data pages read per sample in a steady epoch; -1 in cache mode OS
   * @param missFraction the fraction of samples read from storage in a steady epoch
   * @param steadyLimit images/s storage can feed in a steady epoch (infinite when nothing is read)
   * @param firstEpochLimit images/s storage can feed in the first epoch (a cold cache)
   */
  public record Reads(String description, double pageReadsPerSample, double missFraction, double steadyLimit,
                      double firstEpochLimit) {}

  /**
   * CPU work per thread, measured on one thread over the sample in memory.
   *
   * @param samples the sample's size
   * @param decodePerSecond images/s one thread decodes (decode time only)
   * @param augmentPerSecond images/s one thread augments (the operations and the copy into the batch)
   * @param perSecond images/s one loader thread delivers (all of its work)
   * @param decodeShare decode's share of the worker's time
   * @param augmentShare augmentation's share of the worker's time
   */
  public record PerThread(int samples, double decodePerSecond, double augmentPerSecond, double perSecond,
                          double decodeShare, double augmentShare) {}

  /**
   * The run with the given order, cache and consumer over the dataset itself.
   *
   * @param perSecond images/s delivered to the consumer
   * @param waitedFraction the share of the time the consumer waited for batches
   * @param pageReadsPerSample PROCESS cache: pages read per image in the run; -1 in cache mode OS
   */
  public record EndToEnd(double seconds, long images, double perSecond, double waitedFraction,
                         double pageReadsPerSample) {}

  /**
   * @param pipelinePerSecond images/s the loader's CPU work delivers at the chosen threads (the sample in memory)
   * @param consumerPerSecond images/s the step consumes (infinite when no demand was given)
   * @param predictedPerSecond what training should get: the smallest of the three limits
   */
  public record Measured(Storage storage, Reads reads, PerThread perThread, double pipelinePerSecond,
                         double consumerPerSecond, EndToEnd endToEnd, double predictedPerSecond, double seconds,
                         Remote remote) {
    /** A local dataset's measurements (no remote store). */
    public Measured(Storage storage, Reads reads, PerThread perThread, double pipelinePerSecond,
        double consumerPerSecond, EndToEnd endToEnd, double predictedPerSecond, double seconds) {
      this(storage, reads, perThread, pipelinePerSecond, consumerPerSecond, endToEnd, predictedPerSecond, seconds,
          null);
    }
  }

  /**
   * A remote dataset's store and staging ({@code hdfs://}, {@code s3a://}, ...).
   *
   * @param cacheDir the shard cache directory
   * @param budget the cache budget the loader ran with
   * @param datasetBytes the shards' bytes
   * @param usableBytes the usable space of the cache directory's disk (-1 when unknown)
   * @param downloads shards downloaded at once
   * @param bytesPerSecond the store's read throughput with {@code downloads} streams
   * @param moreDownloads twice {@code downloads}
   * @param moreBytesPerSecond the store's read throughput with {@code moreDownloads} streams
   * @param stagingPerSecond images/s staging feeds at {@code bytesPerSecond} (the shards' bytes per sample)
   * @param endToEnd what the loader's staging did during the end-to-end run
   */
  public record Remote(String uri, String cacheDir, long budget, long datasetBytes, long usableBytes, int downloads,
                       double bytesPerSecond, int moreDownloads, double moreBytesPerSecond, double stagingPerSecond,
                       Staged endToEnd) {
    public boolean fits() {
      return datasetBytes <= budget;
    }
  }

  /**
   * What the loader's staging did during a run.
   *
   * @param downloaded shards downloaded from the store
   * @param fetchedBytes bytes they fetched
   * @param cached shards found complete in the cache
   * @param bytesPerSecond fetched bytes over the time from the first byte to the last completed download (0: none)
   */
  public record Staged(int downloaded, long fetchedBytes, int cached, int retries, double bytesPerSecond) {}

  /**
   * The resource with the lowest limit and the next one.
   *
   * @param perSecond the bound's limit: what training gets
   * @param nextPerSecond the next limit (infinite when there is none)
   */
  public record Bound(Resource resource, double perSecond, Resource next, double nextPerSecond, String summary) {
    /** How much the next limit is above the bound: the most any change of the bound alone can give. */
    public double headroom() {
      return nextPerSecond / perSecond;
    }
  }

  /**
   * One change, with its predicted effect on training.
   *
   * @param what the change in words ("store at maxResolution 256")
   * @param how the exact option or flag
   * @param predictedPerSecond what training would get
   * @param gain predicted over current
   * @param evidence what the prediction rests on ("measured on 200 samples re-encoded in memory")
   */
  public record Change(String id, String what, String how, double predictedPerSecond, double gain, String evidence) {}
}
