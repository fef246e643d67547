package org.sparkbeton.loader.doctor;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sparkbeton.format.Counts;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.LoaderBuilder;
import org.sparkbeton.loader.doctor.Diagnosis.PerThread;
import org.sparkbeton.loader.doctor.LoaderMeter.Span;
import org.sparkbeton.loader.doctor.SampleSet.Variant;
import org.sparkbeton.loader.order.OrderOption;

/**
 * The CPU side of the diagnosis, on the sample held in memory (no storage involved): decode and augmentation per
 * thread on one profiled thread, next to the sample's re-encoded variants and to the pipeline without
 * normalization, epochs alternating so that the machine's drift cancels in the ratios (35% of the time); then the
 * pipeline at the chosen threads and at every core when fewer were chosen (15%). Each measured change becomes a
 * {@link Prescriber.Candidate}.
 */
final class CpuMeasurements {
  private final DoctorOptions o;
  private final long nanos;
  private final SampleSet set;

  /** Per-thread work, the chosen threads' rate, and the changes measured on the sample. */
  record Result(PerThread perThread, double pipeline, List<Prescriber.Candidate> candidates) {}

  CpuMeasurements(DoctorOptions options, long nanos, SampleSet set) {
    this.o = options;
    this.nanos = nanos;
    this.set = set;
  }

  /** Measures; {@code storage} is the current storage limit, which a variant's bytes scale. */
  Result measure(int maxResolution, boolean resize, double storage) throws IOException {
    Map<String, List<Span>> one = oneThread();
    PerThread perThread = perThread(set.size(), one.get("stored"));
    Map<String, List<Span>> many = threads(perThread.perSecond());
    double cpu = rate(many.get("chosen"));
    List<Prescriber.Candidate> candidates = new ArrayList<>();
    String onSample = "measured on " + Counts.of(set.size(), "sample");
    if (set.has(Variant.RESIZED)) {
      candidates.add(variant(one, "resized", Variant.RESIZED, cpu, storage,
          "store at maxResolution " + maxResolution,
          "beton prepare --max-resolution " + maxResolution + " (writer option maxResolution)",
          onSample + " re-encoded in memory"));
    }
    if (set.has(Variant.PROPORTION)) {
      candidates.add(variant(one, "proportion", Variant.PROPORTION, cpu, storage,
          "store half of the images as raw pixels" + (resize ? " at maxResolution " + maxResolution : ""),
          "beton prepare --max-resolution " + maxResolution + " --mode proportion (writer options"
              + " writeMode=proportion, compressProbability=0.5)",
          onSample + " re-encoded in memory"));
    }
    candidates.add(uint8(one, cpu, onSample));
    if (many.containsKey("cores")) {
      int cores = Runtime.getRuntime().availableProcessors();
      double atCores = rate(many.get("cores"));
      candidates.add(new Prescriber.Candidate("threads", "threads " + o.threads + " → " + cores,
          "numThreads(" + cores + ") (beton doctor --threads " + cores + ")", atCores, Double.NaN,
          "measured on the sample: " + cores + " threads deliver " + Units.rate(atCores) + ", "
              + Units.times(atCores / cpu) + " what " + o.threads + " do; expect that if the machine has " + cores
              + " idle cores"));
    }
    return new Result(perThread, cpu, candidates);
  }

  /** The sample's loader: one file, every sample, RANDOM order, small batches so an epoch has several. */
  private LoaderBuilder sampleLoader(Path file, int samples, int threads, boolean normalize) {
    int batch = Math.max(1, Math.min(o.batch == 0 ? DoctorOptions.DEFAULT_BATCH : o.batch, samples / 4));
    return Loader.builder(file).batchSize(batch).numThreads(threads).batchesAhead(2).order(OrderOption.RANDOM)
        .seed(o.seed).pipeline("image", o.pipeline.decoder(), o.pipeline.operations(normalize));
  }

  /** One thread, profiled: the sample as stored, its variants, and without normalization; epochs alternating. */
  private Map<String, List<Span>> oneThread() throws IOException {
    Map<String, LoaderBuilder> builders = new LinkedHashMap<>();
    builders.put("stored", sampleLoader(set.file(Variant.STORED), set.size(), 1, true).profile(true));
    if (set.has(Variant.RESIZED)) {
      builders.put("resized", sampleLoader(set.file(Variant.RESIZED), set.size(), 1, true).profile(true));
    }
    if (set.has(Variant.PROPORTION)) {
      builders.put("proportion", sampleLoader(set.file(Variant.PROPORTION), set.size(), 1, true).profile(true));
    }
    builders.put("uint8", sampleLoader(set.file(Variant.STORED), set.size(), 1, false).profile(true));
    return alternate(builders, nanos * Doctor.SHARE_ONE_THREAD / 100, true);
  }

  /**
   * The chosen threads, and every core when fewer were chosen, on the sample repeated so that an epoch takes about
   * a sixth of this part's time at {@code oneThread} images/s per thread (starting an epoch's threads is then a
   * small part of it).
   */
  private Map<String, List<Span>> threads(double oneThread) throws IOException {
    int cores = Runtime.getRuntime().availableProcessors();
    double expected = oneThread * Math.min(o.threads, cores);
    int target = (int) Math.min(100_000, expected * (nanos * Doctor.SHARE_THREADS / 100 / 1e9) / 6);
    int[] repeated = new int[Math.max(set.size(), target / set.size() * set.size())];
    Arrays.setAll(repeated, i -> i % set.size());
    Map<String, LoaderBuilder> builders = new LinkedHashMap<>();
    builders.put("chosen", sampleLoader(set.file(Variant.STORED), repeated.length, o.threads, true).indices(repeated));
    if (o.threads < cores) {
      builders.put("cores", sampleLoader(set.file(Variant.STORED), repeated.length, cores, true).indices(repeated));
    }
    return alternate(builders, nanos * Doctor.SHARE_THREADS / 100, false);
  }

  /**
   * Opens the loaders and runs one epoch of each in turn until {@code budget} is spent (at least one round), after
   * unmeasured warm-up epochs: of every loader when {@code warmEach} (the variants run code of their own, such as
   * the raw-pixel path of a proportion dataset, and an epoch is charged the process's CPU, so the JIT compiling
   * that code inside a measured epoch would count against the variant, most where a loaded machine leaves few
   * rounds in the budget), else of the first only (the loaders run the same code, and its reads are cached for
   * the others).
   */
  private static Map<String, List<Span>> alternate(Map<String, LoaderBuilder> builders, long budget,
      boolean warmEach) throws IOException {
    Map<String, Loader> loaders = new LinkedHashMap<>();
    Map<String, List<Span>> spans = new LinkedHashMap<>();
    try {
      for (Map.Entry<String, LoaderBuilder> e : builders.entrySet()) {
        loaders.put(e.getKey(), e.getValue().build());
        spans.put(e.getKey(), new ArrayList<>());
      }
      for (Loader l : loaders.values()) {
        LoaderMeter.epoch(l);
        if (!warmEach) {
          break;
        }
      }
      long until = System.nanoTime() + budget;
      do {
        for (Map.Entry<String, Loader> e : loaders.entrySet()) {
          spans.get(e.getKey()).add(LoaderMeter.epoch(e.getValue()));
        }
      } while (System.nanoTime() < until);
    } finally {
      for (Loader l : loaders.values()) {
        l.close();
      }
    }
    return spans;
  }

  /**
   * Images per CPU-second over all of a loader's epochs together: the process's CPU clock ticks every 10 ms on
   * Linux and a sample epoch takes a few of them, so one epoch's figure, and a median of per-round ratios, come out
   * in steps (a 2x variant read as 1.0x once); summed over the rounds, the ticks' errors average out.
   */
  private static double perCpuSecond(List<Span> spans) {
    return spans.stream().reduce(Span.EMPTY, Span::plus).perCpuSecond();
  }

  private static double rate(List<Span> spans) {
    return spans.stream().reduce(Span.EMPTY, Span::plus).rate();
  }

  /**
   * The median over rounds of {@code a}'s epoch rate over {@code b}'s in the same round (the drift cancels):
   * {@code f} gives an epoch's figure (here the decode time per image, which the loader's own nanosecond timers
   * measure; rates per CPU-second are summed over the rounds instead, see {@link #perCpuSecond}).
   */
  private static double ratio(List<Span> a, List<Span> b, java.util.function.ToDoubleFunction<Span> f) {
    double[] r = new double[a.size()];
    for (int i = 0; i < r.length; i++) {
      r[i] = f.applyAsDouble(a.get(i)) / f.applyAsDouble(b.get(i));
    }
    Arrays.sort(r);
    return r.length % 2 == 1 ? r[r.length / 2] : (r[r.length / 2 - 1] + r[r.length / 2]) / 2;
  }

  private static PerThread perThread(int samples, List<Span> spans) {
    Span s = spans.stream().reduce(Span.EMPTY, Span::plus);
    double busy = s.busyNanosPerImage();
    return new PerThread(samples, 1e9 / s.decodeNanosPerImage(), 1e9 / s.augmentNanosPerImage(), s.rate(),
        s.decodeNanosPerImage() / busy, s.augmentNanosPerImage() / busy);
  }

  /** A stored variant: CPU from its measured ratio, storage scaled by its bytes (reads being bandwidth-bound). */
  private Prescriber.Candidate variant(Map<String, List<Span>> one, String key, Variant v,
      double cpu, double storage, String what, String how, String where) {
    List<Span> stored = one.get("stored");
    List<Span> spans = one.get(key);
    double speed = perCpuSecond(spans) / perCpuSecond(stored);
    double decode = ratio(stored, spans, Span::decodeNanosPerImage);
    double bytes = set.meanPayload(v) / set.meanPayload(Variant.STORED);
    String evidence = "decode " + Units.faster(decode) + ", the pipeline " + Units.faster(speed) + " per CPU-second, "
        + (bytes <= 1 ? Units.times(1 / bytes) + " fewer bytes" : Units.times(bytes) + " more bytes") + " per image ("
        + Units.bytes((long) set.meanPayload(v)) + "), " + where;
    return new Prescriber.Candidate(key, what, how, cpu * speed, storage / bytes, evidence);
  }

  private Prescriber.Candidate uint8(Map<String, List<Span>> one, double cpu, String onSample) {
    List<Span> stored = one.get("stored");
    List<Span> plain = one.get("uint8");
    double speed = perCpuSecond(plain) / perCpuSecond(stored);
    Span a = stored.stream().reduce(Span.EMPTY, Span::plus);
    Span b = plain.stream().reduce(Span.EMPTY, Span::plus);
    return new Prescriber.Candidate("uint8", "uint8 batches, normalized on the GPU",
        "leave NormalizeImage and ToChannelsFirst out of the loader's pipeline and normalize on the GPU",
        cpu * speed, Double.NaN, "the pipeline " + Units.faster(speed) + " per CPU-second (augmentation "
            + Units.duration(a.augmentNanosPerImage()) + " → " + Units.duration(b.augmentNanosPerImage())
            + " per image), " + onSample);
  }
}
