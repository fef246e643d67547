package org.sparkbeton.loader;

import java.io.IOException;
import java.lang.ref.Cleaner;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.sparkbeton.loader.decoders.CodecPreload;
import org.sparkbeton.loader.io.BatchStaging;
import org.sparkbeton.loader.io.DatasetDirectory;
import org.sparkbeton.loader.io.PageCache;
import org.sparkbeton.loader.io.Shards;
import org.sparkbeton.loader.memory.BufferAllocator;
import org.sparkbeton.loader.order.OrderContext;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.order.PageMap;
import org.sparkbeton.loader.order.RankShare;
import org.sparkbeton.loader.order.TraversalOrder;
import org.sparkbeton.loader.pipeline.Decoder;
import org.sparkbeton.loader.pipeline.FieldSource;
import org.sparkbeton.loader.pipeline.PlannedPipeline;
import org.sparkbeton.loader.store.DatasetStoreProvider;

/**
 * The node-local training loader over a {@code .beton} file, several with the same fields, or a dataset
 * directory ({@link #builder}); data pages are memory-mapped (cache mode OS, the default) or read into the
 * loader's own page cache ({@link LoaderBuilder#processCache}, cache mode PROCESS). Iterating gives one
 * epoch of {@link Batch}es; each call to {@link #iterator()} starts the next epoch (closing one still
 * running). Batches are views into a ring of {@code batchesAhead + 2} slots allocated once: copy what you
 * keep (see {@link Batch}). {@link #close()} stops the workers and frees every off-heap buffer; with the
 * default allocator it throws if anything leaked. A loader dropped without {@code close()} is closed once the
 * garbage collector finds it unreachable, with one warning logged: a safety net, not a way to close (when a
 * collection runs is unknown, and until then its threads, memory and files are held).
 *
 * <p>After {@code close()}, {@link #iterator()}, {@link #filter}, {@link #epochOrder} and {@link #pipelines()}
 * throw {@link IllegalStateException} (they would read closed files or freed plans), {@link #offHeapBytes()} is 0,
 * and the others answer with what the loader last knew: {@link #state()} (to save a checkpoint after closing),
 * {@link #timings()}, {@link #badSamples()}, {@link #pagesRead()}, {@link #length()}, {@link #nextEpoch()}.
 *
 * <pre>{@code
 * try (Loader loader = Loader.builder(Path.of("train.beton"))
 *     .batchSize(256).numThreads(8).order(OrderOption.QUASI_RANDOM).seed(1)
 *     .pipeline("image", new SimpleRgbDecoder(), new RandomHorizontalFlip(), new ToChannelsFirst())
 *     .pipeline("label", new IntDecoder())
 *     .build()) {
 *   for (int epoch = 0; epoch < 10; epoch++) {
 *     for (Batch b : loader) {
 *       ByteBuffer images = b.data("image"); // b.size() rows of b.spec("image").bytes() bytes
 *     }
 *   }
 * }
 * }</pre>
 */
public final class Loader implements Iterable<Batch>, AutoCloseable {
  /** The options this loader was built with: a private copy of the builder, read here and by {@link #filter}. */
  private final LoaderBuilder options;
  private final Shards shards;
  /** What the epochs run on and close() frees; the worker threads and the cleaner hold it, never this facade. */
  private final LoaderCore core;
  /** Closes the core if this loader becomes unreachable unclosed; cleaned (deregistered) by close(). */
  private final Cleaner.Cleanable cleanable;
  private final FieldSource[] sources;
  private final TraversalOrder order;
  private final int numIndices;
  private final PageCache cache;
  private final BatchStaging staging;
  private PageMap pageMap;
  /** The first epoch's RANDOM order, shuffled while {@code build()} plans; null for the other orders. */
  private final EarlyOrder earlyOrder;
  private int nextEpoch;
  private int resumeBatch;
  /** The fingerprint the resumed epoch's order must have, until that epoch starts ({@link LoaderState#order}). */
  private long resumeOrder;
  private Epoch current;
  /** {@link LoaderState#orderHash} of the current epoch's order. */
  private long currentOrder;
  private volatile boolean closed;

  Loader(LoaderBuilder b, Shards shards, PageCache cache, BatchStaging staging, BufferAllocator allocator,
      boolean owns) {
    this.options = b.copy();
    this.shards = shards;
    this.cache = cache;
    this.staging = staging;
    this.nextEpoch = options.firstEpoch;
    this.resumeBatch = options.firstBatch;
    this.resumeOrder = options.firstEpochOrder;
    if (options.onBadSample == BadSamplePolicy.SKIP && options.worldSize > 1) {
      throw new IllegalArgumentException("onBadSample(SKIP) with distributed(" + options.rank + ", "
          + options.worldSize + "): a rank that skips a sample would run fewer batches than the others, and a"
          + " distributed training step waits for every rank; use onBadSample(REPLACE), which keeps every rank's"
          + " batches");
    }
    long n = shards.numSamples();
    if (n > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(shards.name() + " has " + n + " samples; the loader handles at most "
          + (Integer.MAX_VALUE - 8));
    }
    int[] indices = options.indices != null ? checkIndices(options.indices, (int) n) : range((int) n);
    this.numIndices = indices.length;
    checkBatchesPerEpoch();
    this.sources = new FieldSource[options.specs.size()];
    for (int i = 0; i < sources.length; i++) {
      sources[i] = new FieldSource(shards, fieldIndex(options.specs.get(i).field()), indices, options.maxImagePixels);
    }
    this.order = options.order.create(
        new OrderContext(indices, options.seed, options.batchSize, this::pageMap, shards.starts()));
    // only the built-in RANDOM: a user's order is never run on another thread than the caller's
    this.earlyOrder = options.order == OrderOption.RANDOM ? EarlyOrder.start(order, nextEpoch) : null;
    this.core = new LoaderCore(options, shards, staging, allocator, owns);
    try {
      plan();
      retainDecoders(); // a loader that failed to build holds nothing
    } catch (RuntimeException | Error e) {
      AfterFailure.close(e, core::closePlan); // the builder closes the files and the allocator
      throw e;
    }
    this.cleanable = core.closeWhenUnreachable(this); // last: only a loader that was built is ever cleaned
  }

  /** Retains each distinct decoder; when one refuses, those retained before it are released. */
  private void retainDecoders() {
    List<Decoder> retained = new ArrayList<>();
    try {
      for (Decoder d : core.decoders()) {
        d.retain();
        retained.add(d);
      }
    } catch (RuntimeException | Error e) {
      for (Decoder d : retained) {
        AfterFailure.close(e, d::release);
      }
      throw e;
    }
  }

  /**
   * With dropLast, a batch size above the samples a rank reads per epoch gives epochs of 0 batches: a training
   * loop that runs but never trains. Refused when the loader is built, with both numbers and the fixes. (A
   * loader over no samples at all has 0 batches either way and is left alone.)
   */
  private void checkBatchesPerEpoch() {
    int perEpoch = samplesPerEpoch();
    int batchSize = options.batchSize;
    if (options.dropLast && perEpoch > 0 && batchSize > perEpoch) {
      String who = options.worldSize == 1 ? "this loader reads" : "rank " + options.rank + " of " + options.worldSize
          + " reads (of " + numIndices + " in all)";
      throw new IllegalArgumentException("Batch size " + batchSize + " is larger than the " + perEpoch + " samples "
          + who + " per epoch, so with dropLast (the default, as FFCV) every epoch would have 0 batches: use"
          + " batchSize(" + perEpoch + ") or less, or dropLast(false) for one partial batch per epoch");
    }
  }

  /**
   * Plans every pipeline (see {@link LoaderPlan}). Runs at build and at the start of every epoch, so a
   * decoder whose output size is changed between epochs (progressive resizing) takes effect without
   * rebuilding the loader.
   */
  private void plan() {
    core.replan(memory -> {
      List<PlannedPipeline> planned = new ArrayList<>();
      for (int i = 0; i < options.specs.size(); i++) {
        LoaderBuilder.Spec s = options.specs.get(i);
        planned.add(PlannedPipeline.plan(i, s.output(), sources[i], s.decoder(), s.ops(), s.tail(), memory,
            options.fuse));
      }
      return planned;
    });
  }

  private synchronized PageMap pageMap() {
    if (pageMap == null) {
      pageMap = shards.pageMap();
    }
    return pageMap;
  }

  /** The files this loader reads. */
  Shards shards() {
    return shards;
  }

  /** What brings each batch's data in before it is decoded (PROCESS cache, remote shards), or null. */
  BatchStaging staging() {
    return staging;
  }

  /** Pages the PROCESS cache has read from the file so far; -1 in cache mode OS. */
  public long pagesRead() {
    return cache == null ? -1 : cache.pagesRead();
  }

  private int fieldIndex(String name) {
    try {
      return shards.reader(0).fieldIndex(name);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Cannot build a pipeline: " + e.getMessage(), e);
    }
  }

  private static int[] range(int n) {
    int[] a = new int[n];
    for (int i = 0; i < n; i++) {
      a[i] = i;
    }
    return a;
  }

  private int[] checkIndices(int[] indices, int n) {
    for (int i = 0; i < indices.length; i++) {
      if (indices[i] < 0 || indices[i] >= n) {
        throw new IllegalArgumentException("indices[" + i + "] = " + indices[i] + " is not a sample of "
            + shards.name() + " (0.." + (n - 1) + ")");
      }
    }
    return indices.clone();
  }

  /**
   * A loader over one {@code .beton} file, or over a dataset directory as the Spark writer makes it: the
   * shards its {@code _manifest.json} lists, in manifest order, as one index space (files it does not list,
   * left by failed attempts, are never opened; see {@link DatasetDirectory}).
   */
  public static LoaderBuilder builder(Path fileOrDataset) {
    java.util.Objects.requireNonNull(fileOrDataset, "fileOrDataset");
    CodecPreload.start();
    if (Files.isDirectory(fileOrDataset)) {
      return new LoaderBuilder(DatasetDirectory.open(fileOrDataset));
    }
    return new LoaderBuilder(List.of(fileOrDataset));
  }

  /**
   * A loader over a dataset directory at {@code dataset}: {@code file:} (or no scheme) reads local files in
   * place as {@link #builder(Path)}; any other scheme ({@code hdfs://}, {@code s3a://}, ...) is opened by a
   * {@link org.sparkbeton.loader.store.DatasetStoreProvider} on the classpath (loader-hadoop provides one
   * for every Hadoop FileSystem, with the default Hadoop configuration) and its shards are staged into a
   * local cache ({@link LoaderBuilder#cacheDir}, {@link LoaderBuilder#cacheBytes}) as the epochs need them.
   */
  public static LoaderBuilder builder(URI dataset) {
    java.util.Objects.requireNonNull(dataset, "dataset");
    if (dataset.getScheme() == null) {
      return builder(Path.of(dataset.getPath()));
    }
    if (dataset.getScheme().equals("file")) {
      return builder(Path.of(dataset));
    }
    CodecPreload.start();
    return new LoaderBuilder(dataset, null);
  }

  /**
   * A loader over the dataset directory at {@code dataset}, opened by {@code provider} whatever its scheme
   * (for a store with your own configuration, e.g. loader-hadoop's
   * {@code new HadoopDatasetStoreProvider(conf)}); shards are staged as with {@link #builder(URI)}. Each
   * {@code build()} opens its own store, and the loader closes it.
   */
  public static LoaderBuilder builder(URI dataset, DatasetStoreProvider provider) {
    CodecPreload.start();
    return new LoaderBuilder(java.util.Objects.requireNonNull(dataset, "dataset"),
        java.util.Objects.requireNonNull(provider, "provider"));
  }

  /**
   * A loader over several files with the same fields, read as one index space in the given order
   * (file i's samples follow those of files 0..i-1).
   */
  public static LoaderBuilder builder(List<Path> files) {
    java.util.Objects.requireNonNull(files, "files");
    for (int i = 0; i < files.size(); i++) {
      java.util.Objects.requireNonNull(files.get(i), "files[" + i + "]");
    }
    if (files.isEmpty()) {
      throw new IllegalArgumentException("A loader needs at least one .beton file");
    }
    CodecPreload.start();
    return new LoaderBuilder(List.copyOf(files));
  }

  /** Samples this rank reads per epoch: all indices, or {@code ceil(n / worldSize)} when distributed. */
  public int samplesPerEpoch() {
    return options.worldSize == 1 ? numIndices : RankShare.perRank(numIndices, options.worldSize);
  }

  /**
   * Batches per epoch: {@code floor} of samples / batch size with {@code dropLast}, else {@code ceil}. Under
   * {@link BadSamplePolicy#SKIP} an epoch with bad samples may have fewer.
   */
  public int length() {
    return batchesFor(samplesPerEpoch());
  }

  /** Batches an epoch of {@code samples} samples has. */
  int batchesFor(int samples) {
    int batchSize = options.batchSize;
    return options.dropLast ? samples / batchSize : (samples + batchSize - 1) / batchSize;
  }

  /** The epoch the next {@link #iterator()} runs. */
  public synchronized int nextEpoch() {
    return nextEpoch;
  }

  /** The outputs, in pipeline order, with their per-sample specs, as planned for the current epoch. */
  public synchronized List<PlannedPipeline> pipelines() {
    requireOpen();
    return core.pipelines();
  }

  /** This rank's samples for {@code epoch}, in order, before truncation to whole batches. */
  public int[] epochOrder(int epoch) {
    requireOpen();
    int[] global = earlyOrder == null ? null : earlyOrder.take(epoch);
    if (global == null) {
      global = order.globalOrder(epoch);
    }
    if (global.length != numIndices) {
      throw new IllegalStateException("Order " + order.getClass().getSimpleName() + " returned " + global.length
          + " samples for epoch " + epoch + ", expected " + numIndices);
    }
    return RankShare.share(global, order.rankSplit(), options.rank, options.worldSize);
  }

  /** Starts the next epoch; an epoch still running is stopped first. */
  @Override
  public synchronized Iterator<Batch> iterator() {
    if (closed) {
      throw new IllegalStateException("Loader over " + shards.name() + " is closed");
    }
    if (current != null) {
      current.close();
    }
    shards.requireUnchanged(); // a shard cut short under its mapping would fault mid-epoch, in native code a crash
    plan();
    int epoch = nextEpoch;
    int[] epochOrder = epochOrder(epoch);
    long fingerprint = LoaderState.orderHash(epochOrder, options.batchSize);
    String nextEpochInstead = "Resume at the next epoch instead (resumeFrom(new LoaderState(" + (epoch + 1)
        + ", 0)) or startEpoch(" + (epoch + 1) + ")), or with the dataset and options the state was saved with";
    if (resumeBatch > 0 && resumeOrder != LoaderState.UNKNOWN_ORDER && resumeOrder != fingerprint) {
      throw new IllegalStateException("Cannot resume at batch " + resumeBatch + " of epoch " + epoch + ": this"
          + " loader's order of epoch " + epoch + " is not the one the state was saved with (the dataset's samples"
          + " changed since, appended to or compacted into other shards that the order follows, or another seed,"
          + " order, indices, rank or batch size). Resuming inside it would repeat some of its samples and skip"
          + " others. " + nextEpochInstead);
    }
    if (resumeBatch > length()) {
      // a state never points past an epoch's last batch: its end is saved as (epoch + 1, 0)
      throw new IllegalStateException("Cannot resume at batch " + resumeBatch + " of epoch " + epoch + ": the"
          + " epoch has " + length() + " batches of " + options.batchSize + " samples, so the state was saved with"
          + " another batch size or dataset. " + nextEpochInstead);
    }
    nextEpoch++;
    int first = resumeBatch;
    resumeBatch = 0;
    resumeOrder = LoaderState.UNKNOWN_ORDER;
    currentOrder = fingerprint;
    current = new Epoch(this, epoch, epochOrder, first);
    return current;
  }

  /**
   * The position to save with a checkpoint: the epoch and batch the loader would hand out next. After
   * the consumer has taken batch k of epoch e it is (e, k + 1), or (e + 1, 0) after the last batch. The epoch's
   * iterator can still go on from there, so a loop that breaks out of epoch e after batch k (a step limit per
   * epoch) still reads (e, k + 1): resuming from it runs the rest of epoch e. A run whose next loop starts epoch
   * e + 1 instead saves {@code new LoaderState(nextEpoch(), 0)}, or the state after that loop's
   * {@code iterator()}.
   */
  public synchronized LoaderState state() {
    if (current != null) {
      int next = current.nextBatch();
      if (next < length()) {
        return new LoaderState(current.epoch(), next, next == 0 ? LoaderState.UNKNOWN_ORDER : currentOrder);
      }
    }
    return new LoaderState(nextEpoch, resumeBatch, resumeBatch == 0 ? LoaderState.UNKNOWN_ORDER : resumeOrder);
  }

  /**
   * A new loader with the same options over the samples whose value of {@code field}, decoded by
   * {@code decoder}, satisfies {@code predicate} (FFCV's {@code filter}). Reads only that field, in one
   * sequential pass without dropping; the new loader keeps this loader's order of indices.
   */
  public Loader filter(String field, Decoder decoder, RowPredicate predicate) throws IOException {
    java.util.Objects.requireNonNull(field, "field");
    java.util.Objects.requireNonNull(decoder, "decoder");
    java.util.Objects.requireNonNull(predicate, "predicate");
    requireOpen();
    LoaderBuilder scan = options.sameDataset().batchSize(options.batchSize).numThreads(options.numThreads)
        .dropLast(false).verifyChecksums(options.verifyChecksums).onBadSample(options.onBadSample)
        .maxImagePixels(options.maxImagePixels).pipeline(field, decoder);
    if (options.indices != null) {
      scan.indices(options.indices);
    }
    int[] kept;
    try (Loader pass = scan.build()) {
      int[] matches = new int[pass.samplesPerEpoch()];
      int n = 0;
      for (Batch b : pass) {
        ByteBuffer rows = b.data(field);
        int row = b.spec(field).bytes();
        for (int i = 0; i < b.size(); i++) {
          if (predicate.test(rows, i * row, b.length(field, i))) {
            matches[n++] = b.sample(i);
          }
        }
      }
      kept = Arrays.copyOf(matches, n);
    }
    LoaderBuilder filtered = options.copy();
    filtered.indices = kept;
    return filtered.build();
  }

  /** A test on one decoded row, for {@link #filter}. */
  @FunctionalInterface
  public interface RowPredicate {
    /** {@code rows} holds the row at {@code offset}; {@code length} is its valid length, or -1 for fixed-size outputs. */
    boolean test(ByteBuffer rows, int offset, int length);
  }

  /** The bad samples met so far and what was done with them (see {@link BadSamplePolicy}); live. */
  public BadSamples badSamples() {
    return core.badSamples();
  }

  BadSamplePolicy badSamplePolicy() {
    return core.badSamplePolicy();
  }

  BadSamples.Event badSampleEvent(int epoch, int batch, int sample, int substitute, String reason) {
    return core.badSampleEvent(epoch, batch, sample, substitute, reason);
  }

  /** Where the time of the current (or last) epoch went; all zero before the first epoch. */
  public synchronized LoaderTimings timings() {
    int split = options.profile ? 0 : -1;
    return current == null ? new LoaderTimings(0, 0, 0, 0, split, split, 0) : current.timings();
  }

  /**
   * Bytes of off-heap memory the loader holds: batch slots, the stages' per-worker scratch and, in cache
   * mode PROCESS, the page cache; 0 once closed.
   */
  public synchronized long offHeapBytes() {
    return closed ? 0 : core.planBytes() + (cache == null ? 0 : cache.bytes());
  }

  /** Refuses a call that needs the loader's files or plan once it is closed. */
  private void requireOpen() {
    if (closed) {
      throw new IllegalStateException("Loader over " + shards.name() + " is closed");
    }
  }

  /**
   * Stops the workers, frees every off-heap buffer and closes the files; idempotent. A loader dropped without it
   * is closed when the garbage collector finds it unreachable, with a warning: call it (try-with-resources).
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      core.close(Thread.currentThread());
    } finally {
      cleanable.clean(); // the cleaner's action finds the core closed and does nothing
    }
  }

  /** What the epochs run on. */
  LoaderCore core() { return core; }
  int batchSize() { return options.batchSize; }
}
