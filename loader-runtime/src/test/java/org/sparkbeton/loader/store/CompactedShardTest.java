package org.sparkbeton.loader.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.sparkbeton.loader.store.RemoteDatasetTest.SAMPLES;
import static org.sparkbeton.loader.store.RemoteDatasetTest.dataset;
import static org.sparkbeton.loader.store.RemoteDatasetTest.epoch;
import static org.sparkbeton.loader.store.RemoteDatasetTest.range;
import static org.sparkbeton.loader.store.RemoteDatasetTest.remote;
import static org.sparkbeton.loader.store.RemoteDatasetTest.sortedLabels;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.AllocationTable;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.dataset.DatasetFiles;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.DatasetVerifier;
import org.sparkbeton.format.dataset.ShardCompaction;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.testing.GoldenFiles;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.testing.ShardDirs;

/**
 * A training run whose dataset is compacted under it, and the replaced shards deleted (a compaction's keepReplacedFor
 * shorter than the run): the loader rebuilds each shard it has not staged yet from the merged shard, byte for byte,
 * and every sample comes once with its own bytes. A dataset overwritten under it fails, naming the shard and why.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class CompactedShardTest {
  @TempDir Path tmp;

  /** Counts the shards rebuilt, by the shard each came from. */
  static final class Rebuilds implements StagingListener {
    final Map<String, String> from = new ConcurrentHashMap<>();

    @Override
    public void rebuilt(String shard, String merged, long fetched) {
      from.put(shard, merged);
    }
  }

  /** A local directory as the store, counting the reads of each shard's header (its first bytes). */
  static final class HeaderReads implements DatasetStoreProvider {
    final Map<String, AtomicInteger> reads = new ConcurrentHashMap<>();

    @Override
    public boolean supports(URI uri) {
      return true;
    }

    @Override
    public DatasetStore open(URI uri) {
      return new LocalStore(Path.of(uri)) {
        @Override
        public void readFully(String shard, long position, byte[] dst) throws IOException {
          if (position == 0) {
            reads.computeIfAbsent(shard, k -> new AtomicInteger()).incrementAndGet();
          }
          super.readFully(shard, position, dst);
        }
      };
    }
  }

  @Test
  void shardsCompactedAndDeletedUnderTheLoaderAreRebuiltFromTheMergedShard() throws Exception {
    Path store = withIdentity(dataset(tmp), "id-1");
    Rebuilds rebuilds = new Rebuilds();
    HeaderReads reads = new HeaderReads();
    try (Loader loader = remote(store.toUri(), reads, tmp.resolve("cache")).order(OrderOption.RANDOM)
        .stagingListener(rebuilds).build()) {
      // after the loader opened the dataset: shards 2-5 merged, then 8-9, the manifest published, the four deleted
      compact(store, 8, 2, "part-00008-merged.beton");
      compact(store, 2, 4, "part-00002-merged.beton");

      assertThat(sortedLabels(epoch(loader))).containsExactly(range(SAMPLES));
      assertThat(rebuilds.from).containsOnly(Map.entry(ShardDirs.shardName(2), "part-00002-merged.beton"),
          Map.entry(ShardDirs.shardName(3), "part-00002-merged.beton"),
          Map.entry(ShardDirs.shardName(4), "part-00002-merged.beton"),
          Map.entry(ShardDirs.shardName(5), "part-00002-merged.beton"),
          Map.entry(ShardDirs.shardName(8), "part-00008-merged.beton"),
          Map.entry(ShardDirs.shardName(9), "part-00008-merged.beton"));
      // each merged shard's metadata was read once for all the shards rebuilt from it
      assertThat(reads.reads.get("part-00002-merged.beton")).hasValue(1);
      assertThat(reads.reads.get("part-00008-merged.beton")).hasValue(1);
      // the next epoch reads them from the cache
      assertThat(sortedLabels(epoch(loader))).containsExactly(range(SAMPLES));
      assertThat(rebuilds.from).hasSize(6);
    }
  }

  /** A dataset written before identities gets one at its first compaction: the checksum alone decides. */
  @Test
  void aDatasetWithoutAnIdentityIsFollowedThroughItsFirstCompaction() throws Exception {
    Path store = dataset(tmp);
    Rebuilds rebuilds = new Rebuilds();
    try (Loader loader = remote(store, tmp.resolve("cache")).order(OrderOption.SEQUENTIAL).stagingListener(rebuilds)
        .build()) {
      withIdentity(store, "given-at-compaction");
      compact(store, 0, 3, "part-00000-merged.beton");

      assertThat(sortedLabels(epoch(loader))).containsExactly(range(SAMPLES));
      assertThat(rebuilds.from).containsOnlyKeys(ShardDirs.shardName(0), ShardDirs.shardName(1),
          ShardDirs.shardName(2));
    }
  }

  @Test
  void aDatasetOverwrittenUnderTheLoaderFailsNamingTheShardAndWhy() throws Exception {
    Path store = withIdentity(dataset(tmp), "id-1");
    try (Loader loader = remote(store, tmp.resolve("cache")).order(OrderOption.SEQUENTIAL).build()) {
      compact(store, 2, 4, "part-00002-merged.beton");
      withIdentity(store, "id-2"); // written anew at the path

      // shards 2-5 download side by side: the first of them to fail is named
      assertThatThrownBy(() -> epoch(loader)).hasMessageFindingMatch("Shard part-0000[2-5]\\.beton of ")
          .hasStackTraceContaining(".beton of " + store.toUri() + " is gone since this loader read the dataset's"
              + " manifest, and cannot be rebuilt from the dataset as it is now: the dataset is id-2 now, not the id-1"
              + " the loader opened: it was overwritten. Build the loader again to read the dataset as it is now");
    }
  }

  @Test
  void samplesSplitOverTwoShardsNowAreNotRebuilt() throws Exception {
    Path store = withIdentity(dataset(tmp), "id-1");
    try (Loader loader = remote(store, tmp.resolve("cache")).order(OrderOption.SEQUENTIAL).build()) {
      // shard 2 held samples [80, 120); the manifest now splits them at 100 (no compaction of ours does that)
      DatasetManifest m = DatasetVerifier.manifest(store);
      List<ShardEntry> shards = new ArrayList<>();
      ShardEntry any = m.shards().get(0);
      shards.add(new ShardEntry("part-00000-x.beton", 100, any.bytes(), any.checksum(), Map.of()));
      shards.add(new ShardEntry("part-00002-x.beton", 60, any.bytes(), any.checksum(), Map.of()));
      shards.addAll(m.shards().subList(4, m.shards().size()));
      publish(store, new DatasetManifest(m.fields(), shards, m.recipe(), "test"));
      Files.delete(store.resolve(ShardDirs.shardName(2)));

      assertThatThrownBy(() -> epoch(loader)).hasStackTraceContaining("Shard part-00002.beton of " + store.toUri()
          + " is gone since this loader read the dataset's manifest, and cannot be rebuilt from the dataset as it is"
          + " now: no one shard of the dataset holds its samples [80, 120) now.");
    }
  }

  /** The dataset's manifest with {@code id} as its identity. */
  static Path withIdentity(Path store, String id) throws IOException {
    DatasetManifest m = DatasetVerifier.manifest(store);
    Map<String, String> recipe = new LinkedHashMap<>(m.recipe());
    recipe.put(DatasetFiles.DATASET_ID, id);
    publish(store, new DatasetManifest(m.fields(), m.shards(), recipe, "test"));
    return store;
  }

  @Test
  void payloadsAreMatchedWhereverTheHoldersLayoutPutsThem() throws IOException {
    // FFCV's every_field file lays its payloads out field by field: its samples descend once in pointer order, so
    // the binary search over the samples does not apply and each payload is still matched to itself
    for (String name : GoldenFiles.NAMES) {
      try (BetonReader r = BetonReader.open(GoldenFiles.path(name))) {
        AllocationTable t = r.allocations();
        int[] match = CompactedShard.matching(t, t, 0, r.header().numSamples(), name);
        assertThat(match).as(name).containsExactly(IntStream.range(0, t.size()).toArray());
      }
    }
    try (BetonReader labels = BetonReader.open(GoldenFiles.path("jpg_labels"));
        BetonReader spill = BetonReader.open(GoldenFiles.path("page_spill"))) {
      assertThatThrownBy(() -> CompactedShard.matching(labels.allocations(), spill.allocations(), 0,
          labels.header().numSamples(), "page_spill"))
          .hasMessageContaining("page_spill does not hold the same payloads in the same order");
    }
  }

  /** Merges {@code count} shards from {@code first} into {@code name}, publishes, deletes the merged ones. */
  static void compact(Path store, int first, int count, String name) throws IOException {
    DatasetManifest m = DatasetVerifier.manifest(store);
    int at = indexOf(m, ShardDirs.shardName(first));
    List<ShardEntry> run = m.shards().subList(at, at + count);
    List<Path> files = run.stream().map(e -> store.resolve(e.path())).toList();
    ShardEntry merged = ShardCompaction.merge(new ShardCompaction.Group(at, run), files, store.resolve(name), name);
    List<ShardEntry> shards = new ArrayList<>(m.shards().subList(0, at));
    shards.add(merged);
    shards.addAll(m.shards().subList(at + count, m.shards().size()));
    publish(store, new DatasetManifest(m.fields(), shards, m.recipe(), "test"));
    for (Path f : files) {
      Files.delete(f);
    }
  }

  private static int indexOf(DatasetManifest m, String path) {
    for (int i = 0; i < m.shards().size(); i++) {
      if (m.shards().get(i).path().equals(path)) {
        return i;
      }
    }
    throw new IllegalArgumentException(path + " is not in the manifest");
  }

  private static void publish(Path store, DatasetManifest m) throws IOException {
    Files.writeString(store.resolve(DatasetManifest.FILE_NAME), m.toJson());
  }
}
