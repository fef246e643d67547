package org.sparkbeton.loader.doctor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.format.Counts;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.LoaderBuilder;
import org.sparkbeton.loader.LoaderFailedException;
import org.sparkbeton.loader.bench.Throughput;
import org.sparkbeton.loader.doctor.Diagnosis.EndToEnd;
import org.sparkbeton.loader.doctor.Diagnosis.Measured;
import org.sparkbeton.loader.doctor.Diagnosis.PerThread;
import org.sparkbeton.loader.doctor.Diagnosis.Reads;
import org.sparkbeton.loader.doctor.Diagnosis.Setup;
import org.sparkbeton.loader.doctor.Diagnosis.Storage;
import org.sparkbeton.loader.doctor.LoaderMeter.Span;
import org.sparkbeton.loader.doctor.SampleSet.Variant;
import org.sparkbeton.loader.io.Shards;
import org.sparkbeton.loader.store.RangedDataset;

/**
 * The Bottleneck Doctor: measures each resource a training loop draws on, on its own, then says which one bounds
 * training and what to change ({@link Prescriber}). In order, within about {@code seconds}:
 * <ol>
 *   <li>storage read throughput on data not in the page cache ({@link StorageProbe}, 10% of the time);</li>
 *   <li>decode and augment throughput per thread, on one thread, over a sample of the dataset held in memory, next
 *       to the same sample re-encoded as {@code beton prepare} would store it with other settings, epochs
 *       alternating so that the machine's drift cancels in the ratios ({@link SampleSet}, {@link CpuMeasurements},
 *       35%);</li>
 *   <li>the whole pipeline at the chosen threads, and at every core when fewer were chosen (15%);</li>
 *   <li>the loader over the dataset itself with the chosen order, cache and consumer (25%);</li>
 * </ol>
 * Each part runs at least one round, so a slow machine or a large sample can take longer than asked.
 * and computes page reads per sample for the chosen order and cache and for the alternatives
 * ({@link org.sparkbeton.loader.io.PageReadModel}).
 */
public final class Doctor {
  /** Percent of {@code seconds} for each part; the rest is for re-encoding the sample. */
  static final int SHARE_STORAGE = 10;
  static final int SHARE_ONE_THREAD = 35;
  static final int SHARE_THREADS = 15;
  static final int SHARE_END_TO_END = 25;

  private final DoctorOptions o;
  private final long nanos;

  private Doctor(DoctorOptions options) {
    this.o = options;
    this.nanos = (long) (options.seconds * 1e9);
  }

  /** Measures and diagnoses; bad input (an unreadable dataset, options that do not fit it) throws with one line. */
  public static Diagnosis diagnose(DoctorOptions options) throws IOException {
    return new Doctor(options).run();
  }

  private Diagnosis run() throws IOException {
    if (o.remote != null) {
      return runRemote();
    }
    long start = System.nanoTime();
    try (LocalDataset dataset = LocalDataset.open(o.dataset)) {
      List<Path> files = dataset.files();
      Shards shards = dataset.shards();
      int field = DatasetFacts.imageField(shards.reader(0));
      DatasetFacts facts = DatasetFacts.of(o.dataset.toString(), files, shards);
      int batch = batch(facts);
      checkPipeline(facts);
      ReadModel model = new ReadModel(facts, shards, batch, o.seed);
      model.check(o.order, o.cache); // a PROCESS budget too small for one batch: say so before measuring

      Storage storage = storage(shards, files, field);
      Reads reads = model.reads(o.order, o.cache, storage, o.opener != null);

      CpuMeasurements.Result cpu = measureCpu(shards, field, facts, reads.steadyLimit());
      PerThread perThread = cpu.perThread();
      double pipeline = cpu.pipeline();
      List<Prescriber.Candidate> candidates = new ArrayList<>(cpu.candidates());
      candidates.addAll(model.storageCandidates(o.order, o.cache, storage, reads, o.opener != null, pipeline));
      EndToEnd endToEnd = endToEnd(dataset.loader().readThrough(o.opener), batch, facts.imageField());
      double consumer = o.consumer == null ? Double.POSITIVE_INFINITY : o.consumer.rate(batch);
      double predicted = Math.min(pipeline, Math.min(reads.steadyLimit(), consumer));
      Setup setup = new Setup(facts, o.pipeline, o.threads, batch, o.order.name(), o.cache, o.consumer,
          o.opener != null, JpegCodecs.description(), Runtime.getRuntime().availableProcessors(),
          Throughput.loadAverage());
      Measured measured = new Measured(storage, reads, perThread, pipeline, consumer, endToEnd, predicted,
          (System.nanoTime() - start) / 1e9);
      return Prescriber.prescribe(setup, measured, candidates);
    }
  }

  private int batch(DatasetFacts facts) {
    if (facts.samples() == 0) {
      throw new IllegalArgumentException(facts.name() + " has no samples");
    }
    if (o.batch == 0) {
      return (int) Math.min(DoctorOptions.DEFAULT_BATCH, facts.samples());
    }
    if (o.batch > facts.samples()) {
      throw new IllegalArgumentException("--batch " + o.batch + " is larger than the "
          + Counts.of(facts.samples(), "sample") + " of " + facts.name());
    }
    return o.batch;
  }

  private void checkPipeline(DatasetFacts facts) {
    if (o.pipeline == DoctorPipeline.SIMPLE && !facts.sameSize()) {
      throw new IllegalArgumentException("--pipeline simple decodes images as stored, so they must all have one"
          + " size, but the images of " + facts.name() + " do not; use --pipeline rrc224 or center224");
    }
  }

  /**
   * The CPU measurements (per thread, the pipeline at --threads, the CPU remedies) on a random sample of the
   * dataset's images held in memory: as stored, RESIZED where the images are large, PROPORTION where most are JPEG.
   * {@code storageLimit} is the storage limit a variant's bytes scale.
   */
  private CpuMeasurements.Result measureCpu(Shards shards, int field, DatasetFacts facts, double storageLimit)
      throws IOException {
    int[] sample = sample(facts.samples(), o.sample, o.seed);
    boolean resize = o.pipeline.crops() && facts.medianSide() > 1.25 * DoctorOptions.PREPARE_MAX_RESOLUTION;
    int maxResolution = resize ? DoctorOptions.PREPARE_MAX_RESOLUTION : Math.max(1, facts.maxSide());
    List<Variant> variants = new ArrayList<>(List.of(Variant.STORED));
    if (resize) {
      variants.add(Variant.RESIZED);
    }
    if (facts.jpegFraction() >= 0.5) {
      variants.add(Variant.PROPORTION);
    }
    try (SampleSet set = SampleSet.write(shards, field, sample, workDir(), maxResolution, variants, o.threads)) {
      try {
        return new CpuMeasurements(o, nanos, set).measure(maxResolution, resize, storageLimit);
      } catch (LoaderFailedException e) {
        throw set.ofDataset(e, shards, facts.name());
      }
    }
  }

  private Storage storage(Shards shards, List<Path> files, int field) throws IOException {
    StorageProbe.Result r = StorageProbe.measure(shards, files, field, o.opener, o.threads,
        nanos * SHARE_STORAGE / 100, o.seed);
    long pageSize = shards.reader(0).pageSize();
    return new Storage(r.method(), r.uncached(), r.pageBytesPerSecond() / pageSize, r.pageBytesPerSecond(),
        r.payloadsPerSecond(), r.payloadBytesPerSecond());
  }

  /**
   * A remote dataset: its metadata and the CPU sample by ranged reads of the store, storage as the store's streamed
   * read throughput with the loader's downloads (and twice as many), the end-to-end run through the loader's
   * staging into the shard cache.
   */
  private Diagnosis runRemote() throws IOException {
    long start = System.nanoTime();
    RemoteOptions r = o.remote;
    if (o.cache.isProcess()) {
      throw new IllegalArgumentException("--cache " + o.cache + ": a remote dataset is staged into the shard cache"
          + " and read from there through the OS page cache; size the shard cache with --cache-bytes");
    }
    try (RangedDataset ds = RangedDataset.open(r.open())) {
      r.checkBudget(ds);
      Shards shards = ds.shards();
      int field = DatasetFacts.imageField(shards.reader(0));
      java.net.URI uri = ds.uri();
      DatasetFacts facts = DatasetFacts.of(uri.toString(), ds.names(), shards, uri.getScheme() + "://"
          + (uri.getAuthority() == null ? "" : uri.getAuthority()));
      int batch = batch(facts);
      checkPipeline(facts);
      RemoteStorageProbe.Result probe = RemoteStorageProbe.measure(ds, r.downloads(),
          Math.max(RemoteStorageProbe.MIN_NANOS, nanos * SHARE_STORAGE / 100), o.seed);
      long total = ds.totalBytes();
      double perSample = (double) total / facts.samples();
      long budget = r.budget(total);
      Diagnosis.Remote remote = new Diagnosis.Remote(uri.toString(), r.cacheDir().toString(), budget, total,
          r.usableBytes(), r.downloads(), probe.bytesPerSecond(), probe.moreStreams(), probe.moreBytesPerSecond(),
          probe.bytesPerSecond() / perSample, null);
      Storage storage = new Storage("streamed reads of the store, " + RemoteModel.downloads(r.downloads())
          + " at once (as the loader downloads shards)", true, probe.bytesPerSecond() / facts.pageSize(),
          probe.bytesPerSecond(), remote.stagingPerSecond(), probe.bytesPerSecond());
      Reads reads = RemoteModel.reads(facts, remote);

      CpuMeasurements.Result cpu = measureCpu(shards, field, facts, reads.steadyLimit());
      PerThread perThread = cpu.perThread();
      double pipeline = cpu.pipeline();
      List<Prescriber.Candidate> candidates = new ArrayList<>(cpu.candidates());
      candidates.addAll(RemoteModel.candidates(remote, reads));
      StagingMeter meter = new StagingMeter();
      EndToEnd endToEnd = endToEnd(r.builder(meter), batch, facts.imageField());
      remote = new Diagnosis.Remote(remote.uri(), remote.cacheDir(), remote.budget(), remote.datasetBytes(),
          remote.usableBytes(), remote.downloads(), remote.bytesPerSecond(), remote.moreDownloads(),
          remote.moreBytesPerSecond(), remote.stagingPerSecond(), meter.snapshot());
      double consumer = o.consumer == null ? Double.POSITIVE_INFINITY : o.consumer.rate(batch);
      double predicted = Math.min(pipeline, Math.min(reads.steadyLimit(), consumer));
      Setup setup = new Setup(facts, o.pipeline, o.threads, batch, o.order.name(), o.cache, o.consumer, false,
          JpegCodecs.description(), Runtime.getRuntime().availableProcessors(), Throughput.loadAverage());
      Measured measured = new Measured(storage, reads, perThread, pipeline, consumer, endToEnd, predicted,
          (System.nanoTime() - start) / 1e9, remote);
      Diagnosis d = Prescriber.prescribe(setup, measured, candidates);
      List<String> notWorth = new ArrayList<>();
      notWorth.add(RemoteModel.firstEpoch(remote, pipeline));
      for (String n : d.notWorthChanging()) {
        if (!n.startsWith("storage: ")) { // said above, with the first epoch
          notWorth.add(n);
        }
      }
      return new Diagnosis(d.setup(), d.measured(), d.bound(), d.changes(), List.copyOf(notWorth));
    }
  }

  /** {@code count} distinct random samples (all when the dataset is smaller), ascending. */
  static int[] sample(long samples, int count, long seed) {
    int n = (int) Math.min(samples, count);
    int[] all = new int[(int) samples];
    Arrays.setAll(all, i -> i);
    SplittableRandom r = new SplittableRandom(seed ^ 0x5DEECE66DL);
    for (int i = 0; i < n; i++) { // partial Fisher-Yates
      int j = i + r.nextInt(all.length - i);
      int t = all[i];
      all[i] = all[j];
      all[j] = t;
    }
    int[] out = Arrays.copyOf(all, n);
    Arrays.sort(out);
    return out;
  }

  private Path workDir() throws IOException {
    if (o.workDir != null) {
      return Files.createDirectories(o.workDir);
    }
    Path shm = Path.of("/dev/shm");
    return Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
  }

  /** The loader over the dataset itself, with the options as given, behind the consumer. */
  private EndToEnd endToEnd(LoaderBuilder dataset, int batch, String name) throws IOException {
    LoaderBuilder b = dataset.batchSize(batch).numThreads(o.threads).order(o.order).seed(o.seed)
        .pipeline("image", name, o.pipeline.decoder(), o.pipeline.operations(true));
    try (Loader loader = o.cache.apply(b).build()) {
      long step = o.consumer == null ? 0 : o.consumer.nanosPerBatch(batch);
      Span s = LoaderMeter.run(loader, nanos * SHARE_END_TO_END / 100, step);
      double seconds = s.wallNanos() / 1e9;
      return new EndToEnd(seconds, s.images(), s.rate(),
          Math.min(1, s.timings().consumerWait() / (double) s.wallNanos()),
          o.cache.isProcess() ? (double) s.pagesRead() / Math.max(1, s.images()) : -1);
    }
  }
}
