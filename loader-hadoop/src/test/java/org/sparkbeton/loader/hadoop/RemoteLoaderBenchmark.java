package org.sparkbeton.loader.hadoop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.sparkbeton.loader.Batch;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.LoaderBuilder;
import org.sparkbeton.loader.LoaderTimings;
import org.sparkbeton.loader.bench.Throughput;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.decoders.RandomResizedCropRgbDecoder;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.order.ShardWindowOrder;
import org.sparkbeton.loader.order.TraversalOrder;
import org.sparkbeton.loader.store.StagingListener;
import org.sparkbeton.loader.testing.ShardDirs;
import org.sparkbeton.loader.transforms.RandomHorizontalFlip;
import org.sparkbeton.testsupport.S3ProxyServer;

/**
 * Remote loading figures, not a test: one dataset of photos, read (a) cold from a local S3 server (S3Proxy
 * in its own JVM, read through S3A) into an empty cache, (b) warm, from the cache the cold epoch filled (a
 * new loader, as a restarted job sees it; the cold loader's own next epoch stages cached shards the same
 * way), and (c) from the local files in place. All three run the same epoch (same samples, order and
 * random crops), pipeline (RandomResizedCrop 224 + flip, uint8), batch and threads, so that they do the
 * same decoding work. Rounds alternate (cold, warm, local, then cold, local, warm, ...) so that the
 * machine's drift hits all three alike, and warm and local take turns right after the cold epoch; the table
 * shows medians, with where the workers' time went (per thread: decoding, or waiting for shards to be staged),
 * the CPU time of this JVM and of the S3 server, and this JVM's minor page faults.
 * Also: a download-only epoch (labels only: no payload is decoded) for the store's bandwidth, and the time
 * to the first batch of each cold epoch.
 *
 * <pre>
 * M=loader-hadoop
 * ./mvnw -q -pl $M -am test-compile dependency:build-classpath \
 *   -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
 * java -Xmx3g -Ds3proxy.jar=$M/target/s3proxy/s3proxy.jar \
 *   -cp $M/target/test-classes:$M/target/classes:$(cat $M/target/bench.classpath) \
 *   org.sparkbeton.loader.hadoop.RemoteLoaderBenchmark [dir] [images=20000] [shards=40] [threads=cores] [rounds=3] \
 *   [tables=window,window-1,random] [downloads=4] [store=files|memory]
 * </pre>
 *
 * Tables: {@code window} is {@code ShardWindowOrder.window(4)} with {@code threads} decoding threads,
 * {@code window-1} the same with one thread fewer (a core left to the downloads), {@code random} RANDOM
 * (the dataset fits the cache, so the first batch needs nearly every shard). {@code downloads} is the loader's
 * most downloads at once (it starts at one and grows while its workers wait). The store keeps its objects in
 * files ({@code files}, jclouds' filesystem store) or in its heap ({@code memory}, jclouds' transient store:
 * less of the server's CPU per byte on the cores the loader decodes on).
 */
public final class RemoteLoaderBenchmark {
  private RemoteLoaderBenchmark() {}

  /** An epoch's wall time, time to its first batch, images, and CPU seconds of this JVM and of the S3 server. */
  record Epoch(double seconds, double firstBatchSeconds, int images, double cpu, double serverCpu, double busy,
      double shardWait, int peakDownloads, long pageFaults) {
    double rate() {
      return images / seconds;
    }

    Epoch withPeak(int peak) {
      return new Epoch(seconds, firstBatchSeconds, images, cpu, serverCpu, busy, shardWait, peak, pageFaults);
    }
  }

  /** The most downloads in flight at once (from a shard's first progress to its end), as the listener sees them. */
  static final class Peak implements StagingListener {
    private final java.util.Set<String> active = new java.util.HashSet<>();
    private int peak;

    @Override
    public synchronized void progress(String shard, long bytes, long total) {
      if (active.add(shard)) {
        peak = Math.max(peak, active.size());
      }
    }

    @Override
    public synchronized void downloaded(String shard, long fetched, long resumedFrom) {
      active.remove(shard);
    }

    synchronized int get() {
      return peak;
    }
  }

  public static void main(String[] args) throws Exception {
    Path dir = args.length > 0 ? Files.createDirectories(Path.of(args[0])) : Files.createTempDirectory("remote-bench");
    int images = args.length > 1 ? Integer.parseInt(args[1]) : 20000;
    int shards = args.length > 2 ? Integer.parseInt(args[2]) : 40;
    int threads = args.length > 3 ? Integer.parseInt(args[3]) : Runtime.getRuntime().availableProcessors();
    int rounds = args.length > 4 ? Integer.parseInt(args[4]) : 3;
    List<String> tables = List.of((args.length > 5 ? args[5] : "window,window-1,random").split(","));
    int downloads = args.length > 6 ? Integer.parseInt(args[6]) : 4;
    boolean inMemory = args.length > 7 && switch (args[7]) {
      case "files" -> false;
      case "memory" -> true;
      default -> throw new IllegalArgumentException("Unknown store '" + args[7] + "': expected files or memory");
    };
    Path local = dir.resolve("photos-" + images + "-" + shards);
    if (!Files.exists(local.resolve("_manifest.json"))) {
      PhotoShards.write(local, shards, images / shards, Math.min(images, 300));
    }
    long bytes = ShardDirs.totalBytes(local);
    String key = local.getFileName().toString();
    try (S3ProxyServer s3 = inMemory ? S3ProxyServer.start(dir.resolve("s3-memory"), true, List.of("-Xmx2g"))
        : S3ProxyServer.start(dir.resolve("s3"))) {
      S3ProxyHadoop.upload(s3, local, key);
      System.out.printf(Locale.ROOT, "%d photos in %d shards (%.1f MB) on S3Proxy (same machine, %d cores; objects"
          + " %s); RandomResizedCrop 224 + flip, batch 128, at most %d downloads at once; median of %d alternating"
          + " rounds%n%n", images / shards * shards, shards, bytes / 1e6, Runtime.getRuntime().availableProcessors(),
          inMemory ? "in the server's heap" : "in files", downloads, rounds);
      Bench bench = new Bench(s3, key, local, dir.resolve("cache"), rounds, bytes, downloads);
      for (String table : tables) {
        switch (table.trim()) {
          case "window" -> bench.table(ShardWindowOrder.window(4), "ShardWindowOrder.window(4)", threads);
          case "window-1" -> bench.table(ShardWindowOrder.window(4), "ShardWindowOrder.window(4)", threads - 1);
          case "random" -> bench.table(OrderOption.RANDOM, "RANDOM", threads);
          default -> throw new IllegalArgumentException("Unknown table '" + table + "': expected window, window-1 or"
              + " random");
        }
      }
    }
  }

  /** The dataset on the S3 server and on local disk, rounds per table, and shards downloaded at once. */
  record Bench(S3ProxyServer s3, String key, Path local, Path cache, int rounds, long bytes, int downloads) {
    void table(TraversalOrder.Factory order, String name, int threads) throws IOException {
      if (threads < 1) {
        return;
      }
      try (Loader warmUp = images(Loader.builder(local), order, threads).build()) {
        epoch(warmUp, s3, threads); // JIT
      }
      List<Epoch> cold = new ArrayList<>();
      List<Epoch> warm = new ArrayList<>();
      List<Epoch> inPlace = new ArrayList<>();
      List<Epoch> download = new ArrayList<>();
      List<Double> builds = new ArrayList<>();
      for (int r = 0; r < rounds; r++) {
        int e = r; // all three read epoch r: the same samples, order and crops
        clear(cache);
        long t0 = System.nanoTime();
        Peak peak = new Peak();
        try (Loader loader = labels(remote(peak), order, threads).startEpoch(e).build()) {
          builds.add((System.nanoTime() - t0) / 1e9);
          download.add(epoch(loader, s3, threads).withPeak(peak.get()));
        }
        clear(cache);
        peak = new Peak();
        try (Loader loader = images(remote(peak), order, threads).startEpoch(e).build()) {
          cold.add(epoch(loader, s3, threads).withPeak(peak.get()));
        }
        // warm and local take turns right after the cold epoch, whose freed memory the next epoch's loader takes
        if (r % 2 == 1) {
          inPlace.add(local(order, threads, e));
        }
        try (Loader loader = images(remote(new Peak()), order, threads).startEpoch(e).build()) {
          warm.add(epoch(loader, s3, threads));
        }
        if (r % 2 == 0) {
          inPlace.add(local(order, threads, e));
        }
      }
      Epoch c = median(cold);
      Epoch w = median(warm);
      Epoch l = median(inPlace);
      Epoch d = median(download);
      System.out.println("Order " + name + ", " + threads + " decoding thread" + (threads == 1 ? "" : "s") + ":");
      System.out.println();
      System.out.println("| epoch | seconds | images/s | time vs warm | images/s vs local files | first batch |"
          + " worker busy s | worker waiting for shards s | CPU s, loader | CPU s, S3 server | downloads at once, peak"
          + " | loader's page faults |");
      System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
      line("cold: S3 into an empty cache", c, w, l);
      line("warm: from the cache", w, w, l);
      line("local files read in place", l, w, l);
      System.out.printf(Locale.ROOT, "| download only (labels, no payload decoded) | %.2f | | | | %.3f s | | %.2f |"
          + " %.2f | %.2f | %d | %d |%n%n", d.seconds, d.firstBatchSeconds, d.shardWait, d.cpu, d.serverCpu,
          d.peakDownloads, d.pageFaults);
      System.out.printf(Locale.ROOT, "store bandwidth %.0f MB/s (download-only epoch), decoding consumes %.0f MB/s"
          + " (local epoch); opening the dataset (manifest + metadata of every shard) %.2f s (median)%n",
          bytes / d.seconds / 1e6, bytes / l.seconds / 1e6, medianOf(builds));
      System.out.printf(Locale.ROOT, "CPU per downloaded byte: loader %.2f ns/B (cold minus warm epoch), %.2f ns/B"
          + " (download-only epoch, all of its CPU); S3 server %.2f ns/B (cold epoch), %.2f ns/B (download only);"
          + " decoding %.2f ns/B (warm epoch's CPU)%n", (c.cpu - w.cpu) / bytes * 1e9, d.cpu / bytes * 1e9,
          c.serverCpu / bytes * 1e9, d.serverCpu / bytes * 1e9, w.cpu / bytes * 1e9);
      System.out.printf(Locale.ROOT, "cold / warm time %.2fx (goal <= 1.2x), warm / local images/s %.2fx (goal >="
          + " 0.97x), cold first batch %.3f s; rounds: cold %s, warm %s, local %s s; cold first batch %s s%n%n",
          c.seconds / w.seconds, w.rate() / l.rate(), c.firstBatchSeconds, seconds(cold), seconds(warm),
          seconds(inPlace), firsts(cold));
    }

    private Epoch local(TraversalOrder.Factory order, int threads, int epoch) throws IOException {
      try (Loader loader = images(Loader.builder(local), order, threads).startEpoch(epoch).build()) {
        return epoch(loader, s3, threads);
      }
    }

    private LoaderBuilder remote(Peak peak) {
      return Loader.builder(s3.uri(key), new HadoopDatasetStoreProvider(S3ProxyHadoop.conf(s3))).cacheDir(cache)
          .downloads(downloads).stagingListener(peak);
    }
  }

  static void line(String name, Epoch e, Epoch warm, Epoch local) {
    System.out.printf(Locale.ROOT, "| %s | %.2f | %.0f | %.2fx | %.2fx | %.3f s | %.2f | %.2f | %.2f | %.2f | %s | %d |%n",
        name, e.seconds, e.rate(), e.seconds / warm.seconds, e.rate() / local.rate(), e.firstBatchSeconds, e.busy,
        e.shardWait, e.cpu, e.serverCpu, e.peakDownloads > 0 ? Integer.toString(e.peakDownloads) : "", e.pageFaults);
  }

  static LoaderBuilder images(LoaderBuilder b, TraversalOrder.Factory order, int threads) {
    return b.batchSize(128).numThreads(threads).order(order).seed(1)
        .pipeline("image", new RandomResizedCropRgbDecoder(224, 224), new RandomHorizontalFlip())
        .pipeline("label", new IntDecoder());
  }

  static LoaderBuilder labels(LoaderBuilder b, TraversalOrder.Factory order, int threads) {
    return b.batchSize(128).numThreads(threads).order(order).seed(1).pipeline("label", new IntDecoder());
  }

  /** One epoch: seconds from {@code iterator()} to the last batch, and to the first; CPU seconds used meanwhile. */
  static Epoch epoch(Loader loader, S3ProxyServer s3, int threads) {
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    long cpu0 = os.getProcessCpuTime();
    long faults0 = Throughput.minorPageFaults();
    double server0 = s3.cpuSeconds();
    long start = System.nanoTime();
    Iterator<Batch> it = loader.iterator();
    double first = -1;
    int n = 0;
    while (it.hasNext()) {
      Batch b = it.next();
      if (first < 0) {
        first = (System.nanoTime() - start) / 1e9;
      }
      n += b.size();
    }
    LoaderTimings t = loader.timings();
    return new Epoch((System.nanoTime() - start) / 1e9, first, n, (os.getProcessCpuTime() - cpu0) / 1e9,
        s3.cpuSeconds() - server0, t.busy() / 1e9 / threads, t.cacheWait() / 1e9 / threads, 0,
        Throughput.minorPageFaults() - faults0);
  }


  static Epoch median(List<Epoch> epochs) {
    List<Epoch> sorted = new ArrayList<>(epochs);
    sorted.sort(Comparator.comparingDouble(Epoch::seconds));
    Epoch mid = sorted.get(sorted.size() / 2);
    double[] firsts = epochs.stream().mapToDouble(Epoch::firstBatchSeconds).sorted().toArray();
    return new Epoch(mid.seconds, firsts[firsts.length / 2], mid.images, mid.cpu, mid.serverCpu, mid.busy,
        mid.shardWait, mid.peakDownloads, mid.pageFaults);
  }

  static double medianOf(List<Double> values) {
    double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return v[v.length / 2];
  }

  static String seconds(List<Epoch> epochs) {
    return Arrays.toString(epochs.stream().mapToDouble(e -> Math.round(e.seconds * 100) / 100.0).toArray());
  }

  static String firsts(List<Epoch> epochs) {
    return Arrays.toString(epochs.stream().mapToDouble(e -> Math.round(e.firstBatchSeconds * 1000) / 1000.0).toArray());
  }

  static void clear(Path cache) throws IOException {
    if (Files.isDirectory(cache)) {
      try (Stream<Path> files = Files.list(cache)) {
        for (Path f : (Iterable<Path>) files::iterator) {
          Files.delete(f);
        }
      }
    }
  }
}
