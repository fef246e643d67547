package org.sparkbeton.loader.store;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.dataset.DatasetFiles;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.loader.io.BatchStaging;
import org.sparkbeton.loader.io.Shards;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.order.ShardWindowOrder;
import org.sparkbeton.loader.order.TraversalOrder;

/**
 * A dataset read from a {@link DatasetStore} through the node-local {@link ShardCache}. Opening reads the
 * manifest and every shard's metadata (header, descriptors, records and allocation table, with ranged
 * reads, or from the cache when the shard is there), in parallel: decoders plan over all samples, as they
 * do on local files. Payloads are only ever read from staged, verified copies ({@link StagedShard}),
 * which the {@link ShardStager} brings in and lets go epoch by epoch. Metadata lives on the heap, outside
 * the cache budget.
 */
public final class RemoteDataset implements BatchStaging {
  private static final System.Logger LOG = System.getLogger(RemoteDataset.class.getName());
  private static final long FIRST_PAUSE_MILLIS = 250;

  private final DatasetStore store;
  private final StagingConfig config;
  private final long budget;
  private final ShardCache cache;
  private final ExecutorService pool;
  private final List<ShardEntry> entries;
  /** The dataset's identity in the manifest opened ({@link DatasetFiles#DATASET_ID}); null where it has none. */
  private final String datasetId;
  private final String[] keys;
  private final MetadataSource[] metadata;
  private final boolean[] verified;
  private final StagedShard[] staged;
  private final BetonReader[] readers;
  /** The metadata of the merged shards rebuilds read from, by path, each read once ({@link CompactedShard}). */
  private final Map<String, BetonReader> holders = new HashMap<>();
  private final Shards shards;
  private final long totalBytes;
  private final long maxShardBytes;
  private final ShardStager stager;
  /** The order the loader runs, as its messages name it ({@link #orderFor}); null for a user's own order. */
  private volatile String orderInUse;

  private RemoteDataset(DatasetStore store, StagingConfig config, DatasetManifest manifest, ShardCache cache,
      long budget, ExecutorService pool, boolean checkPages) throws IOException {
    this.store = store;
    this.config = config;
    this.cache = cache;
    this.budget = budget;
    this.pool = pool;
    this.entries = manifest.shards();
    this.datasetId = manifest.recipe().get(DatasetFiles.DATASET_ID);
    int n = entries.size();
    this.keys = new String[n];
    this.metadata = new MetadataSource[n];
    this.verified = new boolean[n];
    this.staged = new StagedShard[n];
    long total = 0;
    long max = 0;
    for (int i = 0; i < n; i++) {
      keys[i] = ShardCache.key(store.uri(), entries.get(i));
      staged[i] = new StagedShard(shardName(i), checkPages ? entries.get(i).pageChecksums() : null);
      total += entries.get(i).bytes();
      max = Math.max(max, entries.get(i).bytes());
    }
    this.totalBytes = total;
    this.maxShardBytes = max;
    this.readers = ShardMetadata.openAll(pool, n, store.uri(), this::openReader);
    try {
      this.shards = Shards.of(readers, staged);
    } catch (RuntimeException e) {
      ShardMetadata.closeAll(readers);
      throw e;
    }
    this.stager = new ShardStager(this, budget, pool);
  }

  /**
   * Opens the dataset at {@code store}, which {@link #close()} closes.
   * Throws with the store's name when the manifest is missing or invalid, when a shard's metadata cannot be
   * read or disagrees with the manifest, or when the budget cannot hold the largest shard.
   */
  public static RemoteDataset open(DatasetStore store, StagingConfig config) throws IOException {
    return open(store, config, true);
  }

  /**
   * As {@link #open(DatasetStore, StagingConfig)}; {@code checkPages} false reads the staged copies' pages without
   * checking them against the manifest's page checksums ({@code LoaderBuilder.verifyChecksums(false)}).
   */
  public static RemoteDataset open(DatasetStore store, StagingConfig config, boolean checkPages) throws IOException {
    DatasetManifest manifest = ShardMetadata.readManifest(store);
    ShardCache cache = ShardCache.open(config.dir());
    ExecutorService pool = null;
    try {
      ShardEntry largest = manifest.shards().get(0);
      for (ShardEntry e : manifest.shards()) {
        largest = e.bytes() > largest.bytes() ? e : largest;
      }
      long budget = config.bytes() > 0 ? config.bytes() : ShardCache.defaultBudget(cache.directory());
      if (largest.bytes() > budget) {
        throw new IllegalArgumentException(CacheBudgetErrors.tooSmall(store.uri(), config, cache, budget, largest));
      }
      pool = downloadPool(config.downloads());
      return new RemoteDataset(store, config, manifest, cache, budget, pool, checkPages);
    } catch (IOException | RuntimeException | Error e) {
      if (pool != null) {
        pool.shutdownNow();
      }
      cache.close();
      throw e;
    }
  }

  private static ExecutorService downloadPool(int threads) {
    AtomicInteger id = new AtomicInteger();
    return Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "beton-download-" + id.getAndIncrement());
      t.setDaemon(true);
      return t;
    });
  }

  /** A shard's metadata, from its cached copy when there is one (verified when it was written), else the store. */
  private BetonReader openReader(int i) throws IOException {
    ShardEntry e = entries.get(i);
    FileChannel local = null;
    try {
      local = FileChannel.open(cache.file(keys[i]), StandardOpenOption.READ);
    } catch (NoSuchFileException absent) {
      // read from the store
    }
    try {
      MetadataSource.RangeReader ranges = local != null ? MetadataSource.of(local, shardName(i))
          : (position, dst) -> store.readFully(e.path(), position, dst);
      MetadataSource source = new MetadataSource(shardName(i), e.bytes(), ranges);
      BetonReader reader = ShardMetadata.open(store, e, source);
      source.seal();
      metadata[i] = source;
      return reader;
    } finally {
      if (local != null) {
        local.close();
      }
    }
  }

  /**
   * Pins shard {@code s} in the cache (downloading and verifying it when no process on the node has it),
   * checks it holds the metadata the loader planned with, and maps it for the workers.
   */
  void stage(int s, BooleanSupplier cancelled) throws IOException, InterruptedException {
    ShardEntry e = entries.get(s);
    boolean[] fetched = new boolean[1];
    Path file = cache.pin(keys[s], shardName(s), e.bytes(), budget, part -> {
      fetched[0] = true;
      try {
        new ShardDownload(store, e, config.retries(), config.listener(), cancelled, FIRST_PAUSE_MILLIS).fetch(part);
      } catch (ShardDownload.Gone gone) {
        rebuild(s, part, gone.storeError());
      } catch (ShardDownload.CacheWriteException full) {
        throw new IOException(CacheBudgetErrors.writeFailed(full, config, cache, budget), full);
      }
    }, cancelled);
    try {
      if (!fetched[0]) {
        config.listener().cached(e.path());
      }
      checkMetadata(s, file);
      staged[s].map(file);
    } catch (IOException | RuntimeException | Error x) {
      cache.unpin(keys[s]);
      throw x;
    }
  }

  /**
   * Shard {@code s} is gone from the store: a compaction merged it and deleted it once its keepReplacedFor had
   * passed, or the dataset was overwritten. The first is rebuilt from the shard that holds its samples now
   * ({@link CompactedShard}); for the second {@code gone} is thrown.
   */
  private void rebuild(int s, Path part, IOException gone) throws IOException {
    long first = 0;
    for (int i = 0; i < s; i++) {
      first += entries.get(i).samples();
    }
    CompactedShard.Rebuilt rebuilt = CompactedShard.rebuild(store, this::holder, datasetId,
        new CompactedShard.Lost(entries.get(s), first, readers[s], metadata[s]), part, gone);
    LOG.log(System.Logger.Level.INFO, "Shard " + shardName(s) + " was compacted into " + rebuilt.from() + " since the"
        + " loader opened the dataset, and deleted: rebuilt from " + rebuilt.bytesRead() + " payload bytes of it,"
        + " checked against the shard's " + entries.get(s).checksum().algorithm());
    config.listener().rebuilt(entries.get(s).path(), rebuilt.from(), rebuilt.bytesRead());
  }

  /** The metadata of merged shard {@code e}, read from the store the first time a rebuild needs it. */
  private BetonReader holder(ShardEntry e) throws IOException {
    synchronized (holders) {
      BetonReader r = holders.get(e.path());
      if (r == null) {
        r = CompactedShard.openHolder(store, e);
        holders.put(e.path(), r);
      }
      return r;
    }
  }

  private void checkMetadata(int s, Path file) throws IOException {
    synchronized (verified) {
      if (verified[s]) {
        return;
      }
    }
    String difference = metadata[s].mismatch(file);
    if (difference != null) {
      ShardEntry e = entries.get(s);
      throw new ShardIntegrityException("Shard " + e.path() + " of " + store.uri() + " does not hold the metadata the"
          + " loader read from the store when it opened the dataset (" + difference + "), although its "
          + e.checksum().algorithm() + " matches the manifest: the store served different bytes; reopen the loader");
    }
    synchronized (verified) {
      verified[s] = true;
    }
  }

  /** After the last batch that reads shard {@code s}: unmaps it and lets the cache evict it. */
  void unstage(int s) {
    staged[s].unmap();
    cache.unpin(keys[s]);
  }

  /**
   * The order to run: RANDOM and QUASI_RANDOM become a {@link ShardWindowOrder} when the dataset does not
   * fit the budget, with a window of {@code budget / (largest shard * ranks) - 2} shards (at least 1), which
   * leaves each rank room for the shard a window change adds and one more downloading ahead. {@code ranks} is the
   * world size of {@code distributed(rank, worldSize)}: ranks on one node share the cache directory and its
   * budget, and windows taken each from the whole budget held room the others waited for, every rank of the node
   * stalled at its first epoch (ranks on other nodes leave room unused; a window given explicitly is kept). A
   * budget under two shards is refused: a batch that spans the boundary of two shards of the window needs both.
   * Other orders are kept.
   */
  public TraversalOrder.Factory orderFor(TraversalOrder.Factory requested, int ranks) {
    if (fits() || (requested != OrderOption.RANDOM && requested != OrderOption.QUASI_RANDOM)) {
      orderInUse = requested instanceof OrderOption o ? o.name() : null;
      return requested;
    }
    if (budget < 2 * maxShardBytes) {
      throw new IllegalArgumentException("Dataset " + store.uri() + " (" + totalBytes + " bytes) does not fit the"
          + " cache budget of " + budget + " bytes, so " + requested + " reads it through a window of shards, and a"
          + " batch that spans the boundary of two shards needs both staged at once: raise cacheBytes to at least "
          + 2 * maxShardBytes + " (two of the largest shard; about three let one download while two are read)");
    }
    long share = budget / Math.max(1, ranks);
    int window = (int) Math.max(1, Math.min(Integer.MAX_VALUE, share / maxShardBytes - 2));
    orderInUse = "ShardWindowOrder.window(" + window + ")";
    LOG.log(System.Logger.Level.INFO, "Dataset " + store.uri() + " (" + totalBytes + " bytes) does not fit the cache"
        + " budget of " + budget + " bytes: " + requested + " reads shards through ShardWindowOrder.window(" + window
        + ")" + (ranks > 1 ? " (the budget shared by the " + ranks + " ranks, as on one node; pass"
        + " order(ShardWindowOrder.window(k)) to size the window for the ranks your nodes hold)" : ""));
    return ShardWindowOrder.window(window);
  }

  /** The dataset's shards as one index space; payloads come from the staged copies. */
  public Shards shards() {
    return shards;
  }

  /** Whether the whole dataset fits the cache budget. */
  public boolean fits() {
    return totalBytes <= budget;
  }

  public long budget() {
    return budget;
  }

  public long totalBytes() {
    return totalBytes;
  }

  public long maxShardBytes() {
    return maxShardBytes;
  }

  public URI uri() {
    return store.uri();
  }

  /** The order the loader runs: an {@link OrderOption}'s name, the shard window it became, or null (a user's own). */
  String orderInUse() {
    return orderInUse;
  }

  int shardCount() {
    return entries.size();
  }

  long shardBytes(int s) {
    return entries.get(s).bytes();
  }

  int shardOf(int sample) {
    return shards.shardOf(sample);
  }

  String shardName(int s) {
    return ShardMetadata.shardName(store.uri(), entries.get(s));
  }

  @Override
  public void startEpoch(int epoch, int[] order, int batchSize, int numBatches, int firstBatch, int lookahead) {
    stager.startEpoch(epoch, order, batchSize, numBatches, firstBatch);
  }

  @Override
  public boolean awaitBatch(int b) throws InterruptedException {
    return stager.awaitBatch(b);
  }

  @Override
  public void batchDone(int b) {
    stager.batchDone(b);
  }

  @Override
  public void stopEpoch() {
    stager.stopEpoch();
  }

  /** After the loader's workers have stopped: releases every staged shard, the cache and the store. */
  @Override
  public void close() {
    try {
      stager.close();
    } finally {
      synchronized (holders) {
        holders.values().forEach(RemoteDataset::closeQuietly);
        holders.clear();
      }
      pool.shutdown();
      cache.close();
      try {
        store.close();
      } catch (IOException e) {
        LOG.log(System.Logger.Level.WARNING, "Cannot close " + store.uri() + ": " + e);
      }
    }
  }

  private static void closeQuietly(BetonReader r) {
    try {
      r.close();
    } catch (IOException e) {
      LOG.log(System.Logger.Level.WARNING, "Cannot close the metadata of " + r.file() + ": " + e);
    }
  }
}
