package org.sparkbeton.loader;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.sparkbeton.loader.io.DatasetDirectory;
import org.sparkbeton.loader.io.PageCache;
import org.sparkbeton.loader.io.Shards;
import org.sparkbeton.loader.memory.BufferAllocator;
import org.sparkbeton.loader.memory.DirectBufferAllocator;
import org.sparkbeton.loader.memory.SlotRing;
import org.sparkbeton.loader.order.OrderContext;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.order.PageMap;
import org.sparkbeton.loader.order.RankShare;
import org.sparkbeton.loader.order.TraversalOrder;
import org.sparkbeton.loader.pipeline.BatchOperation;
import org.sparkbeton.loader.pipeline.Decoder;
import org.sparkbeton.loader.pipeline.FieldSource;
import org.sparkbeton.loader.pipeline.Operation;
import org.sparkbeton.loader.pipeline.PlannedPipeline;

/**
 * The node-local training loader over one {@code .beton} file (cache mode OS: memory-mapped).
 * Iterating gives one epoch of {@link Batch}es; each call to {@link #iterator()} starts the next
 * epoch (closing one still running). Batches are views into a ring of {@code batchesAhead + 2}
 * slots allocated once: copy what you keep (see {@link Batch}). {@link #close()} stops the workers
 * and frees every off-heap buffer; with the default allocator it throws if anything leaked.
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
  private final Shards shards;
  private final BufferAllocator allocator;
  private final boolean ownsAllocator;
  private final List<Builder.Spec> specs;
  private final FieldSource[] sources;
  private final TraversalOrder order;
  private final int numIndices;
  private final int rank;
  private final int worldSize;
  private final int batchSize;
  private final int numThreads;
  private final int batchesAhead;
  private final boolean dropLast;
  private final boolean debug;
  private final boolean profile;
  private final ProgressBar progressBar;
  private final boolean fuse;
  private final long seed;
  private final LoaderPlan plan;

  private final Builder options;
  private final PageCache cache;
  private PageMap pageMap;
  private int nextEpoch;
  private int resumeBatch;
  private EpochRun current;
  private boolean closed;

  private Loader(Builder b, Shards shards, PageCache cache, BufferAllocator allocator, boolean owns) {
    this.shards = shards;
    this.cache = cache;
    this.allocator = allocator;
    this.ownsAllocator = owns;
    this.batchSize = b.batchSize;
    this.numThreads = b.numThreads;
    this.batchesAhead = b.batchesAhead;
    this.dropLast = b.dropLast;
    this.debug = b.debug;
    this.profile = b.profile;
    this.progressBar = b.progress == null ? null : new ProgressBar(b.progress, b.progressIntervalMillis);
    this.fuse = b.fuse;
    this.seed = b.seed;
    this.rank = b.rank;
    this.worldSize = b.worldSize;
    this.nextEpoch = b.firstEpoch;
    this.resumeBatch = b.firstBatch;
    this.options = b.copy();
    long n = shards.numSamples();
    if (n > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(shards.name() + " has " + n + " samples; the loader handles at most "
          + (Integer.MAX_VALUE - 8));
    }
    int[] indices = b.indices != null ? checkIndices(b.indices, (int) n) : range((int) n);
    this.numIndices = indices.length;
    this.specs = List.copyOf(b.specs);
    this.sources = new FieldSource[specs.size()];
    for (int i = 0; i < sources.length; i++) {
      sources[i] = new FieldSource(shards, fieldIndex(specs.get(i).field), indices);
    }
    this.order = b.order.create(new OrderContext(indices, seed, batchSize, this::pageMap));
    this.plan = new LoaderPlan(allocator, numThreads, batchesAhead + 2, batchSize);
    plan();
    for (Decoder d : decoders()) {
      d.retain(); // last: a loader that failed to build holds nothing
    }
  }

  /**
   * Plans every pipeline (see {@link LoaderPlan}). Runs at build and at the start of every epoch, so a
   * decoder whose output size is changed between epochs (progressive resizing) takes effect without
   * rebuilding the loader.
   */
  private void plan() {
    plan.replan(memory -> {
      List<PlannedPipeline> planned = new ArrayList<>();
      for (int i = 0; i < specs.size(); i++) {
        Builder.Spec s = specs.get(i);
        planned.add(PlannedPipeline.plan(i, s.output, sources[i], s.decoder, s.ops, s.tail, memory, fuse));
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

  PageCache pageCache() {
    return cache;
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
  public static Builder builder(Path fileOrDataset) {
    if (Files.isDirectory(fileOrDataset)) {
      return new Builder(DatasetDirectory.shardFiles(fileOrDataset));
    }
    return new Builder(List.of(fileOrDataset));
  }

  /**
   * A loader over several files with the same fields, read as one index space in the given order
   * (file i's samples follow those of files 0..i-1).
   */
  public static Builder builder(List<Path> files) {
    if (files.isEmpty()) {
      throw new IllegalArgumentException("A loader needs at least one .beton file");
    }
    return new Builder(List.copyOf(files));
  }

  /** Samples this rank reads per epoch: all indices, or {@code ceil(n / worldSize)} when distributed. */
  public int samplesPerEpoch() {
    return worldSize == 1 ? numIndices : RankShare.perRank(numIndices, worldSize);
  }

  /** Batches per epoch: {@code floor} of samples / batch size with {@code dropLast}, else {@code ceil}. */
  public int length() {
    int n = samplesPerEpoch();
    return dropLast ? n / batchSize : (n + batchSize - 1) / batchSize;
  }

  /** The epoch the next {@link #iterator()} runs. */
  public synchronized int nextEpoch() {
    return nextEpoch;
  }

  /** The outputs, in pipeline order, with their per-sample specs, as planned for the current epoch. */
  public synchronized List<PlannedPipeline> pipelines() {
    return plan.pipelines();
  }

  /** This rank's samples for {@code epoch}, in order, before truncation to whole batches. */
  public int[] epochOrder(int epoch) {
    int[] global = order.globalOrder(epoch);
    if (global.length != numIndices) {
      throw new IllegalStateException("Order " + order.getClass().getSimpleName() + " returned " + global.length
          + " samples for epoch " + epoch + ", expected " + numIndices);
    }
    return RankShare.share(global, order.rankSplit(), rank, worldSize);
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
    plan();
    int epoch = nextEpoch++;
    int[] epochOrder = epochOrder(epoch);
    int batches = length();
    int first = Math.min(resumeBatch, batches);
    resumeBatch = 0;
    current = new EpochRun(this, epoch, Arrays.copyOf(epochOrder, Math.min(epochOrder.length, batches * batchSize)),
        batches, first);
    return current;
  }

  /**
   * The position to save with a checkpoint: the epoch and batch the loader would hand out next. After
   * the consumer has taken batch k of epoch e it is (e, k + 1), or (e + 1, 0) after the last batch.
   */
  public synchronized LoaderState state() {
    if (current != null) {
      int next = current.nextBatch();
      if (next < length()) {
        return new LoaderState(current.epoch(), next);
      }
    }
    return new LoaderState(nextEpoch, resumeBatch);
  }

  /**
   * A new loader with the same options over the samples whose value of {@code field}, decoded by
   * {@code decoder}, satisfies {@code predicate} (FFCV's {@code filter}). Reads only that field, in one
   * sequential pass without dropping; the new loader keeps this loader's order of indices.
   */
  public Loader filter(String field, Decoder decoder, RowPredicate predicate) throws IOException {
    Builder scan = new Builder(options.files).batchSize(batchSize).numThreads(numThreads).dropLast(false)
        .pipeline(field, decoder);
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
    Builder filtered = options.copy();
    filtered.indices = kept;
    return filtered.build();
  }

  /** A test on one decoded row, for {@link #filter}. */
  @FunctionalInterface
  public interface RowPredicate {
    /** {@code rows} holds the row at {@code offset}; {@code length} is its valid length, or -1 for fixed-size outputs. */
    boolean test(ByteBuffer rows, int offset, int length);
  }

  /** Where the time of the current (or last) epoch went; all zero before the first epoch. */
  public synchronized LoaderTimings timings() {
    return current == null ? new LoaderTimings(0, 0, 0, 0, profile ? 0 : -1, profile ? 0 : -1, 0) : current.timings();
  }

  /**
   * Bytes of off-heap memory the loader holds: batch slots, the stages' per-worker scratch and, in cache
   * mode PROCESS, the page cache.
   */
  public synchronized long offHeapBytes() {
    return plan.offHeapBytes() + (cache == null ? 0 : cache.bytes());
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (current != null) {
      current.close();
    }
    try {
      freeBuffers();
      if (cache != null) {
        cache.close();
      }
      shards.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      try {
        closeDecoders();
      } finally {
        if (ownsAllocator) {
          allocator.close();
        }
      }
    }
  }

  /** Each distinct decoder, once. */
  private List<Decoder> decoders() {
    java.util.Set<Decoder> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    List<Decoder> out = new ArrayList<>();
    for (Builder.Spec s : specs) {
      if (seen.add(s.decoder)) {
        out.add(s.decoder);
      }
    }
    return out;
  }

  /** Releases each distinct decoder (frees JPEG codec handles once no loader uses them); workers have stopped. */
  private void closeDecoders() {
    RuntimeException failure = null;
    for (Decoder d : decoders()) {
      try {
        d.release();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = new IllegalStateException("Cannot release decoder " + d.name(), e);
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private void freeBuffers() {
    plan.close();
  }

  synchronized SlotRing ring() { return plan.ring(); }
  synchronized SlotPlan slotPlan() { return plan.slotPlan(); }
  synchronized ByteBuffer[] scratch() { return plan.scratch(); }
  int batchSize() { return batchSize; }
  int batchesAhead() { return batchesAhead; }
  int numThreads() { return numThreads; }
  boolean debug() { return debug; }
  boolean profile() { return profile; }
  /** The progress display, or null when not asked for. */
  ProgressBar progressBar() { return progressBar; }
  long seed() { return seed; }

  /** Loader options; {@link #build()} opens the file, plans every pipeline and allocates the slots. */
  public static final class Builder {
    private final List<Path> files;
    private final List<Spec> specs = new ArrayList<>();
    private int batchSize = -1;
    private int numThreads = Runtime.getRuntime().availableProcessors();
    private int batchesAhead = 3;
    private boolean dropLast = true;
    private int[] indices;
    private long seed;
    private TraversalOrder.Factory order = OrderOption.SEQUENTIAL;
    private int rank;
    private int worldSize = 1;
    private BufferAllocator allocator;
    private boolean debug;
    private boolean profile;
    private PrintStream progress;
    private long progressIntervalMillis = 250;
    private boolean fuse = true;
    private int firstEpoch;
    private int firstBatch;
    private long cacheBudget = -1;

    private Builder(List<Path> files) {
      this.files = files;
    }

    private Builder copy() {
      Builder c = new Builder(files);
      c.specs.addAll(specs);
      c.batchSize = batchSize;
      c.numThreads = numThreads;
      c.batchesAhead = batchesAhead;
      c.dropLast = dropLast;
      c.indices = indices;
      c.seed = seed;
      c.order = order;
      c.rank = rank;
      c.worldSize = worldSize;
      c.allocator = allocator;
      c.debug = debug;
      c.profile = profile;
      c.progress = progress;
      c.progressIntervalMillis = progressIntervalMillis;
      c.fuse = fuse;
      c.firstEpoch = firstEpoch;
      c.firstBatch = firstBatch;
      c.cacheBudget = cacheBudget;
      return c;
    }

    private record Spec(String output, String field, Decoder decoder, List<Operation> ops, List<BatchOperation> tail) {}

    /** Required: samples per batch. */
    public Builder batchSize(int batchSize) {
      check(batchSize >= 1, "Batch size must be at least 1, got " + batchSize);
      this.batchSize = batchSize;
      return this;
    }

    /** Worker threads; default: available processors. */
    public Builder numThreads(int numThreads) {
      check(numThreads >= 1, "Thread count must be at least 1, got " + numThreads);
      this.numThreads = numThreads;
      return this;
    }

    /** Batches prepared ahead of the consumer; default 3. The ring has {@code batchesAhead + 2} slots. */
    public Builder batchesAhead(int batchesAhead) {
      check(batchesAhead >= 1, "batchesAhead must be at least 1, got " + batchesAhead);
      this.batchesAhead = batchesAhead;
      return this;
    }

    /** Drop a last partial batch; default true (as FFCV). */
    public Builder dropLast(boolean dropLast) {
      this.dropLast = dropLast;
      return this;
    }

    /** Read only these samples (dataset indices, in this order for SEQUENTIAL; repeats allowed). */
    public Builder indices(int[] indices) {
      this.indices = indices.clone();
      return this;
    }

    /** Seed of the order and of every augmentation; default 0. */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** {@link OrderOption} or any {@link TraversalOrder.Factory}; default SEQUENTIAL. */
    public Builder order(TraversalOrder.Factory order) {
      this.order = java.util.Objects.requireNonNull(order, "order");
      return this;
    }

    /** Read only this rank's share of each epoch (see {@link RankShare}); works with every order. */
    public Builder distributed(int rank, int worldSize) {
      check(worldSize >= 1 && rank >= 0 && rank < worldSize,
          "Rank " + rank + " of world size " + worldSize + ": expected worldSize >= 1 and 0 <= rank < worldSize");
      this.rank = rank;
      this.worldSize = worldSize;
      return this;
    }

    /** Where off-heap memory comes from; the loader then frees its buffers but does not close it. */
    public Builder allocator(BufferAllocator allocator) {
      this.allocator = allocator;
      return this;
    }

    /**
     * Debug mode: recycled slots are filled with 0xA5 so stale reads of a batch's buffers show, and the
     * default allocator leaves freed memory to the GC so a stale buffer never reads freed memory.
     */
    public Builder debug(boolean debug) {
      this.debug = debug;
      return this;
    }

    /**
     * A progress bar on standard error for interactive use: one line per epoch, redrawn in place every
     * 250 ms, with batches done, images/s, ETA and the share of time the training waited for data.
     */
    public Builder progressBar(boolean show) {
      return progressBar(show ? System.err : null, 250);
    }

    /** A progress bar on {@code out} (null: none), redrawn at most every {@code intervalMillis}. */
    public Builder progressBar(PrintStream out, long intervalMillis) {
      check(intervalMillis >= 0, "Progress interval must be >= 0 ms, got " + intervalMillis);
      this.progress = out;
      this.progressIntervalMillis = intervalMillis;
      return this;
    }

    /** Split worker time into decode and augment in {@link Loader#timings()} (two clock reads per sample and output). */
    public Builder profile(boolean profile) {
      this.profile = profile;
      return this;
    }

    /**
     * Pixel fusion, default true: consecutive {@link org.sparkbeton.loader.pipeline.PixelOperation}s
     * (flip, normalize, channels-first, user pixel operations) run as one pass per sample, writing the
     * final tensor once. False runs each operation on its own, one pass each; the output is the same bit
     * for bit (a test checks it), only slower.
     */
    public Builder fuse(boolean fuse) {
      this.fuse = fuse;
      return this;
    }

    /** The epoch the first iteration runs (to resume a run at an epoch boundary); default 0. */
    public Builder startEpoch(int epoch) {
      check(epoch >= 0, "Start epoch must be >= 0, got " + epoch);
      this.firstEpoch = epoch;
      this.firstBatch = 0;
      return this;
    }

    /**
     * Cache mode PROCESS: read data pages into the loader's own page cache of at most
     * {@code budgetBytes} (see {@link PageCache}) instead of memory-mapping the file (cache mode OS,
     * the default). Metadata is still read through the reader.
     */
    public Builder processCache(long budgetBytes) {
      check(budgetBytes > 0, "PROCESS cache budget must be positive, got " + budgetBytes);
      this.cacheBudget = budgetBytes;
      return this;
    }

    /** Resume mid-epoch: the first iteration starts at {@code state}'s batch of {@code state}'s epoch. */
    public Builder resumeFrom(LoaderState state) {
      this.firstEpoch = state.epoch();
      this.firstBatch = state.batch();
      return this;
    }

    /** An output named like its field. */
    public Builder pipeline(String field, Decoder decoder, Operation... ops) {
      return pipeline(field, field, decoder, ops);
    }

    /** An output named {@code output} reading {@code field}; several outputs may read one field. */
    public Builder pipeline(String output, String field, Decoder decoder, Operation... ops) {
      for (Spec s : specs) {
        check(!s.output.equals(output), "Output '" + output + "' is defined twice");
      }
      specs.add(new Spec(output, field, java.util.Objects.requireNonNull(decoder, "decoder"), List.of(ops), List.of()));
      return this;
    }

    /**
     * Ends the pipeline of {@code output} with batch operations (ImageMixup, LabelMixup, ...), run on
     * each whole batch after its per-sample steps.
     */
    public Builder thenBatch(String output, BatchOperation... ops) {
      for (int i = 0; i < specs.size(); i++) {
        Spec s = specs.get(i);
        if (s.output.equals(output)) {
          List<BatchOperation> tail = new ArrayList<>(s.tail);
          tail.addAll(List.of(ops));
          specs.set(i, new Spec(s.output, s.field, s.decoder, s.ops, List.copyOf(tail)));
          return this;
        }
      }
      throw new IllegalArgumentException("No pipeline named '" + output + "' to add batch operations to");
    }

    public Loader build() throws IOException {
      check(batchSize >= 1, "Set a batch size with batchSize(n)");
      check(!specs.isEmpty(), "Define at least one pipeline; fields without a pipeline are not read");
      boolean owns = allocator == null;
      Shards shards = null;
      PageCache cache = null;
      BufferAllocator alloc = owns
          ? new DirectBufferAllocator("loader " + files.get(0).getFileName(), Long.MAX_VALUE, !debug) : allocator;
      try {
        if (cacheBudget < 0) {
          shards = Shards.open(files);
        } else {
          Shards readers = Shards.openReaders(files);
          try {
            cache = new PageCache(readers, cacheBudget, alloc);
          } catch (RuntimeException | IOException | Error e) {
            readers.close();
            throw e;
          }
          shards = readers.withStores(cache::store);
        }
        return new Loader(this, shards, cache, alloc, owns);
      } catch (RuntimeException | IOException | Error e) {
        if (cache != null) {
          cache.close();
        }
        if (shards != null) {
          shards.close();
        }
        if (owns) {
          alloc.close();
        }
        throw e;
      }
    }

    private static void check(boolean ok, String message) {
      if (!ok) {
        throw new IllegalArgumentException(message);
      }
    }
  }
}
