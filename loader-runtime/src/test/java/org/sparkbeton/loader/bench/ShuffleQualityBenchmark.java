package org.sparkbeton.loader.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.IntUnaryOperator;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.DatasetVerifier;
import org.sparkbeton.format.dataset.ManifestField;
import org.sparkbeton.format.dataset.ShardChecksum;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.fields.BytesField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.write.BetonWriter;
import org.sparkbeton.loader.Batch;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.LoaderBuilder;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.order.ShardWindowOrder;
import org.sparkbeton.loader.order.TraversalOrder;
import org.sparkbeton.loader.store.LocalDirectoryStore;

/**
 * Shuffle quality of the shard window against a full RANDOM shuffle, not a test: distinct classes per
 * batch on a 100-class dataset of 10,000 samples in 20 shards (500 samples, 10 KB each), read through the
 * staging path ({@link LocalDirectoryStore}) with a cache budget of k + 2 shards, so RANDOM runs as
 * {@code ShardWindowOrder.window(k)}. Two layouts: shards written in class order (an ImageFolder walk by one
 * writer: 5 classes per shard, the worst case) and shards of shuffled rows (what a Spark job writes after a
 * shuffle: every class in every shard). FFCV's QUASI_RANDOM on the local files for reference (its issue #304).
 *
 * <pre>
 * M=loader-runtime
 * ./mvnw -q -pl $M -am test-compile dependency:build-classpath \
 *   -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
 * java -cp $M/target/test-classes:$M/target/classes:$(cat $M/target/bench.classpath) \
 *   org.sparkbeton.loader.bench.ShuffleQualityBenchmark [dir]
 * </pre>
 */
public final class ShuffleQualityBenchmark {
  static final int CLASSES = 100;
  static final int SHARDS = 20;
  static final int PER_SHARD = 500;
  static final int SAMPLES = SHARDS * PER_SHARD;
  static final int PAYLOAD = 10_000;
  static final int BATCH = 256;
  static final int EPOCHS = 3;

  private ShuffleQualityBenchmark() {}

  public static void main(String[] args) throws IOException {
    Path dir = args.length > 0 ? Files.createDirectories(Path.of(args[0])) : Files.createTempDirectory("shuffle-bench");
    int[] shuffled = new int[SAMPLES];
    for (int i = 0; i < SAMPLES; i++) {
      shuffled[i] = i % CLASSES;
    }
    SplittableRandom r = new SplittableRandom(1);
    for (int i = SAMPLES - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      int t = shuffled[i];
      shuffled[i] = shuffled[j];
      shuffled[j] = t;
    }
    Path sorted = write(dir.resolve("class-sorted"), g -> g / (SAMPLES / CLASSES));
    Path mixed = write(dir.resolve("class-mixed"), g -> shuffled[g]);
    long shard = DatasetVerifier.manifest(sorted).shards().get(0).bytes();
    System.out.printf(Locale.ROOT, "%d samples, %d classes, %d shards of %d samples (%.1f MB), batch %d, %d epochs;"
        + " mean (min) distinct classes per batch%n%n", SAMPLES, CLASSES, SHARDS, PER_SHARD, shard / 1e6, BATCH, EPOCHS);
    System.out.println("| order | cache budget | class-sorted shards | class-mixed shards |");
    System.out.println("|---|---|---:|---:|");
    row("RANDOM (whole dataset fits)", "all 20 shards", dir, sorted, mixed, OrderOption.RANDOM, 0);
    for (int k : new int[] {1, 2, 4, 8}) {
      row("RANDOM -> ShardWindowOrder.window(" + k + ")", (k + 2) + " shards", dir, sorted, mixed, OrderOption.RANDOM,
          (k + 2) * shard);
    }
    row("QUASI_RANDOM, local files (FFCV's order)", "-", dir, sorted, mixed, OrderOption.QUASI_RANDOM, -1);
    System.out.printf(Locale.ROOT, "%nExpected for a uniform batch of %d over %d balanced classes: %.1f%n", BATCH, CLASSES,
        CLASSES * (1 - Math.pow(1 - 1.0 / CLASSES, BATCH)));
  }

  /** {@code budget}: 0 = staged with room for all, -1 = local files read in place. */
  static void row(String name, String budget, Path dir, Path sorted, Path mixed, TraversalOrder.Factory order,
      long bytes) throws IOException {
    String a = measure(dir, sorted, order, bytes);
    String b = measure(dir, mixed, order, bytes);
    System.out.printf(Locale.ROOT, "| %s | %s | %s | %s |%n", name, budget, a, b);
  }

  static String measure(Path dir, Path dataset, TraversalOrder.Factory order, long budget) throws IOException {
    LoaderBuilder builder = budget < 0 ? Loader.builder(dataset)
        : Loader.builder(dataset.toUri(), LocalDirectoryStore.provider()).cacheDir(dir.resolve("cache"));
    if (budget > 0) {
      builder.cacheBytes(budget);
    }
    long batches = 0;
    long distinct = 0;
    int min = Integer.MAX_VALUE;
    try (Loader loader = builder.batchSize(BATCH).numThreads(2).order(order).seed(3).pipeline("label", new IntDecoder())
        .build()) {
      for (int e = 0; e < EPOCHS; e++) {
        for (Batch b : loader) {
          boolean[] seen = new boolean[CLASSES];
          int n = 0;
          for (int i = 0; i < b.size(); i++) {
            int c = (int) b.data("label").getLong(i * 8);
            n += seen[c] ? 0 : 1;
            seen[c] = true;
          }
          batches++;
          distinct += n;
          min = Math.min(min, n);
        }
      }
    }
    return String.format(Locale.ROOT, "%.1f (%d)", (double) distinct / batches, min);
  }

  static Path write(Path dir, IntUnaryOperator label) throws IOException {
    if (Files.exists(dir.resolve(DatasetManifest.FILE_NAME))) {
      return dir;
    }
    Files.createDirectories(dir);
    List<BetonField> fields = List.of(new BetonField("label", IntField.INSTANCE),
        new BetonField("payload", BytesField.INSTANCE));
    List<ShardEntry> entries = new ArrayList<>();
    byte[] payload = new byte[PAYLOAD];
    for (int s = 0; s < SHARDS; s++) {
      String name = String.format("part-%05d.beton", s);
      Path file = dir.resolve(name);
      try (BetonWriter w = BetonWriter.builder(fields).pageSize(2 << 20).open(file)) {
        for (int j = 0; j < PER_SHARD; j++) {
          int g = s * PER_SHARD + j;
          w.append((long) label.applyAsInt(g), payload);
        }
        w.finish();
      }
      entries.add(new ShardEntry(name, PER_SHARD, Files.size(file),
          new ShardChecksum(ShardChecksum.SHA256, DatasetVerifier.checksum(file, ShardChecksum.SHA256)), Map.of()));
    }
    Files.writeString(dir.resolve(DatasetManifest.FILE_NAME), new DatasetManifest(
        fields.stream().map(ManifestField::of).toList(), entries, Map.of(), "ShuffleQualityBenchmark").toJson());
    return dir;
  }
}
