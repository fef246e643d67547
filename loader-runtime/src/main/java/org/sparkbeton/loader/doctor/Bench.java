package org.sparkbeton.loader.doctor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.Counts;
import org.sparkbeton.format.fields.ImageMode;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.loader.Batch;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.LoaderBuilder;
import org.sparkbeton.loader.bench.DecodeLimit;
import org.sparkbeton.loader.bench.Throughput;
import org.sparkbeton.loader.io.Shards;
import org.sparkbeton.loader.pipeline.Decoder;
import org.sparkbeton.loader.store.RangedDataset;

/**
 * {@code beton bench}: the loader's throughput on a dataset for one of the doctor's pipelines, epoch by epoch, with
 * the loader's own attribution of its workers' time (profiled: two clock reads per sample); optionally the decode
 * limit of the same crops ({@link DecodeLimit}), measured right after each loader epoch so that both see the
 * machine in the same state.
 */
public final class Bench {
  private Bench() {}

  public static BenchReport run(BenchOptions o) throws IOException {
    LocalDataset dataset = null;
    RangedDataset remote = null;
    if (o.remote != null) {
      if (o.cache.isProcess()) {
        throw new IllegalArgumentException("--cache " + o.cache + ": a remote dataset is staged into the shard cache"
            + " and read from there through the OS page cache; size the shard cache with --cache-bytes");
      }
      remote = RangedDataset.open(o.remote.open());
      try {
        o.remote.checkBudget(remote);
      } catch (RuntimeException e) {
        remote.close();
        throw e;
      }
    } else {
      dataset = LocalDataset.open(o.dataset);
    }
    DatasetFacts facts;
    int field;
    int[] subset;
    DecodeLimit.Images images = null;
    String limitNote = null;
    String staging = null;
    try (java.io.Closeable closing = remote != null ? remote : dataset) {
      Shards shards = remote != null ? remote.shards() : dataset.shards();
      field = DatasetFacts.imageField(shards.reader(0));
      if (remote != null) {
        java.net.URI uri = remote.uri();
        facts = DatasetFacts.of(uri.toString(), remote.names(), shards, uri.getScheme() + "://"
            + (uri.getAuthority() == null ? "" : uri.getAuthority()));
        staging = "shard cache " + Units.bytes(o.remote.budget(remote.totalBytes())) + " in " + o.remote.cacheDir()
            + " for the dataset's " + Units.bytes(remote.totalBytes()) + ", " + RemoteModel.downloads(
                o.remote.downloads()) + " at once";
      } else {
        facts = DatasetFacts.of(o.dataset.toString(), dataset.files(), shards);
      }
      if (facts.samples() == 0) {
        throw new IllegalArgumentException(facts.name() + " has no samples");
      }
      if (o.pipeline == DoctorPipeline.SIMPLE && !facts.sameSize()) {
        throw new IllegalArgumentException("--pipeline simple decodes images as stored, so they must all have one"
            + " size, but the images of " + facts.name() + " do not; use --pipeline rrc224 or center224");
      }
      int n = o.samples == 0 ? (int) facts.samples() : (int) Math.min(o.samples, facts.samples());
      subset = Doctor.sample(facts.samples(), n, o.seed);
      if (o.decodeLimit) {
        images = jpegs(shards, field, subset);
        if (images == null) {
          limitNote = "not measured: the decode limit is the codec's, and some of the samples are stored raw";
        }
      }
    }
    int batch = batch(o, subset.length);
    List<BenchReport.Epoch> epochs = new ArrayList<>();
    List<DecodeLimit.Rate> limits = new ArrayList<>();
    Decoder decoder = o.pipeline.decoder();
    StagingMeter meter = new StagingMeter();
    LoaderBuilder b = (o.remote != null ? o.remote.builder(meter) : dataset.loader().readThrough(o.opener))
        .batchSize(batch).numThreads(o.threads).order(o.order).seed(o.seed)
        .indices(subset).profile(true)
        .pipeline("image", facts.imageField(), decoder, o.pipeline.operations(true));
    long wall = System.nanoTime();
    long cpu = Throughput.processCpuNanos();
    try (Loader loader = o.cache.apply(b).build()) {
      for (int e = 0; e < o.epochs; e++) {
        long images0 = 0;
        for (Batch batchOut : loader) {
          images0 += batchOut.size();
        }
        long now = System.nanoTime();
        long cpuNow = Throughput.processCpuNanos();
        epochs.add(new BenchReport.Epoch(images0, now - wall, cpuNow - cpu, loader.timings()));
        if (images != null) {
          DecodeLimit.Rate r = limit(images, o, decoder, e);
          if (e > 0) {
            limits.add(r);
          }
        }
        wall = System.nanoTime();
        cpu = Throughput.processCpuNanos();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted while measuring the decode limit", e);
    }
    return new BenchReport(facts, o.pipeline, o.threads, batch, o.order.name(), o.cache, JpegCodecs.description(),
        Runtime.getRuntime().availableProcessors(), Throughput.loadAverage(), subset.length, List.copyOf(epochs),
        List.copyOf(limits), limitNote, staging, staging == null ? null : meter.snapshot());
  }

  private static int batch(BenchOptions o, int samples) {
    if (o.batch == 0) {
      return Math.min(DoctorOptions.DEFAULT_BATCH, samples);
    }
    if (o.batch > samples) {
      throw new IllegalArgumentException("--batch " + o.batch + " is larger than the " + Counts.of(samples, "sample")
          + " per epoch (--samples)");
    }
    return o.batch;
  }

  /** The bare codec on epoch {@code epoch}'s crops, the loader's threads; the first call also warms it up. */
  private static DecodeLimit.Rate limit(DecodeLimit.Images images, BenchOptions o, Decoder decoder, int epoch)
      throws InterruptedException {
    int side = o.pipeline.side();
    return DecodeLimit.epoch(images, o.pipeline.crop(decoder), side, side, o.seed, o.threads, epoch);
  }

  /** The subset's JPEG payloads copied to direct memory, or null when any of them is stored raw. */
  private static DecodeLimit.Images jpegs(Shards shards, int field, int[] subset) {
    List<byte[]> jpegs = new ArrayList<>();
    int[][] sizes = new int[subset.length][];
    for (int i = 0; i < subset.length; i++) {
      int s = shards.shardOf(subset[i]);
      BetonReader r = shards.reader(s);
      RgbImage img = (RgbImage) r.value(subset[i] - shards.start(s), field);
      if (img.mode() != ImageMode.JPG) {
        return null;
      }
      ByteBuffer p = img.payload().duplicate();
      byte[] bytes = new byte[p.remaining()];
      p.get(bytes);
      jpegs.add(bytes);
      sizes[i] = new int[] {img.width(), img.height()};
    }
    return DecodeLimit.Images.of(jpegs, sizes, subset);
  }
}
