package org.sparkbeton.loader.doctor;

import java.nio.file.Path;
import java.util.Objects;
import org.sparkbeton.loader.io.SourceOpener;
import org.sparkbeton.loader.order.OrderOption;

/** What {@code beton bench} runs; every option has the command's default. */
public final class BenchOptions {
  public static final int DEFAULT_EPOCHS = 5;
  /** Samples per epoch when none is given: enough for stable figures, few enough for a laptop's minute. */
  public static final int DEFAULT_SAMPLES = 4096;

  final Path dataset;
  DoctorPipeline pipeline = DoctorPipeline.RRC224;
  int threads = Runtime.getRuntime().availableProcessors();
  int batch;
  int epochs = DEFAULT_EPOCHS;
  int samples = DEFAULT_SAMPLES;
  OrderOption order = OrderOption.RANDOM;
  CacheChoice cache = CacheChoice.OS;
  boolean decodeLimit;
  long seed;
  SourceOpener opener;

  final RemoteOptions remote;

  public BenchOptions(Path dataset) {
    this.dataset = Objects.requireNonNull(dataset, "dataset");
    this.remote = null;
  }

  /** A remote dataset ({@code hdfs://}, {@code s3a://}, ...), staged as the loader stages it. */
  public BenchOptions(RemoteOptions remote) {
    this.dataset = null;
    this.remote = Objects.requireNonNull(remote, "remote");
  }

  public BenchOptions pipeline(DoctorPipeline pipeline) {
    this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
    return this;
  }

  public BenchOptions threads(int threads) {
    check(threads >= 1, "--threads must be >= 1, got " + threads);
    this.threads = threads;
    return this;
  }

  /** Batch size; 0 (the default) takes 256, or the samples per epoch when fewer. */
  public BenchOptions batch(int batch) {
    check(batch >= 0, "--batch must be >= 1, got " + batch);
    this.batch = batch;
    return this;
  }

  /** Epochs to run, the first counted apart; at least 2. */
  public BenchOptions epochs(int epochs) {
    check(epochs >= 2, "--epochs must be >= 2 (epoch 1 is reported apart from the rest), got " + epochs);
    this.epochs = epochs;
    return this;
  }

  /** Samples per epoch, a random subset of the dataset; 0 reads all. */
  public BenchOptions samples(int samples) {
    check(samples >= 0, "--samples must be >= 0 (0: all), got " + samples);
    this.samples = samples;
    return this;
  }

  public BenchOptions order(OrderOption order) {
    this.order = Objects.requireNonNull(order, "order");
    return this;
  }

  public BenchOptions cache(CacheChoice cache) {
    this.cache = Objects.requireNonNull(cache, "cache");
    return this;
  }

  /** Also decode the same crops with the bare codec, each epoch next to the loader's, for the decode limit. */
  public BenchOptions decodeLimit(boolean decodeLimit) {
    this.decodeLimit = decodeLimit;
    return this;
  }

  public BenchOptions seed(long seed) {
    this.seed = seed;
    return this;
  }

  /** Reads payloads through these sources (the loader's {@code readThrough}). */
  public BenchOptions readThrough(SourceOpener opener) {
    this.opener = opener;
    return this;
  }

  private static void check(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }
}
