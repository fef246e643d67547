package org.sparkbeton.loader.doctor;

import java.nio.file.Path;
import java.util.Objects;
import org.sparkbeton.loader.io.SourceOpener;
import org.sparkbeton.loader.order.OrderOption;

/** What {@code beton doctor} measures and how long; every option has the command's default. */
public final class DoctorOptions {
  /** The "about 20 s". */
  public static final double DEFAULT_SECONDS = 20;
  /** Samples re-encoded in memory for the predictions (and the CPU measurements). */
  public static final int DEFAULT_SAMPLE = 200;
  /** The batch size when none is given (or the dataset's size when smaller). */
  public static final int DEFAULT_BATCH = 256;
  /** The longer side the resize prediction stores images at ({@code beton prepare}'s default). */
  public static final int PREPARE_MAX_RESOLUTION = 256;

  final Path dataset;
  DoctorPipeline pipeline = DoctorPipeline.RRC224;
  int threads = Runtime.getRuntime().availableProcessors();
  int batch;
  ConsumerDemand consumer;
  CacheChoice cache = CacheChoice.OS;
  OrderOption order = OrderOption.RANDOM;
  double seconds = DEFAULT_SECONDS;
  int sample = DEFAULT_SAMPLE;
  SourceOpener opener;
  Path workDir;
  long seed;

  final RemoteOptions remote;

  public DoctorOptions(Path dataset) {
    this.dataset = Objects.requireNonNull(dataset, "dataset");
    this.remote = null;
  }

  /** A remote dataset ({@code hdfs://}, {@code s3a://}, ...), staged as the loader stages it. */
  public DoctorOptions(RemoteOptions remote) {
    this.dataset = null;
    this.remote = Objects.requireNonNull(remote, "remote");
  }

  public DoctorOptions pipeline(DoctorPipeline pipeline) {
    this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
    return this;
  }

  /** Loader threads; default the available processors. */
  public DoctorOptions threads(int threads) {
    check(threads >= 1, "--threads must be >= 1, got " + threads);
    this.threads = threads;
    return this;
  }

  /** Batch size; 0 (the default) takes 256, or the dataset's sample count when smaller. */
  public DoctorOptions batch(int batch) {
    check(batch >= 0, "--batch must be >= 1, got " + batch);
    this.batch = batch;
    return this;
  }

  /** The training step's demand; null (the default): the loader is measured alone. */
  public DoctorOptions consumer(ConsumerDemand consumer) {
    this.consumer = consumer;
    return this;
  }

  public DoctorOptions cache(CacheChoice cache) {
    this.cache = Objects.requireNonNull(cache, "cache");
    return this;
  }

  public DoctorOptions order(OrderOption order) {
    this.order = Objects.requireNonNull(order, "order");
    return this;
  }

  /** About how long to measure (the sample's re-encoding comes on top); default 20. */
  public DoctorOptions seconds(double seconds) {
    check(seconds > 0 && seconds <= 3600, "--seconds must be in (0, 3600], got " + seconds);
    this.seconds = seconds;
    return this;
  }

  /** How many samples to re-encode and measure CPU work on; default 200. */
  public DoctorOptions sample(int sample) {
    check(sample >= 1, "--sample must be >= 1, got " + sample);
    this.sample = sample;
    return this;
  }

  /**
   * Reads the dataset's payloads through these sources (as the loader's {@code readThrough}) instead of the local
   * files: a remote store, or a test's throttled reader. Storage is then measured through them too.
   */
  public DoctorOptions readThrough(SourceOpener opener) {
    this.opener = opener;
    return this;
  }

  /** Where the re-encoded sample goes; default {@code /dev/shm} when it exists, else the temporary folder. */
  public DoctorOptions workDir(Path workDir) {
    this.workDir = workDir;
    return this;
  }

  /** Seed of the orders, the sample and the augmentations; default 0. */
  public DoctorOptions seed(long seed) {
    this.seed = seed;
    return this;
  }

  private static void check(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }
}
