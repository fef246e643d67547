package org.sparkbeton.loader;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.sparkbeton.loader.io.BatchStaging;
import org.sparkbeton.loader.io.PageCache;
import org.sparkbeton.loader.io.DatasetDirectory;
import org.sparkbeton.loader.io.Shards;
import org.sparkbeton.loader.io.SourceOpener;
import org.sparkbeton.loader.memory.BufferAllocator;
import org.sparkbeton.loader.memory.DirectBufferAllocator;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.order.TraversalOrder;
import org.sparkbeton.loader.pipeline.BatchOperation;
import org.sparkbeton.format.dataset.PageChecksums;
import org.sparkbeton.loader.pipeline.Decoder;
import org.sparkbeton.loader.pipeline.FieldSource;
import org.sparkbeton.loader.pipeline.Operation;
import org.sparkbeton.loader.store.DatasetStore;
import org.sparkbeton.loader.store.DatasetStoreProvider;
import org.sparkbeton.loader.store.DatasetStores;
import org.sparkbeton.loader.store.RemoteDataset;
import org.sparkbeton.loader.store.StagingConfig;
import org.sparkbeton.loader.store.StagingListener;

/**
 * Loader options ({@link Loader#builder}); {@link #build()} opens the files, plans every pipeline and
 * allocates the slots.
 */
public final class LoaderBuilder {
  final List<Path> files; // a local dataset, or null for a remote one
  final DatasetDirectory.Listing listing; // the local dataset directory files came from, or null
  final URI storeUri; // a remote dataset, whose store each build opens (and the loader closes)
  final DatasetStoreProvider provider; // opens storeUri; null: the provider on the classpath that supports it
  StagingConfig staging = StagingConfig.defaults();
  boolean stagingSet;
  final List<Spec> specs = new ArrayList<>();
  int batchSize = -1;
  int numThreads = Runtime.getRuntime().availableProcessors();
  int batchesAhead = 3;
  boolean dropLast = true;
  int[] indices;
  long seed;
  TraversalOrder.Factory order = OrderOption.SEQUENTIAL;
  int rank;
  int worldSize = 1;
  BufferAllocator allocator;
  boolean debug;
  boolean profile;
  PrintStream progress;
  long progressIntervalMillis = 250;
  boolean fuse = true;
  int firstEpoch;
  int firstBatch;
  /** The fingerprint of the resumed epoch's order ({@link LoaderState#order}). */
  long firstEpochOrder = LoaderState.UNKNOWN_ORDER;
  long cacheBudget = -1;
  final List<PageChecksums> checksums; // null: files without a manifest
  boolean verifyChecksums = true;
  BadSamplePolicy onBadSample = BadSamplePolicy.FAIL;
  long maxImagePixels = FieldSource.DEFAULT_MAX_IMAGE_PIXELS;
  SourceOpener opener;

  LoaderBuilder(List<Path> files) {
    this(files, null);
  }

  /** Files with their manifest's page checksums (null entries, or a null list, for none). */
  LoaderBuilder(List<Path> files, List<PageChecksums> checksums) {
    this(files, checksums, null, null, null);
  }

  /** The shards of a dataset directory; their sample counts are checked against its manifest when opened. */
  LoaderBuilder(DatasetDirectory.Listing dataset) {
    this(dataset.files(), dataset.checksums(), dataset, null, null);
  }

  /** A remote dataset, opened at every build by {@code provider} (null: one found on the classpath). */
  LoaderBuilder(URI storeUri, DatasetStoreProvider provider) {
    this(null, null, null, storeUri, provider);
  }

  private LoaderBuilder(List<Path> files, List<PageChecksums> checksums, DatasetDirectory.Listing listing,
      URI storeUri, DatasetStoreProvider provider) {
    this.files = files;
    this.checksums = checksums;
    this.listing = listing;
    this.storeUri = storeUri;
    this.provider = provider;
  }

  /** A builder over the same dataset (and staging options), with no other option set. */
  LoaderBuilder sameDataset() {
    LoaderBuilder c = new LoaderBuilder(files, checksums, listing, storeUri, provider);
    c.staging = staging;
    c.stagingSet = stagingSet;
    return c;
  }

  LoaderBuilder copy() {
    LoaderBuilder c = sameDataset();
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
    c.firstEpochOrder = firstEpochOrder;
    c.cacheBudget = cacheBudget;
    c.verifyChecksums = verifyChecksums;
    c.onBadSample = onBadSample;
    c.maxImagePixels = maxImagePixels;
    c.opener = opener;
    return c;
  }

  record Spec(String output, String field, Decoder decoder, List<Operation> ops, List<BatchOperation> tail) {}

  /** Required: samples per batch. */
  public LoaderBuilder batchSize(int batchSize) {
    check(batchSize >= 1, "Batch size must be at least 1, got " + batchSize);
    this.batchSize = batchSize;
    return this;
  }

  /** The most worker threads a loader takes. */
  public static final int MAX_THREADS = 4096;

  /** Worker threads; default: available processors; at most {@link #MAX_THREADS}. */
  public LoaderBuilder numThreads(int numThreads) {
    check(numThreads >= 1, "Thread count must be at least 1, got " + numThreads);
    check(numThreads <= MAX_THREADS, "Thread count must be at most " + MAX_THREADS + ", got " + numThreads
        + " (each worker takes its scratch buffers before the first batch; more threads than processors only wait)");
    this.numThreads = numThreads;
    return this;
  }

  /** Batches prepared ahead of the consumer; default 3. The ring has {@code batchesAhead + 2} slots. */
  public LoaderBuilder batchesAhead(int batchesAhead) {
    check(batchesAhead >= 1, "batchesAhead must be at least 1, got " + batchesAhead);
    this.batchesAhead = batchesAhead;
    return this;
  }

  /**
   * Drop a last partial batch; default true (as FFCV). With it, {@link #build()} refuses a batch size larger
   * than the samples a rank reads per epoch (every epoch would have 0 batches).
   */
  public LoaderBuilder dropLast(boolean dropLast) {
    this.dropLast = dropLast;
    return this;
  }

  /** Read only these samples (dataset indices, in this order for SEQUENTIAL; repeats allowed). */
  public LoaderBuilder indices(int[] indices) {
    this.indices = Objects.requireNonNull(indices, "indices").clone();
    return this;
  }

  /** Seed of the order and of every augmentation; default 0. */
  public LoaderBuilder seed(long seed) {
    this.seed = seed;
    return this;
  }

  /** {@link OrderOption} or any {@link TraversalOrder.Factory}; default SEQUENTIAL. */
  public LoaderBuilder order(TraversalOrder.Factory order) {
    this.order = java.util.Objects.requireNonNull(order, "order");
    return this;
  }

  /** Read only this rank's share of each epoch (see {@link RankShare}); works with every order. */
  public LoaderBuilder distributed(int rank, int worldSize) {
    check(worldSize >= 1 && rank >= 0 && rank < worldSize,
        "Rank " + rank + " of world size " + worldSize + ": expected worldSize >= 1 and 0 <= rank < worldSize");
    this.rank = rank;
    this.worldSize = worldSize;
    return this;
  }

  /** Where off-heap memory comes from; the loader then frees its buffers but does not close it. */
  public LoaderBuilder allocator(BufferAllocator allocator) {
    this.allocator = Objects.requireNonNull(allocator, "allocator");
    return this;
  }

  /**
   * Debug mode: recycled slots are filled with 0xA5 so stale reads of a batch's buffers show, and the
   * default allocator leaves freed memory (and {@code close()} the files' mappings) to the GC so a stale buffer
   * never reads freed memory.
   */
  public LoaderBuilder debug(boolean debug) {
    this.debug = debug;
    return this;
  }

  /**
   * A progress bar on standard error for interactive use: one line per epoch, redrawn in place every
   * 250 ms, with batches done, images/s, ETA and the share of time the training waited for data.
   */
  public LoaderBuilder progressBar(boolean show) {
    return progressBar(show ? System.err : null, 250);
  }

  /** A progress bar on {@code out} (null: none), redrawn at most every {@code intervalMillis}. */
  public LoaderBuilder progressBar(PrintStream out, long intervalMillis) {
    check(intervalMillis >= 0, "Progress interval must be >= 0 ms, got " + intervalMillis);
    this.progress = out;
    this.progressIntervalMillis = intervalMillis;
    return this;
  }

  /** Split worker time into decode and augment in {@link Loader#timings()} (two clock reads per sample and output). */
  public LoaderBuilder profile(boolean profile) {
    this.profile = profile;
    return this;
  }

  /**
   * Pixel fusion, default true: consecutive {@link org.sparkbeton.loader.pipeline.PixelOperation}s
   * (flip, normalize, channels-first, user pixel operations) run as one pass per sample, writing the
   * final tensor once. False runs each operation on its own, one pass each; the output is the same bit
   * for bit (a test checks it), only slower.
   */
  public LoaderBuilder fuse(boolean fuse) {
    this.fuse = fuse;
    return this;
  }

  /** The epoch the first iteration runs (to resume a run at an epoch boundary); default 0. */
  public LoaderBuilder startEpoch(int epoch) {
    check(epoch >= 0, "Start epoch must be >= 0, got " + epoch);
    this.firstEpoch = epoch;
    this.firstBatch = 0;
    this.firstEpochOrder = LoaderState.UNKNOWN_ORDER;
    return this;
  }

  /**
   * Cache mode PROCESS: read data pages into the loader's own page cache of at most
   * {@code budgetBytes} (see {@link PageCache}) instead of memory-mapping the file (cache mode OS,
   * the default). Metadata is still read through the reader.
   */
  public LoaderBuilder processCache(long budgetBytes) {
    check(budgetBytes > 0, "PROCESS cache budget must be positive, got " + budgetBytes);
    this.cacheBudget = budgetBytes;
    return this;
  }

  /**
   * Remote datasets: the node-local directory shards are staged into, shared by every loader and process
   * on the node; default {@code <java.io.tmpdir>/beton-shard-cache}.
   */
  public LoaderBuilder cacheDir(Path dir) {
    return staging(staging.withDir(java.util.Objects.requireNonNull(dir, "cacheDir")));
  }

  /**
   * Remote datasets: the byte budget of the cache directory, for the whole node: every dataset, loader and
   * process that shares the directory counts against it, so all of them should pass the same value. Default:
   * 90% of the free space of the directory's disk plus what the cache holds (the same for every loader that
   * leaves it unset, whatever its dataset). When the dataset is larger, RANDOM and QUASI_RANDOM read it through
   * a {@link org.sparkbeton.loader.order.ShardWindowOrder}.
   */
  public LoaderBuilder cacheBytes(long bytes) {
    check(bytes > 0, "Cache budget must be positive, got " + bytes);
    return staging(staging.withBytes(bytes));
  }

  /** Remote datasets: shards downloaded at once; default 4. */
  public LoaderBuilder downloads(int downloads) {
    check(downloads >= 1, "Concurrent downloads must be at least 1, got " + downloads);
    return staging(staging.withDownloads(downloads));
  }

  /** Remote datasets: failed reads in a row retried before a download fails; default 3. */
  public LoaderBuilder downloadRetries(int retries) {
    check(retries >= 0, "Download retries must be >= 0, got " + retries);
    return staging(staging.withRetries(retries));
  }

  /** Remote datasets: told of cache hits, download progress, retries and completed downloads. */
  public LoaderBuilder stagingListener(StagingListener listener) {
    return staging(staging.withListener(java.util.Objects.requireNonNull(listener, "listener")));
  }

  private LoaderBuilder staging(StagingConfig config) {
    this.staging = config;
    this.stagingSet = true;
    return this;
  }

  /**
   * Whether the shards of a dataset directory are checked against the CRC32C of each page in its manifest, the
   * first time the loader reads the page: header, descriptors and metadata when the loader is built (a mismatch
   * fails {@code build()}), a shard's allocation table when the first batch holding one of its samples is
   * prepared (a mismatch fails that epoch, never a bad sample; cache mode PROCESS reads every table at
   * {@code build()}), each data page on the first payload read from it,
   * in either cache mode (a mismatch is a bad sample, see {@link #onBadSample}). The error names the shard, the page and the
   * region. Default true; false reads unchecked, at the risk of damaged bytes coming back as good samples. Files
   * given without a manifest, and shards of manifests written before page checksums, are read unchecked.
   */
  public LoaderBuilder verifyChecksums(boolean verify) {
    this.verifyChecksums = verify;
    return this;
  }

  /** What to do with a bad sample; default {@link BadSamplePolicy#FAIL}. See {@link BadSamplePolicy}. */
  public LoaderBuilder onBadSample(BadSamplePolicy policy) {
    this.onBadSample = java.util.Objects.requireNonNull(policy, "policy");
    return this;
  }

  /**
   * The largest image, in pixels (width x height from its metadata), the RGB decoders accept; default
   * {@value FieldSource#DEFAULT_MAX_IMAGE_PIXELS} (PIL's limit). A larger or empty image is a bad sample when it is
   * read ({@link #onBadSample}), never a reason for {@code build()} to fail, and it does not size the decoders'
   * per-thread scratch memory (3 bytes per pixel of the largest accepted image, per worker).
   */
  public LoaderBuilder maxImagePixels(long pixels) {
    check(pixels >= 1 && pixels <= FieldSource.LARGEST_MAX_IMAGE_PIXELS, "maxImagePixels must be 1 to "
        + FieldSource.LARGEST_MAX_IMAGE_PIXELS + " (3 bytes each must fit one buffer), got " + pixels);
    this.maxImagePixels = pixels;
    return this;
  }

  /**
   * Reads payload bytes through the sources {@code opener} opens for the files instead of the files themselves:
   * in cache mode OS each payload is one read of its source, with no page cache in between (for sources that are
   * not local files; {@code beton doctor}'s tests throttle reads this way); in cache mode PROCESS each page is one
   * read. Metadata is still read from the local files. The loader closes the sources; null (the default) maps the
   * files. With {@link #verifyChecksums} the metadata is checked as usual and, in cache mode PROCESS, each page read
   * through a source; in cache mode OS payloads read one by one through a source are not checked (a check needs the
   * whole page).
   */
  public LoaderBuilder readThrough(SourceOpener opener) {
    this.opener = opener;
    return this;
  }

  /**
   * Resume mid-epoch: the first iteration starts at {@code state}'s batch of {@code state}'s epoch. Where the state
   * carries its epoch's order ({@link LoaderState#order}) and this loader's order of that epoch differs, the first
   * iteration refuses to start (see {@link LoaderState}).
   */
  public LoaderBuilder resumeFrom(LoaderState state) {
    Objects.requireNonNull(state, "state");
    this.firstEpoch = state.epoch();
    this.firstBatch = state.batch();
    this.firstEpochOrder = state.order();
    return this;
  }

  /** An output named like its field. */
  public LoaderBuilder pipeline(String field, Decoder decoder, Operation... ops) {
    Objects.requireNonNull(field, "field");
    return pipeline(field, field, decoder, ops);
  }

  /** An output named {@code output} reading {@code field}; several outputs may read one field. */
  public LoaderBuilder pipeline(String output, String field, Decoder decoder, Operation... ops) {
    Objects.requireNonNull(output, "output");
    Objects.requireNonNull(field, "field");
    requireElements(ops, "ops", output);
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
  public LoaderBuilder thenBatch(String output, BatchOperation... ops) {
    Objects.requireNonNull(output, "output");
    requireElements(ops, "ops", output);
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
    check(files == null || !stagingSet, "cacheDir, cacheBytes, downloads, downloadRetries and stagingListener apply"
        + " to remote datasets (Loader.builder(URI) with hdfs://, s3a://, ...); local files are read in place");
    check(files != null || cacheBudget < 0, "processCache reads local files; a remote dataset is staged into cacheDir"
        + " and read from there through the OS page cache");
    check(files != null || opener == null, "readThrough reads local files' payloads through other sources; a remote"
        + " dataset is staged into cacheDir and read from there");
    boolean owns = allocator == null;
    Shards shards = null;
    PageCache cache = null;
    RemoteDataset remote = null;
    BufferAllocator alloc = owns ? new DirectBufferAllocator("loader " + (files != null ? files.get(0).getFileName()
        : storeUri), Long.MAX_VALUE, !debug) : allocator;
    List<PageChecksums> sums = verifyChecksums ? checksums : null;
    try {
      LoaderBuilder effective = this;
      BatchStaging staged = null;
      if (files == null) {
        remote = openRemote();
        shards = remote.shards();
        effective = copy();
        effective.order = remote.orderFor(order, worldSize);
        staged = remote;
      } else if (cacheBudget < 0) {
        shards = opener == null ? Shards.open(files, sums, true, !debug)
            : Shards.openThrough(files, sums, !debug, opener);
      } else {
        Shards readers = Shards.open(files, sums, false, !debug);
        try {
          cache = new PageCache(readers, cacheBudget, alloc, opener);
        } catch (RuntimeException | IOException | Error e) {
          AfterFailure.close(e, readers);
          throw e;
        }
        shards = readers.withStores(cache::store);
        staged = cache;
      }
      if (listing != null) {
        DatasetDirectory.requireSampleCounts(listing, shards);
      }
      return new Loader(effective, shards, cache, staged, alloc, owns);
    } catch (RuntimeException | IOException | Error e) {
      // the loader, had it been made, frees its own plan; whatever fails to close here is added to e, never thrown
      // instead of it (an allocator closed with buffers outstanding would report a leak and hide why build failed)
      AfterFailure.close(e, cache);
      AfterFailure.close(e, remote);
      AfterFailure.close(e, shards);
      if (owns) {
        AfterFailure.close(e, alloc);
      }
      throw e;
    }
  }

  private RemoteDataset openRemote() throws IOException {
    DatasetStore store = provider != null ? provider.open(storeUri) : DatasetStores.open(storeUri);
    try {
      return RemoteDataset.open(store, staging, verifyChecksums);
    } catch (RuntimeException | IOException | Error e) {
      AfterFailure.close(e, store);
      throw e;
    }
  }

  /** Null-checks an array of operations and each of them, naming the pipeline and the position of a null one. */
  private static void requireElements(Object[] ops, String name, String output) {
    Objects.requireNonNull(ops, name);
    for (int i = 0; i < ops.length; i++) {
      Objects.requireNonNull(ops[i], name + "[" + i + "] of pipeline '" + output + "'");
    }
  }

  private static void check(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }
}
